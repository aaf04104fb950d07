package dev.zarrj.conformance.core;

import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.conformance.DataTypeContract;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.util.List;
import org.junit.jupiter.api.Nested;

/**
 * Every core data type of data-types.rst against the data type contract, each through the provider
 * that discovery finds for its name (as metadata resolves it).
 */
class CoreDataTypeConformanceTest {
    static DataTypeProvider provider(String name) {
        return ExtensionRegistry.discover().find(ExtensionPoint.DATA_TYPE, name, DataTypeProvider.class)
                .orElseThrow(() -> new AssertionError("no data type provider for '" + name + "'"));
    }

    abstract static class Core extends DataTypeContract {
        private final String name;

        Core(String name) {
            this.name = name;
        }

        @Override
        protected DataTypeProvider provider() {
            return CoreDataTypeConformanceTest.provider(name);
        }
    }

    @Nested class Bool extends Core { Bool() { super("bool"); } }
    @Nested class Int8 extends Core { Int8() { super("int8"); } }
    @Nested class Int16 extends Core { Int16() { super("int16"); } }
    @Nested class Int32 extends Core { Int32() { super("int32"); } }
    @Nested class Int64 extends Core { Int64() { super("int64"); } }
    @Nested class UInt8 extends Core { UInt8() { super("uint8"); } }
    @Nested class UInt16 extends Core { UInt16() { super("uint16"); } }
    @Nested class UInt32 extends Core { UInt32() { super("uint32"); } }
    @Nested class UInt64 extends Core { UInt64() { super("uint64"); } }
    @Nested class Float16 extends Core { Float16() { super("float16"); } }
    @Nested class Float32 extends Core { Float32() { super("float32"); } }
    @Nested class Float64 extends Core { Float64() { super("float64"); } }
    @Nested class Complex64 extends Core { Complex64() { super("complex64"); } }
    @Nested class Complex128 extends Core { Complex128() { super("complex128"); } }

    /** The raw family {@code r*}, served by one provider: several widths. */
    @Nested
    class Raw extends Core {
        Raw() {
            super("r*");
        }

        @Override
        protected List<ExtensionConfig> configurations() {
            return List.of(ExtensionConfig.of("r8", null, "/data_type"), ExtensionConfig.of("r16", null, "/data_type"),
                    ExtensionConfig.of("r24", null, "/data_type"), ExtensionConfig.of("r72", null, "/data_type"));
        }
    }
}
