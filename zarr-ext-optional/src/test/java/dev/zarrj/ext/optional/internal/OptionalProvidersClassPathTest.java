package dev.zarrj.ext.optional.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NamedProvider;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataTypeProvider;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** Runs on the class path too, where only the generated {@code META-INF/services} entries count. */
class OptionalProvidersClassPathTest {
    private static <P extends NamedProvider> void found(Class<P> service, Class<? extends P> provider) {
        OptionalProvidersClassPathTest.class.getModule().addUses(service); // no-op on the class path
        assertTrue(ServiceLoader.load(service).stream().anyMatch(p -> p.type() == provider), provider.getName());
    }

    @Test
    void bothProvidersAreFoundByServiceLoader() {
        found(DataTypeProvider.class, OptionalTypeProvider.class);
        found(CodecProvider.class, OptionalCodecProvider.class);
    }

    @Test
    void onTheModulePathTheModuleProvidesThemAndHidesItsInternals() {
        Module m = OptionalTypeProvider.class.getModule();
        if (m.isNamed()) {
            assertTrue(m.getDescriptor().provides().stream().anyMatch(p -> p.service().equals(
                    DataTypeProvider.class.getName()) && p.providers().contains(OptionalTypeProvider.class.getName())));
            assertTrue(m.getDescriptor().provides().stream().anyMatch(p -> p.service().equals(
                    CodecProvider.class.getName()) && p.providers().contains(OptionalCodecProvider.class.getName())));
            assertTrue(m.getDescriptor().exports().stream().noneMatch(e -> e.source().endsWith(".internal")),
                    "the internal package is not exported");
        } else {
            assertTrue(Boolean.getBoolean("zarrj.expectClassPath"), "unnamed module outside the class-path run");
        }
    }
}
