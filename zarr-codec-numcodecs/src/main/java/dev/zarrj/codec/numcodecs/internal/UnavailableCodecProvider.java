package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;

/**
 * A numcodecs codec that zarrj knows but cannot run: it is registered so that opening an array
 * that uses it fails with a message naming the codec and what would provide it, instead of
 * "unknown codec".
 */
abstract class UnavailableCodecProvider implements CodecProvider {
    private final String name;
    private final String reason;

    UnavailableCodecProvider(String name, String reason) {
        this.name = name;
        this.reason = reason;
    }

    @Override
    public String name() {
        return name;
    }

    /** @throws UnsupportedFormatException always, naming the codec and what would provide it */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        throw new UnsupportedFormatException(config.pointer(), name + " is not supported by zarrj: " + reason);
    }
}
