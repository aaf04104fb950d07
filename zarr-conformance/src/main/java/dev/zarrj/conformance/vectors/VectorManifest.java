package dev.zarrj.conformance.vectors;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A vector manifest: the arrays of a store, each with its metadata and the expected value of
 * every element, as {@code manifest.json} at the root of the store gives them.
 *
 * <p>The format ({@code "format": "zarrj-conformance-vectors/1"}) is written by the kit's
 * generator ({@code zarr-conformance/vectors-gen/generate.mjs}). Each entry of {@code arrays} has
 * {@code path} (relative to the store root), {@code data_type}, {@code shape},
 * {@code chunk_shape} (a regular grid), {@code chunk_key_encoding}, {@code codecs},
 * {@code fill_value} (all in their {@code zarr.json} form), {@code chunks} (the stored chunks with
 * their keys, relative to the array) and {@code values}: every element in C order, as a JSON number,
 * {@code "NaN"}, {@code "Infinity"} or {@code "-Infinity"}, a decimal string for 64-bit integers,
 * a boolean, {@code [re, im]} for complex numbers, or an array of byte values for raw types.
 * {@code files} lists every file of the store with its size and SHA-256.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class VectorManifest {
    /** The format this class reads. */
    public static final String FORMAT = "zarrj-conformance-vectors/1";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<ArrayVector> arrays;
    private final Map<String, FileEntry> files;
    private final List<String> notes;
    private final Map<String, String> generatorInputs;

    private VectorManifest(List<ArrayVector> arrays, Map<String, FileEntry> files, List<String> notes,
                           Map<String, String> generatorInputs) {
        this.arrays = List.copyOf(arrays);
        this.files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
        this.notes = List.copyOf(notes);
        this.generatorInputs = Collections.unmodifiableMap(new LinkedHashMap<>(generatorInputs));
    }

    /** A manifest of these arrays and notes, without a file list (for a store written by another writer). */
    public static VectorManifest of(List<ArrayVector> arrays, List<String> notes) {
        return new VectorManifest(arrays, Map.of(), notes, Map.of());
    }

    /** This manifest as JSON, in the form {@link #parse(JsonNode)} reads. */
    public ObjectNode toJson() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", FORMAT);
        ArrayNode n = root.putArray("notes");
        notes.forEach(n::add);
        if (!generatorInputs.isEmpty()) {
            ObjectNode g = root.putObject("generator_inputs");
            generatorInputs.forEach(g::put);
        }
        ArrayNode a = root.putArray("arrays");
        arrays.forEach(v -> a.add(v.toJson()));
        if (!files.isEmpty()) {
            ObjectNode f = root.putObject("files");
            files.forEach((k, v) -> f.putObject(k).put("size", v.size()).put("sha256", v.sha256()));
        }
        return root;
    }

    /**
     * Reads {@code manifest.json} from a directory.
     *
     * @throws UncheckedIOException     when it cannot be read
     * @throws InvalidMetadataException when it is not a manifest of this format
     */
    public static VectorManifest read(Path directory) {
        try (InputStream in = Files.newInputStream(directory.resolve("manifest.json"))) {
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + directory.resolve("manifest.json") + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses a manifest.
     *
     * @throws UncheckedIOException     when the stream cannot be read or is not JSON
     * @throws InvalidMetadataException when it is not a manifest of this format, naming the field
     */
    public static VectorManifest parse(InputStream json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("manifest is not valid JSON: " + e.getMessage(), e);
        }
        return parse(root);
    }

    /**
     * Parses a manifest from its JSON tree.
     *
     * @throws InvalidMetadataException when it is not a manifest of this format, naming the field
     */
    public static VectorManifest parse(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new InvalidMetadataException("", "a vector manifest must be a JSON object");
        }
        String format = root.path("format").asText("");
        if (!FORMAT.equals(format)) {
            throw new InvalidMetadataException("/format", "expected \"" + FORMAT + "\", found " + root.get("format"));
        }
        JsonNode list = require(root, "arrays", "");
        List<ArrayVector> arrays = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            arrays.add(ArrayVector.parse(list.get(i), "/arrays/" + i));
        }
        Map<String, FileEntry> files = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("files").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            files.put(e.getKey(), new FileEntry(e.getValue().path("size").asLong(-1), e.getValue().path("sha256").asText("")));
        }
        List<String> notes = new ArrayList<>();
        root.path("notes").forEach(n -> notes.add(n.asText()));
        Map<String, String> inputs = new LinkedHashMap<>();
        root.path("generator_inputs").fields().forEachRemaining(e -> inputs.put(e.getKey(), e.getValue().asText()));
        return new VectorManifest(arrays, files, notes, inputs);
    }

    private static JsonNode require(JsonNode node, String field, String pointer) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw new InvalidMetadataException(pointer + "/" + field, "required field '" + field + "' is missing");
        }
        return v;
    }

    private static long[] longs(JsonNode node, String field, String pointer) {
        JsonNode v = require(node, field, pointer);
        if (!v.isArray()) {
            throw new InvalidMetadataException(pointer + "/" + field, "'" + field + "' must be an array of integers, found " + v);
        }
        long[] out = new long[v.size()];
        for (int i = 0; i < out.length; i++) {
            if (!v.get(i).canConvertToLong()) {
                throw new InvalidMetadataException(pointer + "/" + field + "/" + i, "not an integer: " + v.get(i));
            }
            out[i] = v.get(i).longValue();
        }
        return out;
    }

    /** The arrays, in manifest order. */
    public List<ArrayVector> arrays() {
        return arrays;
    }

    /** The array at a path. */
    public java.util.Optional<ArrayVector> array(String path) {
        return arrays.stream().filter(a -> a.path().equals(path)).findFirst();
    }

    /** Every file of the store (relative path, with '/' separators) with its size and SHA-256, in order. */
    public Map<String, FileEntry> files() {
        return files;
    }

    /** What the generator could not cover and how it wrote what it did. */
    public List<String> notes() {
        return notes;
    }

    /** The SHA-256 of each file the generator ran from, when it recorded them. */
    public Map<String, String> generatorInputs() {
        return generatorInputs;
    }

    /** One file of the store. */
    public record FileEntry(long size, String sha256) {}

    /** A stored chunk (a shard, for sharded arrays): its grid coordinates and key relative to the array. */
    public record StoredChunk(long[] coords, String key) {
        public StoredChunk {
            coords = coords.clone();
        }

        @Override
        public long[] coords() {
            return coords.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StoredChunk c && Arrays.equals(coords, c.coords) && key.equals(c.key);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(coords) + key.hashCode();
        }

        @Override
        public String toString() {
            return Arrays.toString(coords) + " -> " + key;
        }
    }

    /**
     * One array of a manifest: its metadata and every element's expected value.
     *
     * @param path             the array's path relative to the store root, without a leading '/'
     * @param dataType         the {@code data_type} name
     * @param shape            the array's shape
     * @param chunkShape       the regular grid's chunk shape
     * @param chunkKeyEncoding the {@code chunk_key_encoding} object
     * @param codecs           the {@code codecs} array
     * @param fillValue        the {@code fill_value}, in its metadata form
     * @param extensions       the extensions outside the core spec that reading needs (informative)
     * @param features         what the array covers ({@code "edge-chunks"}, {@code "missing-chunks"}, ...)
     * @param chunks           the chunks present in the store
     * @param values           every element in C order
     */
    public record ArrayVector(String path, String dataType, long[] shape, long[] chunkShape, ObjectNode chunkKeyEncoding,
                              ArrayNode codecs, JsonNode fillValue, List<String> extensions, List<String> features,
                              List<StoredChunk> chunks, ArrayNode values) {
        public ArrayVector {
            shape = shape.clone();
            chunkShape = chunkShape.clone();
            chunkKeyEncoding = chunkKeyEncoding.deepCopy();
            codecs = codecs.deepCopy();
            fillValue = fillValue.deepCopy();
            extensions = List.copyOf(extensions);
            features = List.copyOf(features);
            chunks = List.copyOf(chunks);
            values = values.deepCopy();
        }

        static ArrayVector parse(JsonNode a, String pointer) {
            if (!a.isObject()) {
                throw new InvalidMetadataException(pointer, "an array entry must be an object, found " + a);
            }
            String path = require(a, "path", pointer).asText();
            JsonNode keys = require(a, "chunk_key_encoding", pointer);
            JsonNode codecs = require(a, "codecs", pointer);
            JsonNode values = require(a, "values", pointer);
            if (!keys.isObject() || !codecs.isArray() || !values.isArray()) {
                throw new InvalidMetadataException(pointer, "chunk_key_encoding must be an object, codecs and values arrays");
            }
            List<StoredChunk> chunks = new ArrayList<>();
            JsonNode cs = a.path("chunks");
            for (int i = 0; i < cs.size(); i++) {
                chunks.add(new StoredChunk(longs(cs.get(i), "coords", pointer + "/chunks/" + i),
                        require(cs.get(i), "key", pointer + "/chunks/" + i).asText()));
            }
            List<String> extensions = new ArrayList<>();
            a.path("extensions").forEach(e -> extensions.add(e.asText()));
            List<String> features = new ArrayList<>();
            a.path("features").forEach(e -> features.add(e.asText()));
            return new ArrayVector(path, require(a, "data_type", pointer).asText(), longs(a, "shape", pointer),
                    longs(a, "chunk_shape", pointer), (ObjectNode) keys, (ArrayNode) codecs, require(a, "fill_value", pointer),
                    extensions, features, chunks, (ArrayNode) values);
        }

        @Override
        public long[] shape() {
            return shape.clone();
        }

        @Override
        public long[] chunkShape() {
            return chunkShape.clone();
        }

        @Override
        public ObjectNode chunkKeyEncoding() {
            return chunkKeyEncoding.deepCopy();
        }

        @Override
        public ArrayNode codecs() {
            return codecs.deepCopy();
        }

        @Override
        public JsonNode fillValue() {
            return fillValue.deepCopy();
        }

        @Override
        public ArrayNode values() {
            return values.deepCopy();
        }

        /** The expected value of element {@code i} (C order), without copying the list. */
        public JsonNode value(int i) {
            return values.get(i).deepCopy();
        }

        /** The number of elements: the product of the shape (1 for 0-d arrays). */
        public long elementCount() {
            long n = 1;
            for (long d : shape) {
                n = Math.multiplyExact(n, d);
            }
            return n;
        }

        /** This entry as manifest JSON. */
        public ObjectNode toJson() {
            ObjectNode a = JsonNodeFactory.instance.objectNode();
            a.put("path", path);
            a.put("data_type", dataType);
            ArrayNode s = a.putArray("shape");
            for (long d : shape) {
                s.add(d);
            }
            ArrayNode cs = a.putArray("chunk_shape");
            for (long d : chunkShape) {
                cs.add(d);
            }
            a.set("chunk_key_encoding", chunkKeyEncoding.deepCopy());
            a.set("codecs", codecs.deepCopy());
            a.set("fill_value", fillValue.deepCopy());
            extensions.forEach(a.putArray("extensions")::add);
            features.forEach(a.putArray("features")::add);
            ArrayNode ch = a.putArray("chunks");
            for (StoredChunk c : chunks) {
                ObjectNode o = ch.addObject();
                ArrayNode co = o.putArray("coords");
                for (long x : c.coords) {
                    co.add(x);
                }
                o.put("key", c.key);
            }
            a.set("values", values.deepCopy());
            return a;
        }

        /** The array's {@code zarr.json} document as these fields describe it (no attributes). */
        public ObjectNode metadata() {
            JsonNodeFactory f = JsonNodeFactory.instance;
            ObjectNode doc = f.objectNode();
            doc.put("zarr_format", 3);
            doc.put("node_type", "array");
            ArrayNode s = doc.putArray("shape");
            for (long d : shape) {
                s.add(d);
            }
            doc.put("data_type", dataType);
            ArrayNode cs = doc.putObject("chunk_grid").put("name", "regular").putObject("configuration").putArray("chunk_shape");
            for (long d : chunkShape) {
                cs.add(d);
            }
            doc.set("chunk_key_encoding", chunkKeyEncoding.deepCopy());
            doc.set("fill_value", fillValue.deepCopy());
            doc.set("codecs", codecs.deepCopy());
            return doc;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ArrayVector v && path.equals(v.path) && dataType.equals(v.dataType)
                    && Arrays.equals(shape, v.shape) && Arrays.equals(chunkShape, v.chunkShape)
                    && chunkKeyEncoding.equals(v.chunkKeyEncoding) && codecs.equals(v.codecs)
                    && fillValue.equals(v.fillValue) && extensions.equals(v.extensions) && features.equals(v.features)
                    && chunks.equals(v.chunks) && values.equals(v.values);
        }

        @Override
        public int hashCode() {
            return path.hashCode() * 31 + Arrays.hashCode(shape);
        }

        @Override
        public String toString() {
            return path + " (" + dataType + " " + Arrays.toString(shape) + ", chunks " + Arrays.toString(chunkShape) + ")";
        }
    }
}
