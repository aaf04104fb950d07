package dev.zarrj.ext.optional;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.CodecConfiguration;
import dev.zarrj.api.datatype.DataType;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The configuration of zarrs' {@code optional} array→bytes codec: the codec chain of the mask
 * (a {@code bool} array of the chunk's shape, true where present) and the codec chain of the
 * present values (a 1-d array of the inner type holding only them, in C order).
 *
 * <p>For a nested type the data chain is itself an {@code optional} codec; {@link #of(OptionalType,
 * JsonNode, JsonNode)} builds one level per nesting. zarrs writes the mask with {@code packbits}
 * (zarr-codec-registry) and the values with {@code bytes}, which {@link #zarrsDefault} gives:
 *
 * <pre>{@code
 * OptionalType type = OptionalType.of(DataTypes.UINT8);
 * zarr.array(type, 4, 4).chunks(2, 2)
 *         .codec(OptionalConfiguration.zarrsDefault(type))
 *         .create(store, "/a");
 * }</pre>
 *
 * <p>Immutable: accessors return copies.
 *
 * @param name        {@link OptionalType#NAME} or {@link OptionalType#LEGACY_NAME}
 * @param maskCodecs  the mask's codec chain, a JSON array
 * @param dataCodecs  the present values' codec chain, a JSON array
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record OptionalConfiguration(String name, JsonNode maskCodecs, JsonNode dataCodecs)
        implements CodecConfiguration {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /**
     * {@code [{"name": "packbits"}]}: one bit per mask element, as zarrs writes masks (the codec is
     * in zarr-codec-registry). A fresh node.
     */
    public static JsonNode packbits() {
        return F.arrayNode().add(F.objectNode().put("name", "packbits"));
    }

    /** {@code [{"name": "bytes", "configuration": {"endian": "little"}}]}, a fresh node. */
    public static JsonNode littleEndianBytes() {
        ObjectNode bytes = F.objectNode().put("name", "bytes");
        bytes.putObject("configuration").put("endian", "little");
        return F.arrayNode().add(bytes);
    }

    /**
     * @throws InvalidMetadataException when the name is not one of {@link OptionalType#NAMES} or
     *                                  a chain is not a JSON array
     */
    public OptionalConfiguration {
        Objects.requireNonNull(name, "name");
        if (!OptionalType.NAMES.contains(name)) {
            throw new InvalidMetadataException("/name", "the optional codec is named one of " + OptionalType.NAMES
                    + ", not '" + name + "'");
        }
        maskCodecs = requireArray(maskCodecs, "mask_codecs");
        dataCodecs = requireArray(dataCodecs, "data_codecs");
    }

    private static JsonNode requireArray(JsonNode chain, String field) {
        if (chain == null || !chain.isArray()) {
            throw new InvalidMetadataException("/configuration/" + field, "optional: '" + field
                    + "' must be a JSON array of codecs, found " + chain);
        }
        return chain.deepCopy();
    }

    /** One level: the mask and the values through these chains, named {@link OptionalType#NAME}. */
    public static OptionalConfiguration of(JsonNode maskCodecs, JsonNode dataCodecs) {
        return new OptionalConfiguration(OptionalType.NAME, maskCodecs, dataCodecs);
    }

    /**
     * The codec for {@code type} at every nesting level: each level's mask through
     * {@code maskCodecs}, the innermost values through {@code valueCodecs}, each level named as
     * its type.
     */
    public static OptionalConfiguration of(OptionalType type, JsonNode maskCodecs, JsonNode valueCodecs) {
        DataType inner = type.inner();
        JsonNode data = inner instanceof OptionalType nested
                ? F.arrayNode().add(of(nested, maskCodecs, valueCodecs).toJson())
                : valueCodecs;
        return new OptionalConfiguration(type.name(), maskCodecs, data);
    }

    /**
     * What zarrs writes for {@code type} when no codec is given ({@code default_array_to_bytes_codec}):
     * masks with {@code packbits} at every level, the innermost values with {@code bytes} (little
     * endian). Needs zarr-codec-registry for {@code packbits}.
     */
    public static OptionalConfiguration zarrsDefault(OptionalType type) {
        return of(type, packbits(), littleEndianBytes());
    }

    @Override
    public JsonNode maskCodecs() {
        return maskCodecs.deepCopy();
    }

    @Override
    public JsonNode dataCodecs() {
        return dataCodecs.deepCopy();
    }

    /** {@code {"mask_codecs": [...], "data_codecs": [...]}}. */
    @Override
    public ObjectNode configurationJson() {
        ObjectNode c = F.objectNode();
        c.set("mask_codecs", maskCodecs.deepCopy());
        c.set("data_codecs", dataCodecs.deepCopy());
        return c;
    }
}
