package dev.zarrj.conformance.internal.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.conformance.internal.extension.Extensions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Zarr v3 documents the metadata format contract writes and reads back, by name: groups with
 * and without attributes, arrays of the core data types with the {@code bytes} codec in both byte
 * orders, {@code regular} grids, the {@code v2} chunk key encoding with both separators, a 0-d and
 * an empty array, a Fortran-ordered array ({@code transpose}), and arrays a Zarr v2-like format
 * may refuse (dimension names, the {@code default} key encoding). Every one is valid for core.
 */
public final class FormatSamples {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private FormatSamples() {}

    /**
     * Every sample, fresh; with a group holding inline consolidated metadata when
     * {@code consolidated} (the format has a consolidated document).
     */
    public static Map<String, ObjectNode> all(boolean consolidated) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        out.put("group", group(null));
        out.put("group with attributes", group((ObjectNode) Extensions.json("""
                {"title": "conformance kit", "count": 3, "ratio": 0.25, "flag": true, "none": null,
                 "list": [1, "two", [3.5], {"k": false}], "nested": {"units": "m", "text": "é ✓ \\uD834\\uDD1E"},
                 "big": 18446744073709551615, "empty": {}}""")));
        out.put("int32 little-endian, '.' keys, attributes", array("int32", "[100, 60]", "[10, 20]", "0", ".",
                bytes("little"), "{\"units\": \"m\", \"scale\": 0.5}"));
        out.put("float64 big-endian, '/' keys", array("float64", "[7]", "[3]", "\"NaN\"", "/", bytes("big"), null));
        out.put("uint16 big-endian, 3-d", array("uint16", "[5, 6, 7]", "[2, 3, 4]", "7", ".", bytes("big"), null));
        out.put("int64 little-endian, '/' keys, attributes", array("int64", "[1000]", "[256]", "-1", "/",
                bytes("little"), "{\"long_name\": \"counts\"}"));
        out.put("float32 little-endian, -Infinity", array("float32", "[4, 4]", "[4, 4]", "\"-Infinity\"", ".",
                bytes("little"), null));
        out.put("uint64 big-endian, largest fill value", array("uint64", "[3]", "[2]", "18446744073709551615", "/",
                bytes("big"), null));
        out.put("complex128 little-endian", array("complex128", "[2, 2]", "[1, 2]", "[1.5, -2.0]", ".",
                bytes("little"), null));
        out.put("float32 big-endian, -0.0", array("float32", "[9]", "[4]", "-0.0", ".", bytes("big"), null));
        out.put("bool", array("bool", "[10]", "[4]", "false", ".", "[{\"name\": \"bytes\"}]", null));
        out.put("uint8, '/' keys", array("uint8", "[16, 16]", "[8, 8]", "255", "/", "[{\"name\": \"bytes\"}]", null));
        out.put("int8 0-d", array("int8", "[]", "[]", "-5", ".", "[{\"name\": \"bytes\"}]", null));
        out.put("int32 empty", array("int32", "[0, 3]", "[2, 3]", "0", ".", bytes("little"), null));
        out.put("int16 Fortran order (transpose)", array("int16", "[6, 4]", "[3, 2]", "0", ".",
                "[{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 0]}},"
                        + " {\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]", null));
        ObjectNode named = array("int32", "[4, 5]", "[2, 5]", "0", ".", bytes("little"), null);
        ArrayNode names = named.putArray("dimension_names");
        names.add("y").add("x");
        out.put("int32 with dimension names", named);
        ObjectNode defaultKeys = array("int32", "[4, 5]", "[2, 5]", "0", ".", bytes("little"), null);
        defaultKeys.set("chunk_key_encoding", Extensions.json("{\"name\": \"default\", \"configuration\": {\"separator\": \"/\"}}"));
        out.put("int32 with the default key encoding", defaultKeys);
        if (consolidated) {
            ObjectNode g = group((ObjectNode) Extensions.json("{\"title\": \"consolidated\"}"));
            ObjectNode member = g.putObject("consolidated_metadata");
            member.put("kind", "inline");
            member.put("must_understand", false);
            ObjectNode md = member.putObject("metadata");
            md.set("a", array("int32", "[100, 60]", "[10, 20]", "0", ".", bytes("little"), "{\"units\": \"m\"}"));
            md.set("g", group((ObjectNode) Extensions.json("{\"x\": 1}")));
            md.set("g/b", array("float64", "[7]", "[3]", "\"NaN\"", "/", bytes("big"), null));
            out.put("group with consolidated metadata", g);
        }
        return out;
    }

    private static ObjectNode group(ObjectNode attributes) {
        ObjectNode g = F.objectNode().put("zarr_format", 3).put("node_type", "group");
        if (attributes != null) {
            g.set("attributes", attributes);
        }
        return g;
    }

    private static String bytes(String endian) {
        return "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"" + endian + "\"}}]";
    }

    private static ObjectNode array(String type, String shape, String chunks, String fill, String separator,
                                    String codecs, String attributes) {
        ObjectNode a = F.objectNode().put("zarr_format", 3).put("node_type", "array");
        a.set("shape", Extensions.json(shape));
        a.put("data_type", type);
        ObjectNode grid = a.putObject("chunk_grid").put("name", "regular");
        grid.putObject("configuration").set("chunk_shape", Extensions.json(chunks));
        a.putObject("chunk_key_encoding").put("name", "v2").putObject("configuration").put("separator", separator);
        JsonNode fv = Extensions.json(fill);
        a.set("fill_value", fv);
        a.set("codecs", Extensions.json(codecs));
        if (attributes != null) {
            a.set("attributes", Extensions.json(attributes));
        }
        return a;
    }
}
