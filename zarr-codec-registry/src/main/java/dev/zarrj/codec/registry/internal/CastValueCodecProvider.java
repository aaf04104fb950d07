package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.Iterator;
import java.util.List;

/** Creates {@code cast_value} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class CastValueCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public CastValueCodecProvider() {}

    @Override
    public String name() {
        return CastValueCodec.NAME;
    }

    /**
     * Configurations that cast every value of every type they accept (the kit's samples hold NaN,
     * infinities and values beyond any range), and come back to a fixed point.
     */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Json.objects("{\"data_type\": \"float64\", \"out_of_range\": \"clamp\"}",
                "{\"data_type\": \"float32\", \"rounding\": \"towards-zero\", \"out_of_range\": \"clamp\"}",
                "{\"data_type\": \"int64\", \"rounding\": \"towards-zero\", \"out_of_range\": \"clamp\", \"scalar_map\":"
                        + " {\"encode\": [[\"NaN\", 0], [\"Infinity\", 9223372036854775807],"
                        + " [\"-Infinity\", -9223372036854775808]]}}",
                "{\"data_type\": \"uint8\", \"rounding\": \"towards-zero\", \"out_of_range\": \"wrap\", \"scalar_map\":"
                        + " {\"encode\": [[\"NaN\", 0], [\"+Infinity\", 0], [\"-Infinity\", 0]]}}");
    }

    /** @throws InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("data_type", "rounding", "out_of_range", "scalar_map");
        if (!config.has("data_type")) {
            throw config.error("data_type", "cast_value: required field 'data_type' is missing");
        }
        RealType target = RealType.of(context.dataType(config.nodeField("data_type"), config.pointer("data_type")),
                config.pointer("data_type"), "cast_value", "the data_type");
        String rounding = config.optionalStringField("rounding", "nearest-even", "towards-zero", "towards-positive",
                "towards-negative", "nearest-away").orElse(null);
        String outOfRange = config.optionalStringField("out_of_range", "clamp", "wrap").orElse(null);
        if ("wrap".equals(outOfRange) && !target.integer) {
            throw config.error("out_of_range", "cast_value: out_of_range \"wrap\" applies to integer data types,"
                    + " not " + target);
        }
        ObjectNode scalarMap = null;
        if (config.has("scalar_map")) {
            scalarMap = scalarMap(config);
        }
        Cast cast = new Cast(rounding == null ? Cast.Rounding.NEAREST_EVEN : Cast.Rounding.of(rounding),
                outOfRange == null ? null : Cast.OutOfRange.of(outOfRange));
        return new CastValueCodec(target, cast, scalarMap, rounding != null, config.pointer());
    }

    /** The scalar map's shape: an object of {@code encode}/{@code decode} lists of pairs (values are checked per array). */
    private static ObjectNode scalarMap(ExtensionConfig config) {
        JsonNode m = config.nodeField("scalar_map");
        if (!m.isObject()) {
            throw config.error("scalar_map", "cast_value: 'scalar_map' must be an object, found " + m);
        }
        Iterator<String> names = m.fieldNames();
        while (names.hasNext()) {
            String f = names.next();
            if (!f.equals("encode") && !f.equals("decode")) {
                throw new InvalidMetadataException(config.pointer("scalar_map") + "/" + f, "cast_value: unknown"
                        + " scalar_map field '" + f + "'; allowed: decode, encode");
            }
            JsonNode list = m.get(f);
            boolean ok = list.isArray();
            for (int i = 0; ok && i < list.size(); i++) {
                ok = list.get(i).isArray() && list.get(i).size() == 2;
            }
            if (!ok) {
                throw new InvalidMetadataException(config.pointer("scalar_map") + "/" + f, "cast_value: scalar_map '"
                        + f + "' must be an array of [input, output] pairs, found " + list);
            }
        }
        return (ObjectNode) m;
    }
}
