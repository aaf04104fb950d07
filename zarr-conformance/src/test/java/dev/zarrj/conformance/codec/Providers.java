package dev.zarrj.conformance.codec;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;

/** The installed codec providers, found by name the way arrays find them. */
final class Providers {
    private Providers() {}

    static CodecProvider codec(String name) {
        return Zarr.defaults().registry().find(ExtensionPoint.CODEC, name, CodecProvider.class)
                .orElseThrow(() -> new AssertionError("no codec provider '" + name + "' installed"));
    }
}
