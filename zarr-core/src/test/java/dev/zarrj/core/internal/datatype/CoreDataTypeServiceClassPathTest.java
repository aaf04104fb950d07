package dev.zarrj.core.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.datatype.DataTypeProvider;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The core data type providers are found by {@link ServiceLoader}. Runs on the module path (the
 * {@code provides} clause) and again on the class path ({@code META-INF/services}).
 */
class CoreDataTypeServiceClassPathTest {
    @Test
    void serviceLoaderFindsEveryCoreDataType() {
        Set<String> names = new TreeSet<>();
        for (DataTypeProvider p : ServiceLoader.load(DataTypeProvider.class)) {
            if (p.getClass().getEnclosingClass() == CoreDataTypeProviders.class) {
                names.add(p.name());
            }
        }
        assertEquals(new TreeSet<>(Set.of("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                "uint64", "float16", "float32", "float64", "complex64", "complex128", "r*")), names);
    }
}
