package dev.zarrj.ext.strings.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;

/** The {@code vlen-bytes} codec, for the {@code bytes} data type; it has no configuration. */
@AutoService(CodecProvider.class)
public final class VlenBytesCodecProvider implements CodecProvider {
    public VlenBytesCodecProvider() {}

    @Override
    public String name() {
        return "vlen-bytes";
    }

    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields();
        return VlenCodec.BYTES;
    }
}
