package dev.zarrj.cli;

import static dev.zarrj.cli.CliRun.zarr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metadata whose sizes cannot be (chunks of more than 2^63 bytes, more than 2^63 chunks, a last
 * chunk that ends past 2^63, values out of range in any field) is refused when the array is
 * opened with an {@link InvalidMetadataException} naming the field and the value, through the
 * library and through {@code zarr info} and {@code zarr cat} (exit 2, one line); never an
 * {@code ArithmeticException} ("zarr: long overflow"). Large metadata that is valid still reads
 * by region.
 */
class HostileMetadataTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Zarr ZARR = Zarr.defaults();

    private static final String BYTES = "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}";
    private static final String ZSTD = "{\"name\": \"zstd\", \"configuration\": {\"level\": 1, \"checksum\": false}}";

    /** A zstd array, 64 × 64 int16 in chunks of 16 × 16. */
    static final String PLAIN = """
            {"zarr_format": 3, "node_type": "array", "shape": [64, 64], "data_type": "int16",
             "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [16, 16]}},
             "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
             "codecs": [%s, %s]}""".formatted(BYTES, ZSTD);

    /** A sharded array: shards of 32 × 32, inner chunks of 16 × 16 with zstd, index with crc32c. */
    static final String SHARDED = """
            {"zarr_format": 3, "node_type": "array", "shape": [64, 64], "data_type": "int16",
             "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [32, 32]}},
             "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
             "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [16, 16],
                "codecs": [%s, %s], "index_codecs": [%s, {"name": "crc32c"}], "index_location": "end"}}]}"""
            .formatted(BYTES, ZSTD, BYTES);

    @TempDir
    Path tmp;

    /** One hostile document: a base with one member replaced, and what the error must mention. */
    record Hostile(String name, String base, String pointer, String value, List<String> mentions) {
        String document() {
            try {
                ObjectNode doc = (ObjectNode) JSON.readTree(base);
                JsonNode v = JSON.readTree(value);
                int cut = pointer.lastIndexOf('/');
                ((ObjectNode) doc.at(pointer.substring(0, cut))).set(pointer.substring(cut + 1), v);
                return JSON.writeValueAsString(doc);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static Hostile hostile(String name, String base, String pointer, String value, String... mentions) {
        return new Hostile(name, base, pointer, value, List.of(mentions));
    }

    private static String repeat(long value, int times) {
        return Collections.nCopies(times, Long.toString(value)).toString();
    }

    static final String CHUNK_SHAPE = "/chunk_grid/configuration/chunk_shape";
    static final String INNER = "/codecs/0/configuration/chunk_shape";

    static List<Hostile> table() {
        return List.of(
                hostile("a chunk of 2^63 - 1 rows", PLAIN, CHUNK_SHAPE, "[9223372036854775807, 16]",
                        CHUNK_SHAPE, "9223372036854775807", "more than a chunk can hold"),
                hostile("a chunk of 1.8e19 bytes", PLAIN, CHUNK_SHAPE, "[3037000500, 3037000500]",
                        CHUNK_SHAPE, "[3037000500, 3037000500] of int16 is 1.8e19 bytes", "more than a chunk can hold"),
                hostile("more than 2^63 chunks", PLAIN, "/shape", "[4611686018427387904, 4611686018427387904]",
                        "/shape", "[4611686018427387904, 4611686018427387904]", "8.3e34 chunks",
                        "more than an array can hold"),
                hostile("a last chunk that ends past 2^63", PLAIN.replace("[16, 16]", "[3074457345618258603, 1]"),
                        "/shape", "[9223372036854775807, 64]", "/shape/0", "3074457345618258603", "past 2^63 - 1"),
                hostile("a shape beyond 64 bits", PLAIN, "/shape", "[18446744073709551616, 64]",
                        "/shape/0", "18446744073709551616"),
                hostile("a negative shape", PLAIN, "/shape", "[-1, 64]", "/shape/0", "-1"),
                hostile("a negative chunk length", PLAIN, CHUNK_SHAPE, "[-16, 16]", CHUNK_SHAPE, "-16"),
                hostile("a chunk length of 0", PLAIN, CHUNK_SHAPE, "[0, 16]", CHUNK_SHAPE, "0"),
                hostile("a chunk length of 1e300", PLAIN, CHUNK_SHAPE, "[1e300, 16]", "chunk_shape"),
                hostile("rank 32, chunks of 16^32 elements",
                        PLAIN.replace("[16, 16]", repeat(16, 32)).replace("[64, 64]", repeat(1L << 20, 32)),
                        "/data_type", "\"int16\"", CHUNK_SHAPE, "more than a chunk can hold"),
                hostile("rank 32, 2^640 chunks",
                        PLAIN.replace("[16, 16]", repeat(1, 32)).replace("[64, 64]", repeat(1L << 20, 32)),
                        "/data_type", "\"int16\"", "/shape", "more than an array can hold"),
                hostile("a fill value out of range", PLAIN, "/fill_value", "70000", "/fill_value", "70000"),
                hostile("a raw type of 2^63 bits", PLAIN, "/data_type", "\"r9223372036854775807\"",
                        "r9223372036854775807"),
                hostile("a zstd level of 2^40", PLAIN, "/codecs/1/configuration/level", "1099511627776",
                        "/codecs/1/configuration/level", "1099511627776"),
                hostile("a shard of 1.8e19 bytes", SHARDED, CHUNK_SHAPE, "[3037000500, 3037000500]",
                        CHUNK_SHAPE, "1.8e19 bytes"),
                hostile("inner chunks larger than the shard", SHARDED, INNER, "[2147483647, 16]",
                        INNER, "2147483647"),
                hostile("inner chunks of 2^63 - 1", SHARDED, INNER, "[9223372036854775807, 16]",
                        INNER, "9223372036854775807"),
                hostile("a negative inner chunk", SHARDED, INNER, "[-1, 16]", INNER, "-1"),
                hostile("2^60 inner chunks in a shard", SHARDED, CHUNK_SHAPE, "[1073741824, 1073741824]",
                        "/codecs/0/configuration/chunk_shape", "inner chunks"),
                hostile("an index of unbounded size", SHARDED, "/codecs/0/configuration/index_codecs",
                        "[" + BYTES + ", {\"name\": \"gzip\", \"configuration\": {\"level\": 1}}]",
                        "/codecs/0/configuration/index_codecs", "fixed size"));
    }

    /**
     * A directory store: a root group and array {@code /a}, its chunks written as {@code base}
     * encodes them when it is one of the valid bases, then {@code document} as its metadata.
     */
    private Path store(String name, String base, String document) throws IOException {
        Path dir = tmp.resolve(name.replaceAll("[^A-Za-z0-9]+", "-"));
        Path meta = dir.resolve("a/zarr.json");
        Files.createDirectories(meta.getParent());
        Files.writeString(dir.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\"}");
        Files.writeString(meta, base);
        if (base.equals(PLAIN) || base.equals(SHARDED)) {
            try (Store s = ZARR.openStore(dir.toString())) {
                ZarrArray a = ZARR.openArray(s, "/a");
                short[] values = new short[64 * 64];
                for (int i = 0; i < values.length; i++) {
                    values[i] = (short) (i * 7);
                }
                a.write(new long[] {0, 0}, new long[] {64, 64}, values);
            }
        }
        Files.writeString(meta, document);
        return dir;
    }


    /** Exit 2 and exactly one line on standard error, naming what it must; no stack trace, no JVM error. */
    static void assertOneLineError(CliRun r, String what, List<String> mentions) {
        assertEquals(2, r.code(), what + ": " + r.err());
        assertTrue(r.err().endsWith("\n") && r.err().indexOf('\n') == r.err().length() - 1,
                what + " prints one line: " + r.err());
        assertTrue(r.err().startsWith("zarr: "), r.err());
        for (String bad : List.of("Exception:", "\tat ", "long overflow", "OutOfMemoryError")) {
            assertFalse(r.err().contains(bad), what + " shows '" + bad + "': " + r.err());
        }
        for (String m : mentions) {
            assertTrue(r.err().contains(m), what + " should mention '" + m + "': " + r.err());
        }
    }

    @TestFactory
    Stream<DynamicTest> hostileMetadataIsRefusedNamingTheField() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Hostile h : table()) {
            tests.add(DynamicTest.dynamicTest(h.name(), () -> {
                String doc = h.document();
                Path dir = store(h.name(), h.base(), doc);
                List<String> mentions = new ArrayList<>(h.mentions());
                mentions.add("a/zarr.json");
                try (Store s = ZARR.openStore(dir.toString(), true)) {
                    ZarrException e = assertThrows(ZarrException.class, () -> ZARR.open(s, "/a"), doc);
                    assertTrue(e instanceof InvalidMetadataException, e.toString());
                    for (String m : mentions) {
                        assertTrue(e.getMessage().contains(m), "should mention '" + m + "': " + e.getMessage());
                    }
                }
                assertOneLineError(zarr("info", dir.toString()), "info", mentions);
                assertOneLineError(zarr("cat", dir.toString(), "--path", "/a"), "cat", mentions);
            }));
        }
        return tests.stream();
    }

    /** Shards of 4 GiB (inner chunks of 256 × 256): written in part and read by range, as before. */
    @Test
    void shardsAbove2GiBAreWrittenInPartAndReadByRange() throws IOException {
        try (Store s = ZARR.openStore(tmp.resolve("big-shards").toString())) {
            ZarrArray a = ZARR.array(dev.zarrj.core.DataTypes.UINT8, 65536, 65536).chunks(65536, 65536)
                    .codecs("[{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": [256, 256],"
                            + " \"codecs\": [" + BYTES + "], \"index_codecs\": [" + BYTES + ", {\"name\": \"crc32c\"}]}}]")
                    .fillValue(9).create(s, "/a");
            assertEquals(1L << 32, a.chunkByteSize(0, 0));
            a.write(new long[] {1000, 2000}, new long[] {2, 2}, new byte[] {1, 2, 3, 4});
            NdArray r = a.read(new long[] {999, 1999}, new long[] {3, 3});
            assertArrayEquals(new byte[] {9, 9, 9, 9, 1, 2, 9, 3, 4}, r.toByteArray());
            assertEquals(9, a.read(new long[] {65535, 65535}, new long[] {1, 1}).getDouble(0));
        }
    }

    /** 2^62 rows in chunks of 2^20 × 16: valid, opened, and read by region as before. */
    @Test
    void largeValidMetadataReadsByRegion() throws IOException {
        Path dir = store("large", PLAIN, new Hostile("large", PLAIN, "/shape", "[4611686018427387904, 64]", List.of())
                .document().replace("[16,16]", "[1048576,16]"));
        try (Store s = ZARR.openStore(dir.toString(), true)) {
            ZarrArray a = ZARR.openArray(s, "/a");
            assertArrayEquals(new long[] {4398046511104L, 4}, a.chunkGridShape());
            NdArray corner = a.read(new long[] {4611686018427387902L, 62}, new long[] {2, 2});
            assertEquals(0, corner.getDouble(0));
            assertEquals(4L * 2, corner.byteSize());
        }
        CliRun r = zarr("cat", dir.toString(), "--path", "/a", "--region", "4611686018427387902:4611686018427387904,0:2");
        assertEquals(0, r.code(), r.err());
        assertEquals("\0".repeat(8), r.out());
        CliRun info = zarr("info", dir.toString());
        assertEquals(0, info.code(), info.err());
        assertTrue(info.out().contains("4611686018427387904"), info.out());
    }
}
