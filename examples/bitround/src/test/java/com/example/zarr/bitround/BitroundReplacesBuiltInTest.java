package com.example.zarr.bitround;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import dev.zarrj.core.registry.RegistryReport;
import org.junit.jupiter.api.Test;

/** With zarrj's own bitround installed too (zarr-codec-registry), this plugin's higher priority wins. */
class BitroundReplacesBuiltInTest {
    @Test
    void theHigherPriorityProviderIsTheOneResolved() {
        ExtensionRegistry registry = ExtensionRegistry.discover();
        CodecProvider p = registry.find(ExtensionPoint.CODEC, "bitround", CodecProvider.class).orElseThrow();
        assertEquals("com.example.zarr.bitround.internal.BitroundCodecProvider", p.getClass().getName());
        RegistryReport.Conflict c = registry.report().conflicts().stream()
                .filter(x -> x.name().equals("bitround")).findFirst().orElseThrow();
        assertTrue(!c.unresolved() && c.claimants().size() == 2, c.toString());
    }
}
