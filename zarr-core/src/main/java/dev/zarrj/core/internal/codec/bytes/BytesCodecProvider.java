package dev.zarrj.core.internal.codec.bytes;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.nio.ByteOrder;

/** Creates {@code bytes} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class BytesCodecProvider implements CodecProvider {
    static final String NAME = "bytes";

    /** For {@link java.util.ServiceLoader}. */
    public BytesCodecProvider() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields(BytesCodec.ENDIAN);
        ByteOrder endian = config.optionalStringField(BytesCodec.ENDIAN, "little", "big")
                .map(e -> e.equals("little") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN)
                .orElse(null);
        return new BytesCodec(endian, config.pointer(BytesCodec.ENDIAN));
    }
}
