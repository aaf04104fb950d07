package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded random metadata: numbers in valid {@code zarr.json} documents (shape, chunk shapes, fill
 * value, codec levels, inner chunk shapes, transpose orders, blosc sizes...) pushed toward
 * extremes, arrays of numbers made longer or shorter, over stores that hold the valid arrays'
 * chunks. Opening each and reading a small region at its origin and at its far corner (and the
 * first chunk whole, when it is small) either works or throws a {@link ZarrException}: never
 * another exception, never an error.
 */
class MetadataFuzzTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Zarr ZARR = Zarr.defaults();
    private static final int DOCUMENTS = 3000;

    private static final String BYTES = "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}";

    /** Valid arrays whose metadata is mutated: every core codec family, sharding, rank 1 to 3. */
    private static final List<String> BASES = List.of(
            HostileMetadataTest.PLAIN,
            HostileMetadataTest.SHARDED,
            """
            {"zarr_format": 3, "node_type": "array", "shape": [20, 30, 7], "data_type": "float32",
             "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8, 16, 7]}},
             "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}}, "fill_value": 1.5,
             "codecs": [{"name": "transpose", "configuration": {"order": [2, 0, 1]}}, %s,
                        {"name": "gzip", "configuration": {"level": 3}}, {"name": "crc32c"}]}"""
                    .formatted(BYTES),
            """
            {"zarr_format": 3, "node_type": "array", "shape": [1000], "data_type": "uint8",
             "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [100]}},
             "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}, "fill_value": 255,
             "codecs": [%s]}""".formatted(BYTES),
            """
            {"zarr_format": 3, "node_type": "array", "shape": [40, 40], "data_type": "int64",
             "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [40, 40]}},
             "chunk_key_encoding": {"name": "default"}, "fill_value": -3,
             "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [10, 20],
                "codecs": [%s, {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5,
                    "shuffle": "shuffle", "typesize": 8, "blocksize": 0}}],
                "index_codecs": [%s], "index_location": "start"}}]}""".formatted(BYTES, BYTES));

    /** Values a number is pushed to: limits of every integer width, their neighbours, and beyond. */
    private static final List<JsonNode> EXTREMES = List.of(
            F.numberNode(0), F.numberNode(1), F.numberNode(-1), F.numberNode(2), F.numberNode(3),
            F.numberNode(255), F.numberNode(256), F.numberNode(65536), F.numberNode(Integer.MAX_VALUE),
            F.numberNode((long) Integer.MAX_VALUE + 1), F.numberNode(Integer.MIN_VALUE), F.numberNode(1L << 32),
            F.numberNode(3037000500L), F.numberNode(1L << 53), F.numberNode(1L << 62), F.numberNode(Long.MAX_VALUE),
            F.numberNode(Long.MAX_VALUE - 1), F.numberNode(Long.MIN_VALUE), F.numberNode(4611686018427387905L),
            F.numberNode(new BigInteger("18446744073709551615")), F.numberNode(new BigInteger("18446744073709551616")),
            F.numberNode(1e300), F.numberNode(-0.5), F.numberNode(16777216), F.numberNode(1 << 20));

    /** The base's chunks, written once through zarrj, by key; none when a codec is not installed (blosc). */
    private static Map<String, ByteBuffer> chunksOf(String base) {
        try {
            return writtenChunks(base);
        } catch (ZarrException e) {
            return Map.of();
        }
    }

    private static Map<String, ByteBuffer> writtenChunks(String base) {
        Store s = ZARR.openStore("memory:");
        s.set(StoreKey.of("a/zarr.json"), ByteBuffer.wrap(base.getBytes(StandardCharsets.UTF_8)));
        ZarrArray a = ZARR.openArray(s, "/a");
        long[] shape = a.shape();
        int n = 1;
        for (long d : shape) {
            n *= (int) d;
        }
        byte[] values = new byte[n * a.dataType().size()];
        new SplittableRandom(n).nextBytes(values);
        for (int i = 0; i < values.length; i += 3) {
            values[i] = 0; // runs that compress
        }
        a.write(dev.zarrj.api.NdArray.wrap(a.dataType(), ByteBuffer.wrap(values), shape));
        Map<String, ByteBuffer> out = new HashMap<>();
        for (StoreKey k : s.listPrefix("a/")) {
            if (!k.value().endsWith("zarr.json")) {
                out.put(k.value(), s.get(k).orElseThrow());
            }
        }
        return out;
    }

    /** Every number in the document, as a parent and the field name or index that holds it. */
    private record Slot(JsonNode parent, String field, int index) {
        void set(JsonNode value) {
            if (parent instanceof ObjectNode o) {
                o.set(field, value);
            } else {
                ((ArrayNode) parent).set(index, value);
            }
        }
    }

    private static void numbers(JsonNode node, List<Slot> slots, List<ArrayNode> numberArrays) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isNumber()) {
                    slots.add(new Slot(o, e.getKey(), -1));
                } else {
                    numbers(e.getValue(), slots, numberArrays);
                }
            }
        } else if (node instanceof ArrayNode a) {
            boolean allNumbers = a.size() > 0;
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isNumber()) {
                    slots.add(new Slot(a, null, i));
                } else {
                    allNumbers = false;
                    numbers(a.get(i), slots, numberArrays);
                }
            }
            if (allNumbers) {
                numberArrays.add(a);
            }
        }
    }

    private static JsonNode extreme(SplittableRandom r, JsonNode old) {
        return switch (r.nextInt(4)) {
            case 0, 1 -> EXTREMES.get(r.nextInt(EXTREMES.size()));
            case 2 -> F.numberNode(old.asLong() << (1 + r.nextInt(62))); // the same value scaled up, maybe wrapped
            default -> F.numberNode(-old.asLong());
        };
    }

    /** One mutated document: 1 to 3 numbers pushed to extremes; sometimes an array of numbers longer or shorter. */
    private static String mutate(String base, SplittableRandom r) throws Exception {
        ObjectNode doc = (ObjectNode) JSON.readTree(base);
        List<Slot> slots = new ArrayList<>();
        List<ArrayNode> arrays = new ArrayList<>();
        numbers(doc, slots, arrays);
        int changes = 1 + r.nextInt(3);
        for (int i = 0; i < changes; i++) {
            Slot s = slots.get(r.nextInt(slots.size()));
            JsonNode old = s.parent() instanceof ObjectNode o ? o.get(s.field()) : s.parent().get(s.index());
            s.set(extreme(r, old));
        }
        if (r.nextInt(8) == 0) {
            ArrayNode a = arrays.get(r.nextInt(arrays.size()));
            if (r.nextBoolean() || a.size() == 1) {
                a.add(EXTREMES.get(r.nextInt(EXTREMES.size())));
            } else {
                a.remove(a.size() - 1);
            }
        }
        return JSON.writeValueAsString(doc);
    }

    @Test
    void mutatedMetadataOnlyEverThrowsZarrException() throws Exception {
        SplittableRandom r = new SplittableRandom(22);
        List<Map<String, ByteBuffer>> chunks = new ArrayList<>();
        for (String base : BASES) {
            chunks.add(chunksOf(base));
        }
        int opened = 0;
        int refused = 0;
        for (int i = 0; i < DOCUMENTS; i++) {
            int b = r.nextInt(BASES.size());
            String doc = mutate(BASES.get(b), r);
            Store s = ZARR.openStore("memory:");
            chunks.get(b).forEach((k, v) -> s.set(StoreKey.of(k), v.duplicate()));
            s.set(StoreKey.of("a/zarr.json"), ByteBuffer.wrap(doc.getBytes(StandardCharsets.UTF_8)));
            try {
                ZarrArray a = ZARR.openArray(s, "/a");
                opened++;
                long[] shape = a.shape();
                long[] one = new long[shape.length];
                long[] corner = new long[shape.length];
                boolean empty = false;
                for (int d = 0; d < shape.length; d++) {
                    one[d] = Math.min(shape[d], 2);
                    corner[d] = shape[d] - one[d];
                    empty |= shape[d] == 0;
                }
                if (!empty) {
                    a.read(new long[shape.length], one);
                    a.read(corner, one);
                    if (a.chunkByteSize(new long[shape.length]) <= 1 << 20) {
                        a.readChunk(new long[shape.length]); // the whole-chunk path, where a stored chunk is
                    }
                }
            } catch (ZarrException e) {
                refused++;
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), doc);
            } catch (Throwable t) {
                StringWriter trace = new StringWriter();
                t.printStackTrace(new PrintWriter(trace));
                fail("document " + i + " threw " + t + ", not a ZarrException:\n" + doc + "\n" + trace);
            }
        }
        assertTrue(opened > DOCUMENTS / 10 && refused > DOCUMENTS / 10,
                "the mutations reach both outcomes: " + opened + " opened, " + refused + " refused");
    }
}
