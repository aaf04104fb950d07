package dev.zarrj.format.v2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/** v2 documents to the equivalent v3 document. */
final class V2Reader {
    static final String ZARRAY = ".zarray";
    static final String ZGROUP = ".zgroup";
    static final String ZATTRS = ".zattrs";
    static final String ZMETADATA = ".zmetadata";
    /** The member of a consolidated entry that stands for documents that do not translate (no node_type). */
    static final String UNREADABLE = "zarrj_untranslatable";
    private static final System.Logger LOG = System.getLogger(V2Reader.class.getName());
    /** xarray's attribute for the dimension names, which v2 lacks: the v3 {@code dimension_names}. */
    static final String DIMENSIONS = "_ARRAY_DIMENSIONS";

    private final Map<String, TranslatedNode.Origin> origins = new HashMap<>();
    private boolean storesEveryChunk;

    private V2Reader() {}

    static Optional<TranslatedNode> read(StoredDocuments node) {
        V2Reader r = new V2Reader();
        Optional<ObjectNode> doc = r.node(node, name -> Loc.of(node.key(name)), "", true);
        return doc.map(d -> new TranslatedNode((ObjectNode) Json.canonical(d), r.origins, r.storesEveryChunk));
    }

    /** The v3 document of a v2 {@code .zarray} alone, as {@link #read} gives it (for comparisons). */
    static ObjectNode arrayDocument(JsonNode zarray, String key) {
        return new V2Reader().array(zarray, Loc.of(key), "");
    }

