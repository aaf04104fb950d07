package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code packbits} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class PackBitsCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public PackBitsCodecProvider() {}

    @Override
    public String name() {
        return PackBitsCodec.NAME;
    }

    /**
     * The lossless configurations only: the kit holds lossy codecs to fixed points for array→array
     * codecs alone, so the bit ranges are tested in this module's own tests.
     */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Json.objects("{}", "{\"padding_encoding\": \"first_byte\"}", "{\"padding_encoding\": \"last_byte\"}",
                "{\"padding_encoding\": \"none\", \"first_bit\": null, \"last_bit\": null}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("padding_encoding", "first_bit", "last_bit");
        PackBitsCodec.Padding padding = PackBitsCodec.Padding.of(
                config.optionalStringField("padding_encoding", "none", "first_byte", "last_byte").orElse("none"));
        int first = nullableBit(config, "first_bit", 0);
        int last = nullableBit(config, "last_bit", -1);
        if (last >= 0 && last < first) {
            throw config.error("last_bit", "packbits: last_bit " + last + " is below first_bit " + first);
        }
        return new PackBitsCodec(padding, first, last, config.pointer());
    }

    /** An optional bit index that may also be given as null; {@code absent} when omitted or null. */
    private static int nullableBit(ExtensionConfig config, String field, int absent) {
        JsonNode v = config.field(field).orElse(null);
        if (v == null || v.isNull()) {
            return absent;
        }
        return config.intField(field, 0, 63);
    }
}
