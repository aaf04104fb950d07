package dev.zarrj.ext.datetime.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.ext.datetime.DateTimeUnit;
import dev.zarrj.ext.datetime.NumpyTimeType;
import dev.zarrj.ext.datetime.NumpyTimeType.Variant;
import java.util.ArrayList;
import java.util.List;

/** What the two providers share: reading {@code {unit, scale_factor}}, both required, nothing else. */
final class NumpyTimeProviders {
    private NumpyTimeProviders() {}

    /** Every identifier the spec allows, {@code "μs"} included. */
    private static final String[] UNITS = {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "\u03bcs", "ns", "ps", "fs",
        "as", "generic"};

    static NumpyTimeType create(Variant variant, ExtensionConfig config) {
        config.rejectUnknownFields("unit", "scale_factor");
        String unit = config.stringField("unit", UNITS);
        int scale = config.intField("scale_factor", 1, NumpyTimeType.MAX_SCALE_FACTOR);
        return NumpyTimeType.of(variant, DateTimeUnit.of(unit).orElseThrow(), unit, scale);
    }

    /** Every unit with scale factor 1, and a few scaled ones (the largest included). */
    static List<ObjectNode> examples() {
        List<ObjectNode> out = new ArrayList<>();
        for (String u : UNITS) {
            out.add(config(u, 1));
        }
        out.add(config("ms", 10));
        out.add(config("us", 10));
        out.add(config("s", NumpyTimeType.MAX_SCALE_FACTOR));
        return out;
    }

    private static ObjectNode config(String unit, int scale) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("unit", unit);
        c.put("scale_factor", scale);
        return c;
    }
}
