package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** This module's providers by name, and codecs made from JSON, for the tests. */
final class Providers {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String POINTER = "/codecs/0/configuration";
    static final ProviderContext NO_CONTEXT = (codecs, pointer) -> {
        throw new AssertionError("numcodecs codecs do not nest codecs");
    };

    static final List<CodecProvider> ALL = List.of(new ZlibCodecProvider(), new Bz2CodecProvider(),
            new LzmaCodecProvider(), new Lz4CodecProvider(), new Adler32CodecProvider(), new Crc32CodecProvider(), new Crc32cCodecProvider(), new GzipCodecProvider(),
            new Fletcher32CodecProvider(), new JenkinsLookup3CodecProvider(), new ShuffleCodecProvider(), new DeltaCodecProvider(),
            new FixedScaleOffsetCodecProvider(), new QuantizeCodecProvider(), new BitRoundCodecProvider(),
            new AsTypeCodecProvider(), new PackBitsCodecProvider(), new ZfpyCodecProvider(), new PcodecCodecProvider());

    static final Map<String, CodecProvider> BY_NAME = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(CodecProvider::name, Function.identity()));

    private Providers() {}

    static Codec create(String name, JsonNode configuration) {
        CodecProvider p = BY_NAME.get(name);
        if (p == null) {
            throw new AssertionError("no provider " + name);
        }
        return p.create(ExtensionConfig.of(name, configuration, POINTER), NO_CONTEXT);
    }

    static Codec create(String name, String configuration) {
        try {
            return create(name, configuration == null ? null : JSON.readTree(configuration));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