    /**
     * @param locs     where each of the node's documents sits
     * @param docBase  the pointer of this node's document inside the document being built
     * @param topLevel whether this node's own {@code .zmetadata} applies (not for consolidated entries)
     */
    private Optional<ObjectNode> node(StoredDocuments node, Function<String, Loc> locs, String docBase, boolean topLevel) {
        Optional<JsonNode> zarray = node.get(ZARRAY);
        Optional<JsonNode> zgroup = node.get(ZGROUP);
        if (zarray.isPresent() && zgroup.isPresent()) {
            throw locs.apply(ZARRAY).invalid("", "both '" + ZARRAY + "' and '" + ZGROUP + "' are present ('"
                    + node.key(ZGROUP) + "'); a node is an array or a group, not both");
        }
        if (zarray.isEmpty() && zgroup.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode attributes = attributes(node.get(ZATTRS), locs.apply(ZATTRS), docBase);
        ObjectNode doc;
        if (zarray.isPresent()) {
            doc = array(zarray.get(), locs.apply(ZARRAY), docBase);
            JsonNode names = attributes.get(DIMENSIONS);
            if (isDimensionNames(names, doc.get("shape").size())) {
                // Zarr v3 says this in dimension_names (where xarray reads it there); written back as the attribute
                doc.set("dimension_names", names.deepCopy());
                attributes.remove(DIMENSIONS);
                origins.put(docBase + "/dimension_names", locs.apply(ZATTRS).origin("/" + DIMENSIONS));
            }
        } else {
            Loc loc = locs.apply(ZGROUP);
            JsonNode g = zgroup.get();
            if (!g.isObject()) {
                throw loc.invalid("", "the group metadata must be a JSON object, found " + Json.abbreviate(g));
            }
            zarrFormat((ObjectNode) g, loc);
            doc = Json.F.objectNode().put("zarr_format", 3).put("node_type", "group");
            origins.put(docBase, loc.origin(""));
        }
        doc.set("attributes", attributes);
        if (zgroup.isPresent() && topLevel && node.get(ZMETADATA).isPresent()) {
            try {
                doc.set("consolidated_metadata", consolidated(node, Loc.of(node.key(ZMETADATA)), docBase));
            } catch (InvalidMetadataException e) {
                // A cache: the group and every node below it are read from their own documents.
                LOG.log(System.Logger.Level.WARNING, "ignoring the consolidated metadata in '" + node.key(ZMETADATA)
                        + "': " + e.getMessage());
            }
        }
        return Optional.of(doc);
    }

    /** Whether an {@code _ARRAY_DIMENSIONS} attribute names the {@code rank} dimensions, each with a string. */
    static boolean isDimensionNames(JsonNode names, int rank) {
        if (names == null || !names.isArray() || names.size() != rank) {
            return false;
        }
        for (JsonNode n : names) {
            if (!n.isTextual()) {
                return false;
            }
        }
        return true;
    }

    private ObjectNode attributes(Optional<JsonNode> zattrs, Loc loc, String docBase) {
        if (zattrs.isEmpty()) {
            return Json.F.objectNode();
        }
        if (!zattrs.get().isObject()) {
            throw loc.invalid("", "the attributes must be a JSON object, found " + Json.abbreviate(zattrs.get()));
        }
        origins.put(docBase + "/attributes", loc.origin(""));
        return (ObjectNode) zattrs.get().deepCopy();
    }

    private static void zarrFormat(ObjectNode doc, Loc loc) {
        JsonNode f = doc.get("zarr_format");
        if (f == null) {
            throw loc.invalid("/zarr_format", "\"zarr_format\" is missing; a Zarr v2 document has \"zarr_format\": 2");
        }
        if (!f.isIntegralNumber() || f.asLong() != 2 || !f.canConvertToInt()) {
            throw loc.invalid("/zarr_format", "\"zarr_format\" must be 2 in a Zarr v2 document, found " + Json.abbreviate(f));
        }
    }

    private ObjectNode array(JsonNode json, Loc loc, String docBase) {
        if (!json.isObject()) {
            throw loc.invalid("", "the array metadata must be a JSON object, found " + Json.abbreviate(json));
        }
        ObjectNode z = (ObjectNode) json;
        for (String key : List.of("zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters")) {
            if (!z.has(key)) {
                throw loc.invalid("/" + key, "\"" + key + "\" is missing; a Zarr v2 array has zarr_format, shape, chunks,"
                        + " dtype, compressor, fill_value, order and filters");
            }
        }
        zarrFormat(z, loc);
        long[] shape = longs(z.get("shape"), "/shape", 0, loc);
        long[] chunks = longs(z.get("chunks"), "/chunks", 1, loc);
        if (chunks.length != shape.length) {
            throw loc.invalid("/chunks", "the chunks " + Json.abbreviate(z.get("chunks")) + " have " + chunks.length
                    + " dimensions, the shape " + Json.abbreviate(z.get("shape")) + " has " + shape.length);
        }
        JsonNode order = z.get("order");
        if (!order.isTextual() || !(order.textValue().equals("C") || order.textValue().equals("F"))) {
            throw loc.invalid("/order", "\"order\" must be \"C\" or \"F\", found " + Json.abbreviate(order));
        }
        String separator = ".";
        JsonNode sep = z.get("dimension_separator");
        if (sep != null && !sep.isNull()) {
            if (!sep.isTextual() || !(sep.textValue().equals(".") || sep.textValue().equals("/"))) {
                throw loc.invalid("/dimension_separator", "\"dimension_separator\" must be \".\" or \"/\", found "
                        + Json.abbreviate(sep));
            }
            separator = sep.textValue();
        }
        List<ObjectNode> filters = new ArrayList<>();
        JsonNode f = z.get("filters");
        if (!f.isNull()) {
            if (!f.isArray()) {
                throw loc.invalid("/filters", "\"filters\" must be a list of codecs or null, found " + Json.abbreviate(f));
            }
            for (int i = 0; i < f.size(); i++) {
                Codecs.id(f.get(i), loc, "/filters/" + i);
                filters.add((ObjectNode) f.get(i));
            }
        }
        JsonNode compressor = z.get("compressor");
        if (!compressor.isNull()) {
            Codecs.id(compressor, loc, "/compressor");
        }

        DType dtype = DType.parse(z.get("dtype"), loc);
        int firstFilter = 0;
        if (dtype.kind() == DType.Kind.OBJECT) {
            if (filters.isEmpty()) {
                throw loc.invalid("/filters", "the object dtype \"" + dtype.v2() + "\" needs an object codec (vlen-utf8 or"
                        + " vlen-bytes) as the first filter, found none");
            }
            String id = filters.get(0).get("id").textValue();
            if (!id.equals("vlen-utf8") && !id.equals("vlen-bytes")) {
                throw loc.unsupported("/filters/0", "the object codec \"" + id + "\" is not supported; zarrj reads object"
                        + " arrays of vlen-utf8 strings and vlen-bytes byte strings only");
            }
            dtype = dtype.withObjectCodec(id);
            firstFilter = 1;
        }

        ObjectNode doc = Json.F.objectNode().put("zarr_format", 3).put("node_type", "array");
        ArrayNode shapeNode = doc.putArray("shape");
        for (long s : shape) {
            shapeNode.add(s);
        }
        doc.set("data_type", dtype.v3().deepCopy());
        ObjectNode grid = doc.putObject("chunk_grid").put("name", "regular");
        ArrayNode chunkShape = grid.putObject("configuration").putArray("chunk_shape");
        for (long c : chunks) {
            chunkShape.add(c);
        }
        doc.putObject("chunk_key_encoding").put("name", "v2").putObject("configuration").put("separator", separator);
        JsonNode fill = z.get("fill_value");
        if (fill.isNull()) {
            storesEveryChunk |= docBase.isEmpty();    // a consolidated entry's does not concern this node
            doc.set("fill_value", dtype.defaultFill());
        } else {
            doc.set("fill_value", dtype.fillToV3(fill, loc));
        }
        origins.put(docBase, loc.origin(""));
        origins.put(docBase + "/shape", loc.origin("/shape"));
        origins.put(docBase + "/data_type", loc.origin("/dtype"));
        origins.put(docBase + "/chunk_grid", loc.origin("/chunks"));
        origins.put(docBase + "/chunk_key_encoding", loc.origin(sep == null ? "" : "/dimension_separator"));
        origins.put(docBase + "/fill_value", loc.origin("/fill_value"));

        ArrayNode codecs = doc.putArray("codecs");
        origins.put(docBase + "/codecs", loc.origin(""));
        if (order.textValue().equals("F") && shape.length > 0) {
            ArrayNode perm = codecs.addObject().put("name", "transpose").putObject("configuration").putArray("order");
            for (int d = shape.length - 1; d >= 0; d--) {
                perm.add(d);
            }
            origins.put(docBase + "/codecs/0", loc.origin("/order"));
        }
        int size = dtype.itemSize();
        // numcodecs filters work on NumPy arrays: the elements reaching the bytes codec have the
        // byte order of the last dtype a filter hands on, else the array's.
        String endian = dtype.endian();
        String endianOrigin = "/dtype";
        String firstBytesFilter = null;
        List<Integer> bytesFilters = new ArrayList<>();
        for (int i = firstFilter; i < filters.size(); i++) {
            String id = filters.get(i).get("id").textValue();
            String p = "/filters/" + i;
            if (Codecs.OBJECT_CODECS.contains(id)) {
                throw loc.invalid(p, "the object codec \"" + id + "\" may only be the first filter of an object (\"|O\")"
                        + " array; the dtype is \"" + dtype.v2() + "\"");
            }
            if (id.equals("zfpy")) {
                throw loc.unsupported(p, "zfpy as a filter is not supported; zarrj reads zfpy as the compressor only");
            }
            if (Codecs.BYTES_TO_BYTES.contains(id)) {
                if (firstBytesFilter == null) {
                    firstBytesFilter = p;
                }
                bytesFilters.add(i);
                continue;
            }
            if (firstBytesFilter != null) {
                throw loc.unsupported(firstBytesFilter, "the bytes-to-bytes filter at " + firstBytesFilter
                        + " is followed by the array filter \"" + id + "\" (" + p + "); a v3 codec chain has its"
                        + " array-to-array codecs before the bytes-to-bytes ones, so zarrj cannot read this order");
            }
            if (dtype.kind() == DType.Kind.VLEN_STRING || dtype.kind() == DType.Kind.VLEN_BYTES) {
                throw loc.unsupported(p, "the filter \"" + id + "\" after the object codec is not supported; object"
                        + " arrays take bytes-to-bytes filters only");
            }
            ObjectNode filter = filters.get(i);
            String input = Codecs.inputField(filter);
            Codecs.NumpyDtype viewedAs = input == null ? null : Codecs.NumpyDtype.of(filter.get(input));
            if (viewedAs != null && viewedAs.endian() != null && endian != null && !viewedAs.endian().equals(endian)) {
                throw loc.unsupported(p + "/" + input, "the filter \"" + id + "\" views the " + endian + "-endian"
                        + " elements reaching it as " + Json.abbreviate(filter.get(input)) + " (" + viewedAs.endian()
                        + " endian), reinterpreting their bytes; zarrj's filters work on values, so it cannot read this");
            }
            // The filter's dtypes in native order: in v3 only the bytes codec decides the stored byte order.
            Codecs.Reordered little = Codecs.inByteOrder(filter, id, "little");
            origins.put(docBase + "/codecs/" + codecs.size(), loc.origin(p));
            codecs.add(Codecs.toV3(little.filter() != null ? little.filter() : filter, size, loc, p));
            size = Codecs.sizeAfter(filter, size);
            String output = Codecs.outputField(filter);
            if (id.equals("packbits") || output != null && Codecs.NumpyDtype.of(filter.get(output)) != null) {
                endian = Codecs.endianAfter(filter, endian);
                endianOrigin = output == null ? p : p + "/" + output;
            }
        }
        boolean zfpy = !compressor.isNull() && compressor.get("id").textValue().equals("zfpy");
        if (zfpy) {
            if (!bytesFilters.isEmpty()) {
                throw loc.unsupported(firstBytesFilter, "a bytes-to-bytes filter before the zfpy compressor is not"
                        + " supported: zfpy encodes arrays");
            }
            if (!dtype.fixedSize()) {
                throw loc.unsupported("/compressor", "zfpy compresses numbers, not the object dtype");
            }
            origins.put(docBase + "/codecs/" + codecs.size(), loc.origin("/compressor"));
            codecs.add(Codecs.toV3((ObjectNode) compressor, size, loc, "/compressor"));
            return doc;
        }
        origins.put(docBase + "/codecs/" + codecs.size(), loc.origin(dtype.fixedSize() ? endianOrigin : "/filters/0"));
        if (dtype.fixedSize()) {
            ObjectNode bytes = codecs.addObject().put("name", "bytes");
            ObjectNode c = bytes.putObject("configuration");
            if (endian != null) {
                c.put("endian", endian);
            }
        } else {
            codecs.addObject().put("name", filters.get(0).get("id").textValue()).putObject("configuration");
            size = 1;
        }
        for (int i : bytesFilters) {
            origins.put(docBase + "/codecs/" + codecs.size(), loc.origin("/filters/" + i));
            codecs.add(Codecs.toV3(filters.get(i), 1, loc, "/filters/" + i));
            size = 1;
        }
        if (!compressor.isNull()) {
            origins.put(docBase + "/codecs/" + codecs.size(), loc.origin("/compressor"));
            codecs.add(Codecs.toV3((ObjectNode) compressor, size, loc, "/compressor"));
        }
        return doc;
    }

    private static long[] longs(JsonNode n, String pointer, long min, Loc loc) {
        if (!n.isArray()) {
            throw loc.invalid(pointer, "\"" + pointer.substring(1) + "\" must be a list of integers, found "
                    + Json.abbreviate(n));
        }
        long[] out = new long[n.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode v = n.get(i);
            if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min) {
                throw loc.invalid(pointer + "/" + i, "\"" + pointer.substring(1) + "\" must hold integers of at least " + min
                        + ", found " + Json.abbreviate(v));
            }
            out[i] = v.asLong();
        }
        return out;
    }

