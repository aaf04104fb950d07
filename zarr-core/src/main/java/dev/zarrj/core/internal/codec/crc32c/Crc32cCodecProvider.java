package dev.zarrj.core.internal.codec.crc32c;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;

/** Creates the {@code crc32c} codec; its configuration must be empty. */
@AutoService(CodecProvider.class)
public final class Crc32cCodecProvider implements CodecProvider {
    static final String NAME = "crc32c";

    /** For {@link java.util.ServiceLoader}. */
    public Crc32cCodecProvider() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields();
        return Crc32cCodec.INSTANCE;
    }
}
