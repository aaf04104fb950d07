package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutations of whole stores (structure and bytes of {@code zarr.json}, chunk bytes) read
 * through the API and the CLI: only {@link dev.zarrj.api.ZarrException}s, no hang, no CLI stack
 * trace, and no wrong values from a chunk that a checksum covers. See {@link StoreFuzzer}.
 *
 * <p>Long runs, not part of the normal build: {@code -Dzarrj.fuzz.cases=N} (and {@code
 * -Dzarrj.fuzz.first=K}) runs N cases from case K, collecting every failure into {@code
 * target/store-fuzz.txt} grouped by class instead of stopping at the first; {@code
 * -Dzarrj.fuzz.sweep=true} runs every single structural change of every seed's metadata (about
 * 80,000 cases; the normal build sweeps two seeds) into {@code target/store-sweep.txt}.
 */
class StoreFuzzTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final int CASES = 2500;

    private static final String BYTES = "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}";
    private static final String CRC = "{\"name\": \"crc32c\"}";

    private static String array(String shape, String dtype, String chunks, String fill, String codecs) {
        return """
                {"zarr_format": 3, "node_type": "array", "shape": %s, "data_type": "%s",
                 "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": %s}},
                 "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                 "fill_value": %s, "codecs": [%s], "dimension_names": null,
                 "attributes": {"title": "seed", "n": [1, 2]}}""".formatted(shape, dtype, chunks, fill, codecs);
    }

    private static String sharding(String chunks, String inner, String index, String location) {
        return """
                {"name": "sharding_indexed", "configuration": {"chunk_shape": %s, "codecs": [%s],
                 "index_codecs": [%s], "index_location": "%s"}}""".formatted(chunks, inner, index, location);
    }

    /** Arrays written by zarrj, one per codec chain; true where a checksum covers every stored byte. */
    static List<StoreFuzzer.Seed> writtenSeeds() {
        List<StoreFuzzer.Seed> seeds = new ArrayList<>();
        String zstdSum = "{\"name\": \"zstd\", \"configuration\": {\"level\": 3, \"checksum\": true}}";
        String zstd = "{\"name\": \"zstd\", \"configuration\": {\"level\": 1, \"checksum\": false}}";
        String gzip = "{\"name\": \"gzip\", \"configuration\": {\"level\": 5}}";
        String blosc = "{\"name\": \"blosc\", \"configuration\": {\"cname\": \"zstd\", \"clevel\": 3, \"shuffle\": \"bitshuffle\", \"typesize\": 2, \"blocksize\": 0}}";
        String transpose = "{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 0]}}";
        String big = "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}";
        add(seeds, "bytes", array("[20, 30]", "int16", "[8, 16]", "-7", BYTES), false);
        add(seeds, "bytes-big-f64", array("[17]", "float64", "[5]", "\"NaN\"", big), false);
        add(seeds, "bool", array("[9, 9]", "bool", "[4, 4]", "true", BYTES), false);
        add(seeds, "complex", array("[6]", "complex64", "[4]", "[1.0, \"NaN\"]", BYTES), false);
        add(seeds, "gzip", array("[20, 30]", "uint16", "[8, 16]", "3", BYTES + ", " + gzip), true);
        add(seeds, "zstd-checksum", array("[20, 30]", "int32", "[8, 16]", "0", BYTES + ", " + zstdSum), true);
        add(seeds, "zstd", array("[20, 30]", "float32", "[8, 16]", "0.5", BYTES + ", " + zstd), false);
        add(seeds, "blosc", array("[20, 30]", "int16", "[8, 16]", "0", BYTES + ", " + blosc), false);
        add(seeds, "crc32c", array("[20, 30]", "uint8", "[8, 16]", "0", BYTES + ", " + CRC), true);
        add(seeds, "transpose-gzip-crc", array("[20, 30]", "int64", "[8, 16]", "1",
                transpose + ", " + big + ", " + gzip + ", " + CRC), true);
        add(seeds, "shard-end-crc", array("[20, 32]", "int16", "[10, 16]", "0",
                sharding("[5, 4]", BYTES + ", " + CRC, BYTES + ", " + CRC, "end")), true);
        add(seeds, "shard-start-zstd", array("[20, 32]", "uint32", "[20, 16]", "9",
                sharding("[4, 8]", BYTES + ", " + zstd, BYTES, "start")), false);
        add(seeds, "shard-nested", array("[16, 16]", "float32", "[16, 16]", "0",
                sharding("[8, 8]", sharding("[4, 4]", BYTES + ", " + CRC, BYTES + ", " + CRC, "start"),
                        BYTES + ", " + CRC, "end")), true);
        add(seeds, "shard-gzip-crc", array("[12]", "int8", "[12]", "0",
                sharding("[5]", BYTES + ", " + gzip, BYTES + ", " + CRC, "start") + ", " + gzip), true);
        return seeds;
    }

    private static void add(List<StoreFuzzer.Seed> seeds, String name, String metadata, boolean checksummed) {
        StoreFuzzer.Seed s = StoreFuzzer.written(ZARR, name, metadata, checksummed);
        if (s != null) {
            seeds.add(s);
        }
    }

    /** A hierarchy: a group with attributes, a subgroup, arrays inside. */
    static StoreFuzzer.Seed hierarchy() {
        Store s = ZARR.openStore("memory:");
        ZARR.createGroup(s, "/", (com.fasterxml.jackson.databind.node.ObjectNode) json("{\"a\": {\"b\": [1, null]}}"));
        ZARR.createGroup(s, "/g");
        ZARR.createArray(s, "/g/x", (com.fasterxml.jackson.databind.node.ObjectNode) json(
                array("[4, 4]", "int8", "[2, 2]", "0", BYTES)), false)
                .write(new long[] {0, 0}, new long[] {4, 4}, new byte[16]);
        ZARR.createArray(s, "/y", (com.fasterxml.jackson.databind.node.ObjectNode) json(
                array("[5]", "float32", "[5]", "0", BYTES + ", " + CRC)), false)
                .write(new long[] {0}, new long[] {5}, new float[] {1, 2, 3, 4, 5});
        return new StoreFuzzer.Seed("hierarchy", StoreFuzzer.toMap(s), false);
    }

    private static JsonNode json(String text) {
        try {
            return StoreFuzzer.JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every array of the shared vectors that zarrj reads and that is small; none when they are absent. */
    static List<StoreFuzzer.Seed> vectorSeeds() throws Exception {
        List<StoreFuzzer.Seed> seeds = new ArrayList<>();
        Path root = Path.of("..", "..", "shared", "vectors");
        if (!Files.isDirectory(root)) {
            root = Path.of("..", "shared", "vectors");
        }
        if (!Files.isDirectory(root)) {
            return seeds;
        }
        JsonNode manifest = StoreFuzzer.JSON.readTree(Files.readString(root.resolve("MANIFEST.json"), StandardCharsets.UTF_8));
        for (JsonNode a : manifest.get("arrays")) {
            Path dir = root.resolve(a.get("path").asText());
            StoreFuzzer.Seed s = StoreFuzzer.folder(a.get("id").asText(), dir, 256 << 10, false);
            if (s == null) {
                continue;
            }
            try (Store st = ZARR.openStore(dir.toString(), true)) {
                ZarrArray arr = ZARR.openArray(st, "/");
                arr.read(new long[arr.rank()], new long[arr.rank()]);
            } catch (RuntimeException e) {
                continue; // an extension this build does not have, or a must_fail vector
            }
            seeds.add(s);
        }
        return seeds;
    }

    static List<StoreFuzzer.Seed> allSeeds() throws Exception {
        List<StoreFuzzer.Seed> seeds = new ArrayList<>(writtenSeeds());
        seeds.add(hierarchy());
        seeds.addAll(vectorSeeds());
        return seeds;
    }

    /** Every single structural change of two seeds' metadata; of every seed's with {@code -Dzarrj.fuzz.sweep=true}. */
    @Test
    void sweep(@TempDir Path scratch) throws Exception {
        List<StoreFuzzer.Seed> seeds = Boolean.getBoolean("zarrj.fuzz.sweep") ? allSeeds() : writtenSeeds().subList(0, 2);
        StoreFuzzer fuzzer = new StoreFuzzer(ZARR, seeds, scratch, 7, 30_000);
        try {
            List<StoreFuzzer.Failure> failures = fuzzer.sweep();
            Files.writeString(Path.of("target", "store-sweep.txt"),
                    failures.size() + " failures\n" + fuzzer.outcomes + "\n" + StoreFuzzer.report(failures));
            assertTrue(failures.isEmpty(), StoreFuzzer.report(failures));
        } finally {
            fuzzer.shutdown();
        }
    }

    @Test
    void mutatedStoresOnlyEverThrowZarrExceptions(@TempDir Path scratch) throws Exception {
        List<StoreFuzzer.Seed> seeds = allSeeds();
        assertTrue(seeds.size() >= 14, "seeds: " + seeds.size());
        String longRun = System.getProperty("zarrj.fuzz.cases");
        int cases = longRun == null ? CASES : Integer.parseInt(longRun);
        int first = Integer.getInteger("zarrj.fuzz.first", 0);
        StoreFuzzer fuzzer = new StoreFuzzer(ZARR, seeds, scratch, longRun == null ? 25 : 10, 30_000);
        try {
            List<StoreFuzzer.Failure> failures = fuzzer.run(22, first, cases, longRun == null ? 1 : Integer.MAX_VALUE);
            if (longRun != null) {
                Files.writeString(Path.of("target", "store-fuzz.txt"),
                        cases + " cases, " + failures.size() + " failures\n" + fuzzer.outcomes + "\n"
                                + seeds.stream().map(StoreFuzzer.Seed::name).toList() + "\n" + StoreFuzzer.report(failures));
            }
            assertTrue(failures.isEmpty(), StoreFuzzer.report(failures));
        } finally {
            fuzzer.shutdown();
        }
    }
}
