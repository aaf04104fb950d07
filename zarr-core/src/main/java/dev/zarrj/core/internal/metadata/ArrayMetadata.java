package dev.zarrj.core.internal.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.transformer.StorageTransformer;
import dev.zarrj.api.transformer.StorageTransformerProvider;
import dev.zarrj.core.internal.pipeline.DefaultCodecChain;
import dev.zarrj.core.registry.ExtensionPoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed array {@code zarr.json}. Holds the source document, which is what gets written back,
 * so that reading and writing again gives the same document (unknown ignorable members included).
 *
 * @param document            the document; never modified (copies are made for changes)
 * @param shape               the array's shape
 * @param dataType            the data type
 * @param chunkGrid           the chunk grid
 * @param keyEncoding         the chunk key encoding
 * @param fillValue           the fill value
 * @param codecs              the codec chain
 * @param storageTransformers the understood storage transformers, in order
 * @param skipped             extensions and members skipped because of {@code "must_understand": false}
 * @param dimensionNames      the dimension names (null entries for unnamed), or null when absent
 */
public record ArrayMetadata(ObjectNode document, long[] shape, DataType dataType, ChunkGrid chunkGrid,
                            ChunkKeyEncoding keyEncoding, FillValue fillValue, DefaultCodecChain codecs,
                            List<StorageTransformer> storageTransformers, List<String> skipped,
                            List<String> dimensionNames) {

    private static final Set<String> KNOWN = Set.of("zarr_format", "node_type", "shape", "data_type", "chunk_grid",
            "chunk_key_encoding", "fill_value", "codecs", "attributes", "storage_transformers", "dimension_names");

    /** The array's attributes (a copy). */
    public ObjectNode attributes() {
        JsonNode a = document.get("attributes");
        return a instanceof ObjectNode o ? o.deepCopy() : document.objectNode();
    }

    /** The number of dimensions. */
    public int rank() {
        return shape.length;
    }

    /** A copy of the shape. */
    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** The decoded representation of the chunk at these grid coordinates. */
    public ChunkSpec chunkSpec(long[] chunkCoords) {
        return new ChunkSpec(dataType, chunkGrid.chunkShape(chunkCoords), fillValue);
    }

    /**
     * The store key of the chunk at these grid coordinates.
     *
     * @param prefix the array's key prefix ({@code ""} for a root array, else ending in {@code /})
     */
    public StoreKey chunkKey(String prefix, long[] chunkCoords) {
        return StoreKey.of(prefix + keyEncoding.encode(chunkCoords));
    }

    /** Whether something was skipped, so that writing would corrupt the array for readers that understand it. */
    public boolean hasSkipped() {
        return !skipped.isEmpty();
    }

    /**
     * Parses an array document (its {@code zarr_format} and {@code node_type} already checked).
     *
     * @throws InvalidMetadataException naming the JSON pointer of what is wrong
     */
    public static ArrayMetadata parse(ObjectNode doc, ExtensionResolver resolver) {
        List<String> skipped = new ArrayList<>();
        for (Iterator<String> it = doc.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!KNOWN.contains(f)) {
                checkUnknownMember(doc, f, "array");
                skipped.add(f);
            }
        }
        long[] shape = parseShape(required(doc, "shape"));
        DataType dataType = resolver.resolve(ExtensionPoint.DATA_TYPE,
                ExtensionEntry.parse(required(doc, "data_type"), "/data_type", "data type"),
                DataTypeProvider.class).orElseThrow();
        ChunkGrid grid = resolver.resolve(ExtensionPoint.CHUNK_GRID,
                ExtensionEntry.parse(required(doc, "chunk_grid"), "/chunk_grid", "chunk grid"),
                ChunkGridProvider.class).orElseThrow();
        if (grid.rank() != shape.length) {
            throw new InvalidMetadataException("/chunk_grid", "the chunk grid has " + grid.rank()
                    + " dimensions but shape " + Arrays.toString(shape) + " has " + shape.length);
        }
        grid.validate(shape);
        ChunkKeyEncoding keys = resolver.resolve(ExtensionPoint.CHUNK_KEY_ENCODING,
                ExtensionEntry.parse(required(doc, "chunk_key_encoding"), "/chunk_key_encoding", "chunk key encoding"),
                ChunkKeyEncodingProvider.class).orElseThrow();
        ArrayLimits.check(shape, dataType, grid);
        FillValue fill = dataType.parseFillValue(required(doc, "fill_value"), "/fill_value");
        DefaultCodecChain codecs = resolver.parseCodecs(required(doc, "codecs"), "/codecs");
        for (String s : codecs.skipped()) {
            skipped.add("codec " + s);
        }
        long[] firstChunk = new long[shape.length];
        codecs.checkSupported(new ChunkSpec(dataType, grid.chunkShape(firstChunk), fill));

        List<StorageTransformer> transformers = new ArrayList<>();
        JsonNode st = doc.get("storage_transformers");
        if (st != null && !st.isNull()) {
            if (!st.isArray()) {
                throw new InvalidMetadataException("/storage_transformers", "must be an array, found " + st);
            }
            for (int i = 0; i < st.size(); i++) {
                ExtensionEntry e = ExtensionEntry.parse(st.get(i), "/storage_transformers/" + i, "storage transformer");
                Optional<StorageTransformer> t = resolver.resolve(ExtensionPoint.STORAGE_TRANSFORMER, e,
                        StorageTransformerProvider.class);
                if (t.isPresent()) {
                    transformers.add(t.get());
                } else {
                    skipped.add("storage transformer " + e.name());
                }
            }
        }
        JsonNode attrs = doc.get("attributes");
        if (attrs != null && !attrs.isObject()) {
            throw new InvalidMetadataException("/attributes", "must be a JSON object, found " + attrs);
        }
        List<String> dimensionNames = parseDimensionNames(doc.get("dimension_names"), shape.length);
        ObjectNode canonical = canonical(doc, dataType, fill, codecs, grid);
        if (!canonical.get("codecs").equals(doc.get("codecs"))) {
            codecs = resolver.parseCodecs(canonical.get("codecs"), "/codecs"); // legacy codecs replaced
        }
        return new ArrayMetadata(canonical, shape, dataType, grid, keys, fill, codecs, List.copyOf(transformers),
                List.copyOf(skipped), dimensionNames);
    }

    /**
     * A copy of the document with the legacy forms it was read with (each logged as a warning
     * where it was parsed) in their canonical form, so that zarrj never writes them back: a
     * {@code bool} fill value given as 0 or 1, and codecs that are a {@link LegacyForm}.
     */
    private static ObjectNode canonical(ObjectNode doc, DataType dataType, FillValue fill, DefaultCodecChain codecs,
                                        ChunkGrid grid) {
        ObjectNode out = doc.deepCopy();
        if (dataType.kind() == dev.zarrj.api.datatype.ElementKind.BOOL && out.get("fill_value").isNumber()) {
            out.set("fill_value", dataType.fillValueToJson(fill));
        }
        List<JsonNode> replacements = new ArrayList<>();
        ChunkSpec spec = new ChunkSpec(dataType, grid.chunkShape(new long[grid.rank()]), fill);
        for (dev.zarrj.api.codec.Codec c : codecs.codecs()) {
            if (c instanceof LegacyForm legacy) {
                replacements.add(legacy.canonical(spec).toJson());
            }
            if (c instanceof dev.zarrj.api.codec.ArrayToArrayCodec a) {
                spec = a.encodedSpec(spec);
            }
        }
        if (!replacements.isEmpty() && out.get("codecs") instanceof ArrayNode list) {
            int next = 0;
            for (int i = 0; i < list.size() && next < replacements.size(); i++) {
                if (isLegacyTranspose(list.get(i))) {
                    list.set(i, replacements.get(next++));
                }
            }
        }
        return out;
    }

    private static boolean isLegacyTranspose(JsonNode entry) {
        JsonNode conf = entry.isObject() ? entry.get("configuration") : null;
        return entry.isObject() && "transpose".equals(entry.path("name").asText()) && conf != null
                && conf.path("order").isTextual();
    }

    /**
     * Checks an unknown top-level member: allowed only as an object saying {@code "must_understand": false}.
     */
    static void checkUnknownMember(ObjectNode doc, String field, String nodeType) {
        JsonNode v = doc.get(field);
        JsonNode mu = v.isObject() ? v.get("must_understand") : null;
        if (mu == null || !mu.isBoolean() || mu.booleanValue()) {
            throw new UnknownExtensionException("/" + field, field, "unknown " + nodeType + " metadata member '" + field
                    + "'; zarrj does not understand it and it is not marked \"must_understand\": false");
        }
    }

    static JsonNode required(ObjectNode doc, String field) {
        JsonNode n = doc.get(field);
        if (n == null) {
            throw new InvalidMetadataException("/" + field, "required member '" + field + "' is missing");
        }
        return n;
    }

    private static long[] parseShape(JsonNode n) {
        if (!n.isArray()) {
            throw new InvalidMetadataException("/shape", "shape must be an array of non-negative integers, found " + n);
        }
        long[] shape = new long[n.size()];
        for (int i = 0; i < shape.length; i++) {
            JsonNode e = n.get(i);
            if (!e.isIntegralNumber() || !e.canConvertToLong() || e.longValue() < 0) {
                throw new InvalidMetadataException("/shape/" + i,
                        "shape must hold non-negative integers, found " + e);
            }
            shape[i] = e.longValue();
        }
        return shape;
    }

    private static List<String> parseDimensionNames(JsonNode n, int rank) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isArray() || n.size() != rank) {
            throw new InvalidMetadataException("/dimension_names", "dimension_names must be an array of " + rank
                    + " strings or nulls (one per dimension), found " + n);
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            JsonNode e = n.get(i);
            if (e.isNull()) {
                names.add(null);
            } else if (e.isTextual()) {
                names.add(e.textValue());
            } else {
                throw new InvalidMetadataException("/dimension_names/" + i, "must be a string or null, found " + e);
            }
        }
        return Collections.unmodifiableList(names);
    }

    /** The same array with another shape (the document's {@code shape} replaced). */
    public ArrayMetadata withShape(long[] newShape) {
        ObjectNode doc = document.deepCopy();
        ArrayNode s = doc.putArray("shape");
        for (long d : newShape) {
            s.add(d);
        }
        grid().validate(newShape);
        ArrayLimits.check(newShape, dataType, chunkGrid);
        return new ArrayMetadata(doc, newShape.clone(), dataType, chunkGrid, keyEncoding, fillValue, codecs,
                storageTransformers, skipped, dimensionNames);
    }

    private ChunkGrid grid() {
        return chunkGrid;
    }

    /** The same array with other attributes. */
    public ArrayMetadata withAttributes(ObjectNode attributes) {
        ObjectNode doc = document.deepCopy();
        doc.set("attributes", attributes.deepCopy());
        return new ArrayMetadata(doc, shape, dataType, chunkGrid, keyEncoding, fillValue, codecs,
                storageTransformers, skipped, dimensionNames);
    }
}
