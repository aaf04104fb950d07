package dev.zarrj.codec.gzip.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.gzip.GzipConfiguration;
import java.util.List;
import java.util.stream.IntStream;

/** Creates {@code gzip} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class GzipCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public GzipCodecProvider() {}

    @Override
    public String name() {
        return GzipConfiguration.NAME;
    }

    /** Levels 0 (stored blocks only), 1 (fastest), 6 (zlib's default) and 9 (smallest). */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return IntStream.of(0, 1, 6, 9).mapToObj(l -> GzipConfiguration.level(l).configurationJson()).toList();
    }

    /**
     * @throws dev.zarrj.api.InvalidMetadataException when {@code level} is missing, not an integer
     *         in [0, 9], or another field is present
     */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("level");
        int level = config.intField("level", GzipConfiguration.MIN_LEVEL, GzipConfiguration.MAX_LEVEL);
        return new GzipCodec(GzipConfiguration.level(level));
    }
}
