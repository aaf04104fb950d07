package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.adler32} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class Adler32CodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public Adler32CodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.adler32";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{}", "{\"location\": \"end\"}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        return Checksums.create(config, ChecksumCodec.Algorithm.ADLER32);
    }
}
