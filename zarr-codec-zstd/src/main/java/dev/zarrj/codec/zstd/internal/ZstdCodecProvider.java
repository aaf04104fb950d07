package dev.zarrj.codec.zstd.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import java.util.List;
import java.util.Optional;

/** Creates {@code zstd} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class ZstdCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing (the native library loads on first use). */
    public ZstdCodecProvider() {}

    @Override
    public String name() {
        return ZstdConfiguration.NAME;
    }

    /** The default level without checksum, a fast negative level, and level 7 with a checksum. */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return List.of(ZstdConfiguration.defaults().configurationJson(),
                ZstdConfiguration.of(-3, false).configurationJson(),
                ZstdConfiguration.of(7, true).configurationJson());
    }

    /**
     * Missing fields take their defaults: {@code level} 0 (zstd's default), {@code checksum}
     * false. The codec writes both back.
     *
     * @throws dev.zarrj.api.InvalidMetadataException when {@code level} is not an integer in
     *         [-131072, 22], {@code checksum} is not a boolean, either is null, or another field is
     *         present
     */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("level", "checksum");
        rejectNull(config, "level", "an integer in [" + ZstdConfiguration.MIN_LEVEL + ", "
                + ZstdConfiguration.MAX_LEVEL + "]");
        rejectNull(config, "checksum", "true or false");
        int level = config.intField("level", ZstdConfiguration.MIN_LEVEL, ZstdConfiguration.MAX_LEVEL,
                ZstdConfiguration.DEFAULT_LEVEL);
        boolean checksum = config.booleanField("checksum", ZstdConfiguration.DEFAULT_CHECKSUM);
        return new ZstdCodec(ZstdConfiguration.of(level, checksum));
    }

    /** An explicit null is an error, not a request for the default. */
    private static void rejectNull(ExtensionConfig config, String field, String allowed) {
        Optional<JsonNode> value = config.field(field);
        if (value.isPresent() && value.get().isNull()) {
            throw config.error(field, "'" + field + "' must be " + allowed + ", found null"
                    + " (leave the field out for the default)");
        }
    }
}
