package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Store;
import dev.zarrj.conformance.vectors.KitVectors;
import dev.zarrj.conformance.vectors.VectorManifest;
import dev.zarrj.conformance.vectors.VectorResult;
import dev.zarrj.conformance.vectors.VectorVerifier;
import dev.zarrj.core.Zarr;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit's vectors, written by zarrita, read by zarrj with every plugin installed:
 * every array passes, from memory and from a file-system copy; a corrupted copy fails naming the
 * array and the element.
 */
class KitVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();

    private static String report(List<VectorResult> results) {
        return results.stream().map(VectorResult::line).collect(Collectors.joining("\n")) + "\n" + VectorResult.summary(results);
    }

    @Test
    void everyKitVectorPassesFromMemory() {
        VectorManifest m = KitVectors.manifest();
        List<VectorResult> results = VectorVerifier.verify(ZARR, KitVectors.memoryStore(ZARR), m);
        assertTrue(m.arrays().size() >= 50, "the matrix: " + m.arrays().size());
        assertTrue(results.stream().allMatch(r -> r.status() == VectorResult.Status.PASS), report(results));
        assertEquals(m.arrays().size() + " passed, 0 failed", VectorResult.summary(results));
    }

    @Test
    void everyKitVectorPassesFromAFileStoreCopy(@TempDir Path dir) {
        KitVectors.copyTo(dir);
        assertTrue(Files.isRegularFile(dir.resolve("manifest.json")));
        VectorManifest m = VectorManifest.read(dir);
        List<VectorResult> results = VectorVerifier.verify(ZARR, ZARR.openStore(dir.toString(), true), m);
        assertTrue(results.stream().allMatch(r -> r.status() == VectorResult.Status.PASS), report(results));
    }

    /** Two chunks of the same size swapped: both decode, but the values are in the wrong place. */
    @Test
    void swappedChunksFailNamingTheArrayAndTheFirstWrongElement(@TempDir Path dir) throws IOException {
        KitVectors.copyTo(dir);
        Path c0 = dir.resolve("codecs/zstd/c/0");
        Path c1 = dir.resolve("codecs/zstd/c/1");
        byte[] b0 = Files.readAllBytes(c0);
        Files.write(c0, Files.readAllBytes(c1));
        Files.write(c1, b0);
        VectorManifest m = VectorManifest.read(dir);
        List<VectorResult> results = VectorVerifier.verify(ZARR, ZARR.openStore(dir.toString(), true), m);
        List<VectorResult> failed = results.stream().filter(r -> r.status() == VectorResult.Status.FAIL).toList();
        assertEquals(1, failed.size(), report(results));
        VectorResult r = failed.get(0);
        assertEquals("codecs/zstd", r.path());
        VectorResult.Mismatch mm = r.mismatch().orElseThrow();
        assertEquals(0, mm.element());
        VectorManifest.ArrayVector v = m.array("codecs/zstd").orElseThrow();
        assertEquals(v.value(0).asText(), mm.expected());
        assertEquals(v.value(16).asText(), mm.got(), "element 0 now holds what chunk 1 starts with");
        assertEquals("FAIL codecs/zstd: element 0 [0]: expected " + mm.expected() + ", got " + mm.got(), r.line());
        assertEquals((m.arrays().size() - 1) + " passed, 1 failed", VectorResult.summary(results));
    }

    /** A flipped byte under a checksum: the read fails, and the result names the array and the chunk. */
    @Test
    void aFlippedByteUnderCrc32cFailsNamingTheChunk(@TempDir Path dir) throws IOException {
        KitVectors.copyTo(dir);
        Path chunk = dir.resolve("codecs/crc32c/c/1");
        byte[] b = Files.readAllBytes(chunk);
        b[3] ^= 0x40;
        Files.write(chunk, b);
        Store store = ZARR.openStore(dir.toString(), true);
        VectorResult r = VectorVerifier.verify(ZARR, store, VectorManifest.read(dir).array("codecs/crc32c").orElseThrow());
        assertEquals(VectorResult.Status.FAIL, r.status(), r.line());
        assertTrue(r.line().startsWith("FAIL codecs/crc32c: "), r.line());
        assertTrue(r.reason().contains("codecs/crc32c/c/1"), "names the chunk's key: " + r.reason());
    }
}