    private ObjectNode consolidated(StoredDocuments group, Loc loc, String docBase) {
        JsonNode z = group.get(ZMETADATA).orElseThrow();
        if (!z.isObject()) {
            throw loc.invalid("", "consolidated metadata must be a JSON object, found " + Json.abbreviate(z));
        }
        JsonNode format = z.get("zarr_consolidated_format");
        if (format == null || !format.isIntegralNumber() || format.asLong() != 1) {
            throw loc.invalid("/zarr_consolidated_format", "\"zarr_consolidated_format\" must be 1, found "
                    + Json.abbreviate(format));
        }
        JsonNode metadata = z.get("metadata");
        if (metadata == null || !metadata.isObject()) {
            throw loc.invalid("/metadata", "\"metadata\" must be a JSON object of documents by key, found "
                    + Json.abbreviate(metadata));
        }
        Map<String, Map<String, JsonNode>> nodes = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : metadata.properties()) {
            String key = e.getKey();
            int slash = key.lastIndexOf('/');
            if (slash <= 0) {
                continue;    // the group's own documents, read from the store
            }
            String name = key.substring(slash + 1);
            if (name.equals(ZARRAY) || name.equals(ZGROUP) || name.equals(ZATTRS)) {
                nodes.computeIfAbsent(key.substring(0, slash), k -> new HashMap<>()).put(name, e.getValue());
            }
        }
        ObjectNode entries = Json.F.objectNode();
        for (Map.Entry<String, Map<String, JsonNode>> e : nodes.entrySet()) {
            String path = e.getKey();
            String entryBase = docBase + "/consolidated_metadata/metadata/" + Loc.escape(path);
            StoredDocuments docs = new StoredDocuments(group.prefix() + path + "/", e.getValue());
            Optional<ObjectNode> doc;
            String problem;
            try {
                doc = node(docs, name -> new Loc(loc.key(), "/metadata/" + Loc.escape(path + "/" + name)), entryBase, false);
                problem = doc.isEmpty() ? "attributes of '" + path + "' without its '" + ZARRAY + "' or '" + ZGROUP + "'"
                        : null;
            } catch (InvalidMetadataException bad) {
                doc = Optional.empty();
                problem = bad.getMessage();
            }
            if (doc.isPresent()) {
                entries.set(path, doc.get());
            } else {
                // Not a node document: core does not trust the entry and reads that node from the store,
                // where opening it reports the problem; the other entries serve as usual.
                entries.set(path, Json.F.objectNode().put(UNREADABLE, problem));
            }
        }
        ObjectNode out = Json.F.objectNode().put("kind", "inline").put("must_understand", false);
        out.set("metadata", entries);
        origins.put(docBase + "/consolidated_metadata", loc.origin(""));
        return out;
    }
}
