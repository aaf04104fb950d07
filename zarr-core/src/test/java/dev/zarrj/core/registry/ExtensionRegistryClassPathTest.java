package dev.zarrj.core.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.store.StoreProvider;
import org.junit.jupiter.api.Test;

/**
 * Runs in both Surefire executions. On the class path (the {@code class-path} execution) only the
 * {@code META-INF/services} files that auto-service writes can register providers, so this proves
 * they are complete.
 */
class ExtensionRegistryClassPathTest {
    @Test
    void everyBuiltInProviderIsDiscovered() {
        ExtensionRegistry r = ExtensionRegistry.discover();
        for (String codec : new String[] {"bytes", "transpose", "crc32c"}) {
            assertTrue(r.find(ExtensionPoint.CODEC, codec, CodecProvider.class).isPresent(), codec + " not discovered");
        }
        assertTrue(r.find(ExtensionPoint.STORE, "memory", StoreProvider.class).isPresent());
        assertEquals(15, r.names(ExtensionPoint.DATA_TYPE).size(), r.names(ExtensionPoint.DATA_TYPE).toString());
        assertTrue(r.report().loadProblems().isEmpty(), r.report().loadProblems().toString());
    }

    @Test
    void runsOnThePathItsExecutionNames() {
        Module core = ExtensionRegistry.class.getModule();
        if (Boolean.getBoolean("zarrj.expectClassPath")) {
            assertFalse(core.isNamed(), "the class-path execution must load zarr-core from the class path");
        } else {
            assertTrue(core.isNamed(), "the default execution must load zarr-core as the named module dev.zarrj.core");
            assertEquals("dev.zarrj.core", core.getName());
        }
    }
}
