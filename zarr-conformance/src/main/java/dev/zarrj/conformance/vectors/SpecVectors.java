package dev.zarrj.conformance.vectors;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * Vectors derived by hand from the examples and rules of the Zarr v3 specification: chunk key
 * strings, regular-grid arithmetic, crc32c check values, the {@code bytes} codec's encodings, and
 * the binary layout of small shards.
 *
 * <p>They live in the kit's resources under {@value #SPEC}, one JSON file per kind, each with
 * {@code "schema": "zarrj-spec-vectors/1"}, the {@code kind}, the {@code source} in the spec, and
 * {@code cases}; {@code README.md} there describes the fields. Byte strings are lower-case hex;
 * 64-bit values beyond 2^53 are decimal strings. The methods here parse them into records; every
 * array a record returns is a copy.
 *
 * <p>Thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SpecVectors {
    /** The resource folder of the hand-derived vectors. */
    public static final String SPEC = "/dev/zarrj/conformance/vectors/spec/";
    /** The schema every file declares. */
    public static final String SCHEMA = "zarrj-spec-vectors/1";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private SpecVectors() {}

    /** A chunk key: {@code encoding} (a {@code chunk_key_encoding} object) maps {@code coords} to {@code key}. */
    public record KeyCase(ObjectNode encoding, long[] coords, String key) {
        public KeyCase {
            encoding = encoding.deepCopy();
            coords = coords.clone();
        }

        @Override
        public ObjectNode encoding() {
            return encoding.deepCopy();
        }

        @Override
        public long[] coords() {
            return coords.clone();
        }
    }

    /** An element of a regular grid: the chunk that holds it and its coordinates within that chunk. */
    public record GridElement(long[] coords, long[] chunk, long[] withinChunk) {
        public GridElement {
            coords = coords.clone();
            chunk = chunk.clone();
            withinChunk = withinChunk.clone();
        }

        @Override
        public long[] coords() {
            return coords.clone();
        }

        @Override
        public long[] chunk() {
            return chunk.clone();
        }

        @Override
        public long[] withinChunk() {
            return withinChunk.clone();
        }
    }

    /** A regular grid: array shape and chunk shape give the grid shape; some elements located. */
    public record GridCase(long[] shape, long[] chunkShape, long[] gridShape, List<GridElement> elements) {
        public GridCase {
            shape = shape.clone();
            chunkShape = chunkShape.clone();
            gridShape = gridShape.clone();
            elements = List.copyOf(elements);
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
        public long[] gridShape() {
            return gridShape.clone();
        }
    }

    /** crc32c of {@code input}, and what the {@code crc32c} codec encodes it to. */
    public record Crc32cCase(byte[] input, long crc32c, byte[] encoded) {
        public Crc32cCase {
            input = input.clone();
            encoded = encoded.clone();
        }

        @Override
        public byte[] input() {
            return input.clone();
        }

        @Override
        public byte[] encoded() {
            return encoded.clone();
        }
    }

    /**
     * One element and its {@code bytes} codec encodings.
     *
     * @param value the element in manifest form (number, {@code "NaN"}, decimal string, boolean, or [re, im])
     */
    public record BytesCase(String dataType, JsonNode value, byte[] big, byte[] little) {
        public BytesCase {
            value = value.deepCopy();
            big = big.clone();
            little = little.clone();
        }

        @Override
        public JsonNode value() {
            return value.deepCopy();
        }

        @Override
        public byte[] big() {
            return big.clone();
        }

        @Override
        public byte[] little() {
            return little.clone();
        }
    }

    /** An inner chunk of a shard: its coordinates within the shard and its encoded bytes, empty when absent. */
    public record InnerChunk(long[] coords, Optional<byte[]> bytes) {
        public InnerChunk {
            coords = coords.clone();
            bytes = bytes.map(byte[]::clone);
        }

        @Override
        public long[] coords() {
            return coords.clone();
        }

        @Override
        public Optional<byte[]> bytes() {
            return bytes.map(byte[]::clone);
        }
    }

    /**
     * A hand-built shard.
     *
     * @param name        a short name
     * @param metadata    the array's {@code zarr.json} (one shard covers the whole array)
     * @param shardKey    the shard's key relative to the array
     * @param innerChunks every inner chunk in C order
     * @param index       the decoded index: {@code offset, nbytes} per inner chunk in C order ({@code -1} is 2^64 - 1)
     * @param indexBytes  the encoded index
     * @param indexCrc32c the crc32c of the index, when the index codecs end with crc32c
     * @param shard       the whole shard
     * @param values      every element of the array in C order
     */
    public record ShardCase(String name, ObjectNode metadata, String shardKey, List<InnerChunk> innerChunks, long[] index,
                            byte[] indexBytes, OptionalLong indexCrc32c, byte[] shard, ArrayNode values) {
        public ShardCase {
            metadata = metadata.deepCopy();
            innerChunks = List.copyOf(innerChunks);
            index = index.clone();
            indexBytes = indexBytes.clone();
            shard = shard.clone();
            values = values.deepCopy();
        }

        @Override
        public ObjectNode metadata() {
            return metadata.deepCopy();
        }

        @Override
        public long[] index() {
            return index.clone();
        }

        @Override
        public byte[] indexBytes() {
            return indexBytes.clone();
        }

        @Override
        public byte[] shard() {
            return shard.clone();
        }

        @Override
        public ArrayNode values() {
            return values.deepCopy();
        }

        /** Where the index is: {@code "end"} or {@code "start"}. */
        public String indexLocation() {
            return metadata.path("codecs").path(0).path("configuration").path("index_location").asText("end");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The chunk key cases of {@code chunk-key-encodings.json}. */
    public static List<KeyCase> chunkKeyEncodings() {
        List<KeyCase> out = new ArrayList<>();
        for (JsonNode c : cases("chunk-key-encodings.json", "chunk-key-encoding")) {
            out.add(new KeyCase((ObjectNode) c.get("encoding"), longs(c.get("coords")), c.get("key").asText()));
        }
        return out;
    }

    /** The grid cases of {@code regular-grid.json}. */
    public static List<GridCase> regularGrid() {
        List<GridCase> out = new ArrayList<>();
        for (JsonNode c : cases("regular-grid.json", "regular-grid")) {
            List<GridElement> elements = new ArrayList<>();
            for (JsonNode e : c.get("elements")) {
                elements.add(new GridElement(longs(e.get("coords")), longs(e.get("chunk")), longs(e.get("within_chunk"))));
            }
            out.add(new GridCase(longs(c.get("shape")), longs(c.get("chunk_shape")), longs(c.get("grid_shape")), elements));
        }
        return out;
    }

    /** The checksum cases of {@code crc32c.json}. */
    public static List<Crc32cCase> crc32c() {
        List<Crc32cCase> out = new ArrayList<>();
        for (JsonNode c : cases("crc32c.json", "crc32c")) {
            byte[] input = c.has("ascii") ? c.get("ascii").asText().getBytes(StandardCharsets.US_ASCII) : hex(c.get("input_hex"));
            out.add(new Crc32cCase(input, Long.parseLong(c.get("crc32c").asText().substring(2), 16), hex(c.get("encoded_hex"))));
        }
        return out;
    }

    /** The encoding cases of {@code bytes-codec.json}. */
    public static List<BytesCase> bytesCodec() {
        List<BytesCase> out = new ArrayList<>();
        for (JsonNode c : cases("bytes-codec.json", "bytes-codec")) {
            out.add(new BytesCase(c.get("data_type").asText(), c.get("value"), hex(c.get("big_hex")), hex(c.get("little_hex"))));
        }
        return out;
    }

    /** The shards of {@code sharding-index.json}. */
    public static List<ShardCase> shardingIndex() {
        List<ShardCase> out = new ArrayList<>();
        for (JsonNode c : cases("sharding-index.json", "sharding-index")) {
            List<InnerChunk> inner = new ArrayList<>();
            for (JsonNode i : c.get("inner_chunks")) {
                inner.add(new InnerChunk(longs(i.get("coords")), i.get("hex").isNull() ? Optional.empty() : Optional.of(hex(i.get("hex")))));
            }
            List<Long> index = new ArrayList<>();
            for (JsonNode pair : c.get("index")) {
                for (JsonNode x : pair) {
                    index.add(Long.parseUnsignedLong(x.asText()));
                }
            }
            OptionalLong crc = c.has("index_crc32c")
                    ? OptionalLong.of(Long.parseLong(c.get("index_crc32c").asText().substring(2), 16)) : OptionalLong.empty();
            out.add(new ShardCase(c.get("name").asText(), (ObjectNode) c.get("metadata"), c.get("shard_key").asText(), inner,
                    index.stream().mapToLong(Long::longValue).toArray(), hex(c.get("index_hex")), crc, hex(c.get("shard_hex")),
                    (ArrayNode) c.get("values")));
        }
        return out;
    }

    /** The {@code cases} of one file, after checking its schema and kind. */
    private static JsonNode cases(String file, String kind) {
        JsonNode root;
        try (InputStream in = SpecVectors.class.getResourceAsStream(SPEC + file)) {
            if (in == null) {
                throw new IOException("the kit's resource " + SPEC + file + " is missing");
            }
            root = MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!SCHEMA.equals(root.path("schema").asText()) || !kind.equals(root.path("kind").asText())) {
            throw new IllegalStateException(SPEC + file + " is not a " + SCHEMA + " file of kind " + kind);
        }
        return root.get("cases");
    }

    private static long[] longs(JsonNode a) {
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asLong();
        }
        return out;
    }

    private static byte[] hex(JsonNode s) {
        return HEX.parseHex(s.asText());
    }
}
