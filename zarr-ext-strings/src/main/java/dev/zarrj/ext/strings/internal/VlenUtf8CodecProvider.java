package dev.zarrj.ext.strings.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;

/** The {@code vlen-utf8} codec, for the {@code string} data type; it has no configuration. */
@AutoService(CodecProvider.class)
public final class VlenUtf8CodecProvider implements CodecProvider {
    public VlenUtf8CodecProvider() {}

    @Override
    public String name() {
        return "vlen-utf8";
    }

    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields();
        return VlenCodec.UTF8;
    }
}
