package dev.zarrj.conformance.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The kit's vectors verified with zarr-core and the few plugins on this module's test path: every
 * array whose codecs are installed passes, and every other one is skipped with the codec and the
 * module that provides it.
 * zarr-cli's tests verify them with every plugin installed.
 */
class KitVectorsCoreTest {
    private static final Zarr ZARR = Zarr.defaults();

    @Test
    void everyCoreArrayPassesAndTheRestAreSkippedNamingTheModule() {
        VectorManifest m = KitVectors.manifest();
        List<VectorResult> results = VectorVerifier.verify(ZARR, KitVectors.memoryStore(ZARR), m);
        assertEquals(m.arrays().size(), results.size());
        for (VectorResult r : results) {
            VectorManifest.ArrayVector v = m.array(r.path()).orElseThrow();
            boolean installed = v.extensions().stream().allMatch(e -> ZARR.registry()
                    .names(dev.zarrj.core.registry.ExtensionPoint.CODEC).contains(e));
            if (installed) {
                assertEquals(VectorResult.Status.PASS, r.status(), r.line());
            } else {
                assertEquals(VectorResult.Status.SKIP, r.status(), r.line());
                assertTrue(r.reason().matches("needs the codec '[a-z_]+', which is not installed; add zarr-codec-[a-z]+ \\(module dev\\.zarrj\\.codec\\.[a-z]+\\)"),
                        r.line());
            }
        }
        long passed = results.stream().filter(r -> r.status() == VectorResult.Status.PASS).count();
        assertTrue(passed >= 40, VectorResult.summary(results));
        assertTrue(VectorResult.summary(results).matches(passed + " passed, 0 failed, \\d+ skipped"), VectorResult.summary(results));
    }

    @Test
    void theMatrixCoversWhatTheKitPromises() {
        VectorManifest m = KitVectors.manifest();
        List<String> types = m.arrays().stream().map(VectorManifest.ArrayVector::dataType).distinct().toList();
        for (String t : List.of("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64")) {
            assertTrue(types.contains(t), t);
        }
        for (String f : List.of("edge-chunks", "missing-chunks", "missing-inner-chunks", "zero-dimensional", "transpose", "crc32c",
                "bytes-big-endian", "gzip", "zstd", "blosc", "sharding", "key-default-slash", "key-default-dot", "key-v2-dot", "key-v2-slash")) {
            assertTrue(m.arrays().stream().anyMatch(a -> a.features().contains(f)), f);
        }
        for (String fill : List.of("\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "0", "-128", "true", "false")) {
            assertTrue(m.arrays().stream().anyMatch(a -> a.fillValue().toString().equals(fill)), fill);
        }
        assertTrue(m.notes().stream().anyMatch(n -> n.contains("complex64")), "what zarrita cannot write is noted");
    }

    /** A copy of the vectors with one chunk's bytes changed: the verifier names the array and the element. */
    @Test
    void aCorruptedChunkFailsNamingTheArrayAndTheElement() {
        Store store = KitVectors.memoryStore(ZARR);
        VectorManifest.ArrayVector v = KitVectors.manifest().array("dtype/int16").orElseThrow();
        // Chunk (0, 0) holds elements (0..1, 0..2); only row 1 was written. Element (1, 0) is
        // element 7 in C order, and the chunk's element 3 (little-endian int16 at byte 6).
        StoreKey key = StoreKey.of("dtype/int16/c/0/0");
        ByteBuffer bytes = store.get(key).orElseThrow();
        byte[] b = new byte[bytes.remaining()];
        bytes.get(b);
        b[6] ^= 0x01;
        store.set(key, ByteBuffer.wrap(b));
        VectorResult r = VectorVerifier.verify(ZARR, store, v);
        assertEquals(VectorResult.Status.FAIL, r.status(), r.line());
        VectorResult.Mismatch mm = r.mismatch().orElseThrow();
        assertEquals(7, mm.element());
        assertEquals(List.of(1L, 0L), java.util.Arrays.stream(mm.index()).boxed().toList());
        assertEquals(Optional.of(v.value(7).asText()), Optional.of(mm.expected()));
        assertTrue(r.line().startsWith("FAIL dtype/int16: element 7 [1, 0]: expected "), r.line());
    }

    @Test
    void aMissingChunkReadsAsFillAndFails() {
        Store store = KitVectors.memoryStore(ZARR);
        store.erase(StoreKey.of("keys/v2_dot/0.0.0"));
        VectorResult r = VectorVerifier.verify(ZARR, store, KitVectors.manifest().array("keys/v2_dot").orElseThrow());
        assertEquals(VectorResult.Status.FAIL, r.status(), r.line());
        assertEquals("1", r.mismatch().orElseThrow().got(), "the fill value of keys/v2_dot");
    }

    @Test
    void aWrongKeyEncodingFailsOnTheChunkKey() {
        Store store = KitVectors.memoryStore(ZARR);
        // The same array with its key encoding changed to "default" in zarr.json: zarrj's keys no
        // longer match the manifest's.
        String doc = new String(bytes(store.get(StoreKey.of("keys/v2_slash/zarr.json")).orElseThrow()), java.nio.charset.StandardCharsets.UTF_8);
        store.set(StoreKey.of("keys/v2_slash/zarr.json"), ByteBuffer.wrap(doc.replace("\"v2\"", "\"default\"")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        VectorResult r = VectorVerifier.verify(ZARR, store, KitVectors.manifest().array("keys/v2_slash").orElseThrow());
        assertEquals(VectorResult.Status.FAIL, r.status(), r.line());
        assertEquals("FAIL keys/v2_slash: chunk [0, 0, 0] has key 'keys/v2_slash/c/0/0/0', expected 'keys/v2_slash/0/0/0'", r.line());
    }

    @Test
    void theManifestRoundTripsThroughJson() {
        VectorManifest m = KitVectors.manifest();
        VectorManifest again = VectorManifest.parse(m.toJson());
        assertEquals(m.arrays(), again.arrays());
        assertEquals(m.files(), again.files());
        assertEquals(m.notes(), again.notes());
        assertEquals(m.generatorInputs(), again.generatorInputs());
    }

    /** What a writer stores for the other direction: the expected values, element for element what zarrj reads. */
    @Test
    void expectedValuesAreWhatZarrjReads() {
        Store store = KitVectors.memoryStore(ZARR);
        for (VectorManifest.ArrayVector v : KitVectors.manifest().arrays()) {
            if (!v.extensions().isEmpty()) {
                continue;
            }
            dev.zarrj.core.ZarrArray a = ZARR.openArray(store, v.path());
            assertTrue(VectorValues.expected(a.dataType(), v).contentEquals(a.read()), v.path());
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
