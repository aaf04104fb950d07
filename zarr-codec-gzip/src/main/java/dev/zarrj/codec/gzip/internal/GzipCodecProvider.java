package dev.zarrj.codec.gzip.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.gzip.GzipConfiguration;

/** Creates {@code gzip} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class GzipCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public GzipCodecProvider() {}

    @Override
    public String name() {
        return GzipConfiguration.NAME;
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
