package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.astype} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class AsTypeCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public AsTypeCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.astype";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"encode_dtype\": \"<f4\", \"decode_dtype\": \"<f8\"}", "{\"encode_dtype\": \"|i1\", \"decode_dtype\": \"<i4\"}", "{\"encode_dtype\": \"uint8\", \"decode_dtype\": \"float32\"}", "{\"encode_dtype\": \"<i8\"}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("encode_dtype", "decode_dtype");
        DType encode = Configs.dtype(config, "encode_dtype");
        if (encode == null) {
            throw config.error("encode_dtype", "required field 'encode_dtype' is missing");
        }
        return new AsTypeCodec(encode, Configs.dtype(config, "decode_dtype"), config.pointer());
    }
}
