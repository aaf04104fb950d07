package com.example.zarr.bitround.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/**
 * Creates {@code bitround} codecs from {@code {"keepbits": n}}, n ≥ 1.
 *
 * <p>zarrj ships {@code bitround} too (zarr-codec-registry). This provider replaces it: its
 * {@link #priority()} is above the built-ins', so the registry picks it wherever both are
 * installed. Without the higher priority, two providers of one name would fail the registry with
 * an {@code ExtensionConflictException} naming both.
 */
@AutoService(CodecProvider.class)
public final class BitroundCodecProvider implements CodecProvider {
    /** Above {@link dev.zarrj.api.NamedProvider#BUILT_IN_PRIORITY}: replaces zarrj's own {@code bitround}. */
    static final int PRIORITY = BUILT_IN_PRIORITY + 10;

    @Override
    public String name() {
        return "bitround";
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("keepbits");
        return new BitroundCodec(config.intField("keepbits", 1, 64));
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return List.of(f.objectNode().put("keepbits", 1), f.objectNode().put("keepbits", 3),
                f.objectNode().put("keepbits", 10), f.objectNode().put("keepbits", 52));
    }
}
