package dev.zarrj.format.v2;

import static dev.zarrj.format.v2.V2Reader.ZARRAY;
import static dev.zarrj.format.v2.V2Reader.ZATTRS;
import static dev.zarrj.format.v2.V2Reader.ZGROUP;
import static dev.zarrj.format.v2.V2Reader.ZMETADATA;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.format.StoredDocuments;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** A v3 document to the v2 documents that say the same. */
final class V2Writer {
    private static final Set<String> ARRAY_MEMBERS = Set.of("zarr_format", "node_type", "shape", "data_type", "chunk_grid",
            "chunk_key_encoding", "fill_value", "codecs", "attributes", "storage_transformers", "dimension_names");
    private static final Set<String> GROUP_MEMBERS = Set.of("zarr_format", "node_type", "attributes",
            "consolidated_metadata");
    private static final Set<String> ARRAY_TO_BYTES = Set.of("bytes", "vlen-utf8", "vlen-bytes", "numcodecs.zfpy");

    private V2Writer() {}

    static Map<String, JsonNode> write(ObjectNode doc, StoredDocuments previous) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        node(doc, previous, "", true).forEach((name, d) -> out.put(name, Json.canonical(d)));
        return out;
    }

    private static Map<String, JsonNode> node(ObjectNode doc, StoredDocuments previous, String base, boolean topLevel) {
        String type = doc.path("node_type").asText("");
        Map<String, JsonNode> out = new LinkedHashMap<>();
        if (type.equals("array")) {
            members(doc, ARRAY_MEMBERS, base);
            out.put(ZARRAY, array(doc, previous, base));
        } else if (type.equals("group")) {
            members(doc, GROUP_MEMBERS, base);
            out.put(ZGROUP, Json.F.objectNode().put("zarr_format", 2));
        } else {
            throw new UnsupportedFormatException(base + "/node_type", "Zarr v2 stores arrays and groups, not "
                    + Json.abbreviate(doc.get("node_type")));
        }
        JsonNode attributes = doc.get("attributes");
        ObjectNode zattrs;
        if (attributes != null && attributes.isObject()) {
            zattrs = (ObjectNode) attributes.deepCopy();
        } else {
            JsonNode before = previous.get(ZATTRS).orElse(null);
            zattrs = before != null && before.isObject() ? (ObjectNode) before.deepCopy() : null;
        }
        if (type.equals("array")) {
            zattrs = withDimensionNames(doc.get("dimension_names"), zattrs, base);
        }
        // zarr-python 2 writes .zattrs only for attributes, but one already there is kept rather than erased.
        if (zattrs != null && (!zattrs.isEmpty() || previous.get(ZATTRS).isPresent())) {
            out.put(ZATTRS, zattrs);
        } else if (zattrs == null) {
            previous.get(ZATTRS).ifPresent(a -> out.put(ZATTRS, a));
        }
        JsonNode consolidated = doc.get("consolidated_metadata");
        if (type.equals("group") && topLevel && consolidated != null && !consolidated.isNull()) {
            out.put(ZMETADATA, consolidated(consolidated, out, previous, base + "/consolidated_metadata"));
        }
        return out;
    }

    /** Refuses members v2 cannot keep: unknown ones that must be understood, storage transformers. */
    private static void members(ObjectNode doc, Set<String> known, String base) {
        for (Map.Entry<String, JsonNode> e : doc.properties()) {
            String name = e.getKey();
            JsonNode v = e.getValue();
            String p = base + "/" + Loc.escape(name);
            if (!known.contains(name)) {
                if (!(v.isObject() && v.path("must_understand").isBoolean() && !v.path("must_understand").booleanValue())) {
                    throw new UnsupportedFormatException(p, "the member \"" + name + "\" has no Zarr v2 counterpart");
                }
            } else if (name.equals("storage_transformers") && !v.isEmpty()) {
                throw new UnsupportedFormatException(p, "Zarr v2 has no storage transformers");
            }
        }
    }

    /**
     * The attributes with the dimension names as xarray's {@code _ARRAY_DIMENSIONS}, which names
     * every dimension with a string; names that are all null say nothing.
     *
     * @param zattrs the attributes to write, null for none
     * @throws UnsupportedFormatException at {@code /dimension_names} when some names are null, or
     *         when the attributes hold another {@code _ARRAY_DIMENSIONS}
     */
    private static ObjectNode withDimensionNames(JsonNode names, ObjectNode zattrs, String base) {
        if (names == null || names.isNull()) {
            return zattrs;
        }
        String p = base + "/dimension_names";
        if (!names.isArray()) {
            throw new UnsupportedFormatException(p, "dimension names must be a list, found " + Json.abbreviate(names));
        }
        int nulls = 0;
        for (JsonNode n : names) {
            if (n.isNull()) {
                nulls++;
            } else if (!n.isTextual()) {
                throw new UnsupportedFormatException(p, "dimension names must be strings or null, found "
                        + Json.abbreviate(names));
            }
        }
        if (nulls > 0 && nulls == names.size()) {
            return zattrs;
        }
        if (nulls > 0) {
            throw new UnsupportedFormatException(p, "Zarr v2 keeps dimension names in the attribute \""
                    + V2Reader.DIMENSIONS + "\" (xarray's convention), which names every dimension; found "
                    + Json.abbreviate(names));
        }
        ObjectNode out = zattrs != null ? zattrs : Json.F.objectNode();
        JsonNode existing = out.get(V2Reader.DIMENSIONS);
        if (existing == null) {
            out.set(V2Reader.DIMENSIONS, names.deepCopy());
        } else if (!existing.equals(names)) {
            throw new UnsupportedFormatException(p, "the dimension names " + Json.abbreviate(names) + " differ from the"
                    + " attribute " + base + "/attributes/" + V2Reader.DIMENSIONS + " " + Json.abbreviate(existing)
                    + ", where Zarr v2 keeps them; give both the same names or drop one");
        }
        return out;
    }

    private static ObjectNode array(ObjectNode doc, StoredDocuments previous, String base) {
        JsonNode prevZarray = previous.get(ZARRAY).orElse(null);
        ObjectNode prevDoc = null;
        if (prevZarray != null) {
            try {
                prevDoc = V2Reader.arrayDocument(prevZarray, previous.key(ZARRAY));
            } catch (InvalidMetadataException e) {
                prevDoc = null;    // nothing to keep from a document that does not read
            }
        }
        if (prevDoc != null && Json.sameValue(comparable(prevDoc), comparable(doc))) {
            // Only the shape changed (a resize) or nothing: keep every byte v2 wrote, fill_value null included.
            ObjectNode z = ((ObjectNode) prevZarray).deepCopy();
            z.set("shape", doc.get("shape").deepCopy());
            return z;
        }

        JsonNode grid = doc.get("chunk_grid");
        if (!Json.name(grid).equals("regular")) {
            throw new UnsupportedFormatException(base + "/chunk_grid", "Zarr v2 has regular chunk grids only, not "
                    + Json.abbreviate(grid));
        }
        JsonNode chunkShape = Json.configuration(grid).get("chunk_shape");
        JsonNode keys = doc.get("chunk_key_encoding");
        if (!Json.name(keys).equals("v2")) {
            throw new UnsupportedFormatException(base + "/chunk_key_encoding", "Zarr v2 names chunks with the v2 chunk key"
                    + " encoding (\"0.0\" or \"0/0\"), not " + Json.abbreviate(keys));
        }
        String separator = Json.configuration(keys).path("separator").asText(".");

        // transpose (F order)? filters, the array→bytes codec, bytes→bytes filters, compressor
        JsonNode codecs = doc.get("codecs");
        int rank = doc.get("shape").size();
        int n = codecs.size();
        int i = 0;
        String order = "C";
        if (n > 0 && Json.name(codecs.get(0)).equals("transpose")) {
            JsonNode perm = Json.configuration(codecs.get(0)).path("order");
            if (!isReversal(perm, rank)) {
                throw new UnsupportedFormatException(base + "/codecs/0", "Zarr v2 stores chunks in C or F order; a"
                        + " transpose is expressible only as the full reversal of the dimensions (F order), found "
                        + Json.abbreviate(perm));
            }
            order = "F";
            i = 1;
        }
        List<ObjectNode> arrayFilters = new ArrayList<>();
        List<String> arrayFilterPointers = new ArrayList<>();
        JsonNode arrayToBytes = null;
        String arrayToBytesPointer = null;
        for (; i < n && arrayToBytes == null; i++) {
            JsonNode c = codecs.get(i);
            String name = Json.name(c);
            String p = base + "/codecs/" + i;
            if (ARRAY_TO_BYTES.contains(name)) {
                arrayToBytes = c;
                arrayToBytesPointer = p;
            } else if (name.equals("sharding_indexed")) {
                throw new UnsupportedFormatException(p, "sharding has no Zarr v2 counterpart");
            } else if (name.equals("transpose")) {
                throw new UnsupportedFormatException(p, "Zarr v2 can transpose only as the first codec (F order)");
            } else if (name.startsWith("numcodecs.") && !Codecs.BYTES_TO_BYTES.contains(name.substring(10))) {
                arrayFilters.add(Codecs.toV2(c, p));
                arrayFilterPointers.add(p);
            } else {
                throw new UnsupportedFormatException(p, "the codec " + Json.abbreviate(c) + " has no Zarr v2 counterpart"
                        + " before the array-to-bytes codec");
            }
        }
        if (arrayToBytes == null) {
            throw new UnsupportedFormatException(base + "/codecs", "Zarr v2 needs bytes, vlen-utf8, vlen-bytes or"
                    + " numcodecs.zfpy as the array-to-bytes codec; found none of them in " + Json.abbreviate(codecs));
        }
        String a2b = Json.name(arrayToBytes);
        List<ObjectNode> bytesCodecs = new ArrayList<>();
        for (; i < n; i++) {
            String p = base + "/codecs/" + i;
            if (a2b.equals("numcodecs.zfpy")) {
                throw new UnsupportedFormatException(p, "Zarr v2 has no codec after the zfpy compressor");
            }
            bytesCodecs.add(Codecs.toV2(codecs.get(i), p));
        }

        String endian = Json.configuration(arrayToBytes).path("endian").asText(null);
        DType dtype = DType.fromV3(doc.get("data_type"), endian, base);
        String wanted = switch (dtype.kind()) {
            case VLEN_STRING -> "vlen-utf8";
            case VLEN_BYTES -> "vlen-bytes";
            default -> a2b.equals("numcodecs.zfpy") ? a2b : "bytes";
        };
        if (!a2b.equals(wanted)) {
            throw new UnsupportedFormatException(arrayToBytesPointer, "Zarr v2 stores the data type "
                    + Json.abbreviate(doc.get("data_type")) + " with " + wanted + ", not " + a2b);
        }
        DType previousType = prevZarray == null ? null : DType.parseOrNull(prevZarray.path("dtype").asText(""));
        if (previousType != null && previousType.fixedSize() && Json.sameValue(previousType.v3(), dtype.v3())
                && java.util.Objects.equals(previousType.endian(), dtype.endian())) {
            dtype = dtype.spelledAs(previousType);    // "|S10" stays "|S10", not the "|V10" raw bits would give
        }
        JsonNode fill = dtype.fillToV2(doc.get("fill_value"), base);
        if (prevDoc != null && prevZarray.has("fill_value") && Json.sameValue(prevDoc.get("data_type"), doc.get("data_type"))
                && Json.sameValue(prevDoc.get("fill_value"), doc.get("fill_value"))) {
            fill = prevZarray.get("fill_value");    // null stays null
        }

        List<JsonNode> filters = new ArrayList<>();
        if (!dtype.fixedSize()) {
            filters.add(Json.F.objectNode().put("id", a2b));
        }
        // numcodecs filters view the chunk as their dtypes, so these take the array's byte order,
        // which is the bytes codec's endian: zarr-python 2 then computes the values zarrj does, and
        // the last dtype a filter hands on stores them in that order.
        String byteOrder = dtype.endian() != null ? dtype.endian() : endian != null ? endian : "little";
        for (int k = 0; k < arrayFilters.size(); k++) {
            ObjectNode f = arrayFilters.get(k);
            Codecs.Reordered r = Codecs.inByteOrder(f, f.get("id").textValue(), byteOrder);
            if (r.filter() != null) {
                filters.add(r.filter());
            } else if (byteOrder.equals("little")) {
                filters.add(f);    // native already: as the v3 codec reads it
            } else {
                throw new UnsupportedFormatException(arrayFilterPointers.get(k) + "/configuration/" + r.failedField(),
                        "the dtype " + Json.abbreviate(f.get(r.failedField())) + " has no big-endian spelling zarrj"
                        + " knows; Zarr v2 filters view the chunk in the array's byte order, here big endian (the bytes"
                        + " codec's endian), so the filter's dtypes must say it");
            }
        }
        JsonNode compressor;
        if (a2b.equals("numcodecs.zfpy")) {
            compressor = Codecs.toV2(arrayToBytes, arrayToBytesPointer);
        } else if (bytesCodecs.isEmpty()) {
            compressor = Json.F.nullNode();
        } else {
            compressor = bytesCodecs.remove(bytesCodecs.size() - 1);
            filters.addAll(bytesCodecs);
        }

        ObjectNode z = Json.F.objectNode();
        z.set("chunks", chunkShape.deepCopy());
        z.set("compressor", compressor);
        if (separator.equals("/") || (prevZarray != null && prevZarray.has("dimension_separator"))) {
            z.put("dimension_separator", separator);
        }
        z.put("dtype", dtype.v2());
        z.set("fill_value", fill.deepCopy());
        if (filters.isEmpty()) {
            z.putNull("filters");
        } else {
            z.putArray("filters").addAll(filters);
        }
        z.put("order", order);
        z.set("shape", doc.get("shape").deepCopy());
        z.put("zarr_format", 2);
        return z;
    }

    private static boolean isReversal(JsonNode perm, int rank) {
        if (!perm.isArray() || perm.size() != rank) {
            return false;
        }
        for (int d = 0; d < rank; d++) {
            if (!perm.get(d).canConvertToInt() || perm.get(d).asInt() != rank - 1 - d) {
                return false;
            }
        }
        return true;
    }

    /** The document without what a resize or an attribute update changes, in one spelling. */
    private static ObjectNode comparable(ObjectNode doc) {
        ObjectNode c = doc.deepCopy();
        // dimension names live in .zattrs, as _ARRAY_DIMENSIONS
        c.remove(List.of("shape", "attributes", "consolidated_metadata", "dimension_names"));
        if (c.path("storage_transformers").isEmpty()) {
            c.remove("storage_transformers");
        }
        JsonNode type = c.get("data_type");
        if (type != null && type.isObject() && Json.configuration(type).isEmpty()) {
            c.set("data_type", TextNode.valueOf(Json.name(type)));
        }
        for (String member : List.of("chunk_grid", "chunk_key_encoding")) {
            JsonNode m = c.get(member);
            if (m != null) {
                c.set(member, normalized(m));
            }
        }
        JsonNode keys = c.get("chunk_key_encoding");
        if (keys != null && Json.name(keys).equals("v2") && !keys.path("configuration").has("separator")) {
            ((ObjectNode) keys.get("configuration")).put("separator", ".");
        }
        JsonNode codecs = c.get("codecs");
        if (codecs != null && codecs.isArray()) {
            ArrayNode a = Json.F.arrayNode();
            for (JsonNode codec : codecs) {
                a.add(normalized(codec));
            }
            c.set("codecs", a);
        }
        return c;
    }

    private static ObjectNode normalized(JsonNode ext) {
        ObjectNode o = Json.F.objectNode().put("name", Json.name(ext));
        o.set("configuration", Json.configuration(ext).deepCopy());
        return o;
    }

    private static JsonNode consolidated(JsonNode member, Map<String, JsonNode> group, StoredDocuments previous, String base) {
        if (!member.isObject() || !member.path("kind").asText("").equals("inline")) {
            throw new UnsupportedFormatException(base, "Zarr v2 stores inline consolidated metadata only, found "
                    + Json.abbreviate(member));
        }
        JsonNode metadata = member.get("metadata");
        if (metadata == null || !metadata.isObject()) {
            throw new UnsupportedFormatException(base + "/metadata", "consolidated metadata must be an object of"
                    + " documents by path, found " + Json.abbreviate(metadata));
        }
        JsonNode prevMeta = previous.get(ZMETADATA).map(z -> z.path("metadata")).orElse(Json.F.objectNode());
        Map<String, JsonNode> all = new TreeMap<>();
        all.put(ZGROUP, group.get(ZGROUP));
        if (group.containsKey(ZATTRS)) {
            all.put(ZATTRS, group.get(ZATTRS));
        }
        for (Map.Entry<String, JsonNode> e : metadata.properties()) {
            String path = e.getKey();
            String p = base + "/metadata/" + Loc.escape(path);
            if (!e.getValue().isObject()) {
                throw new UnsupportedFormatException(p, "a consolidated entry must be a node's document, found "
                        + Json.abbreviate(e.getValue()));
            }
            Map<String, JsonNode> prevDocs = new HashMap<>();
            for (String name : List.of(ZARRAY, ZGROUP, ZATTRS)) {
                JsonNode d = prevMeta.get(path + "/" + name);
                if (d != null) {
                    prevDocs.put(name, d);
                }
            }
            if (e.getValue().has(V2Reader.UNREADABLE) && !e.getValue().has("node_type")) {
                prevDocs.forEach((name, d) -> all.put(path + "/" + name, d)); // kept as they were read
                continue;
            }
            StoredDocuments prev = new StoredDocuments(previous.prefix() + path + "/", prevDocs);
            node((ObjectNode) e.getValue(), prev, p, false).forEach((name, d) -> all.put(path + "/" + name, d));
        }
        ObjectNode out = Json.F.objectNode();
        ObjectNode m = out.putObject("metadata");
        all.forEach(m::set);
        out.put("zarr_consolidated_format", 1);
        return out;
    }
}
