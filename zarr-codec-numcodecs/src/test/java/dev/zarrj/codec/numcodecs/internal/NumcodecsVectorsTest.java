package dev.zarrj.codec.numcodecs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.vectors.SharedVectors;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The arrays of the shared vectors that use {@code numcodecs.*} codecs (written by zarr-python,
 * zarrs and zarrita.js), read through {@link Zarr} element by element against the manifest; their
 * chunks re-encoded byte for byte where zarrj's encoder is numcodecs' algorithm; and the ones
 * whose codec needs a native library refused with the reason.
 */
class NumcodecsVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Codecs whose zarrj encoding is numcodecs' bytes. */
    private static final Set<String> DETERMINISTIC = Set.of("bytes", "transpose", "numcodecs.zlib",
            "numcodecs.adler32", "numcodecs.crc32", "numcodecs.fletcher32", "numcodecs.delta", "numcodecs.shuffle",
            "numcodecs.lz4", "numcodecs.fixedscaleoffset", "numcodecs.quantize", "numcodecs.bitround",
            "numcodecs.astype", "numcodecs.packbits", "numcodecs.zfpy");
    private static final Set<String> UNAVAILABLE = Set.of("numcodecs.pcodec");
    /** Lossy codecs: the values are within the configured tolerance of the manifest's. */
    private static final Set<String> LOSSY = Set.of("numcodecs.zfpy");

    static Path vectors() {
        Optional<Path> root = SharedVectors.root();
        if (root.isEmpty()) {
            System.out.println("NumcodecsVectorsTest: skipped: " + SharedVectors.ABSENT);
        }
        Assumptions.assumeTrue(root.isPresent(), SharedVectors.ABSENT);
        return root.get();
    }

    static List<JsonNode> numcodecsArrays(Path root) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : JSON.readTree(root.resolve("MANIFEST.json").toFile()).get("arrays")) {
            if (a.get("features").toString().contains("\"codec:numcodecs.")) {
                out.add(a);
            }
        }
        return out;
    }

    static List<String> codecNames(JsonNode codecs) {
        List<String> names = new ArrayList<>();
        codecs.forEach(c -> names.add(c.get("name").asText()));
        return names;
    }

    @TestFactory
    Stream<DynamicTest> everyNumcodecsArrayReadsAsTheManifestSays() throws Exception {
        Path root = vectors();
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode a : numcodecsArrays(root)) {
            String id = a.get("id").asText();
            tests.add(DynamicTest.dynamicTest(id, () -> {
                Store store = ZARR.openStore(root.resolve(a.get("path").asText()).toString(), true);
                JsonNode meta = JSON.readTree(root.resolve(a.get("path").asText()).resolve("zarr.json").toFile());
                List<String> names = codecNames(meta.get("codecs"));
                Optional<String> unavailable = names.stream().filter(UNAVAILABLE::contains).findFirst();
                if (unavailable.isPresent()) {
                    ZarrException e = assertThrows(ZarrException.class, () -> ZARR.openArray(store, "/"));
                    Throwable t = e;
                    while (!(t instanceof UnsupportedFormatException) && t.getCause() != null) {
                        t = t.getCause();
                    }
                    assertTrue(t instanceof UnsupportedFormatException, e.toString());
                    assertTrue(e.getMessage().contains(unavailable.get()) && e.getMessage().contains("not supported")
                            && e.getMessage().contains("pco"), e.getMessage());
                    return;
                }
                ZarrArray array = ZARR.openArray(store, "/");
                NdArray values = array.read();
                JsonNode expected = a.get("expected").get("values");
                assertEquals(a.get("shape").size(), array.rank());
                for (int i = 0; i < values.elementCount(); i++) {
                    double want = expected.get("kind").asText().equals("list") ? expected.get("values").get(i).asDouble()
                            : expected.get("start").asDouble() + i * expected.get("step").asDouble();
                    double tolerance = names.stream().anyMatch(LOSSY::contains)
                            ? meta.get("codecs").get(names.indexOf("numcodecs.zfpy")).get("configuration")
                                    .get("tolerance").asDouble()
                            : 0;
                    assertEquals(want, values.getDouble(i), tolerance, id + " element " + i);
                }
                if (DETERMINISTIC.containsAll(names)) {
                    assertChunksReencodeByteForByte(array, store, id, names.contains("numcodecs.zfpy"));
                }
            }));
        }
        assertTrue(tests.size() >= 11, "the manifest has the numcodecs arrays it had: " + tests.size());
        return tests.stream();
    }

    /**
     * Every stored chunk, decoded and encoded again by zarrj's chain, is the stored bytes. zfp pads
     * its stream to its bit-stream word size, which differs between builds of the library (the
     * Python wheels use 64-bit words, Debian's libzfp bytes): with zfpy, the bytes are compared
     * without their trailing zero padding.
     */
    private static void assertChunksReencodeByteForByte(ZarrArray array, Store store, String id, boolean padded) {
        CodecChain chain = ZARR.providerContext().codecChain(array.codecs(), "/codecs");
        long[] chunk = array.chunkShape();
        List<long[]> stored = array.storedChunks();
        assertTrue(!stored.isEmpty(), id + " has stored chunks");
        for (long[] coords : stored) {
            NdArray decoded = array.readChunk(coords);
            ChunkSpec spec = new ChunkSpec(array.dataType(), chunk, array.fillValue());
            ByteBuffer encoded = chain.encode(decoded, spec);
            ByteBuffer expected = store.get(StoreKey.of(array.chunkKey(coords))).orElseThrow();
            String want = HexFormat.of().formatHex(bytes(expected));
            String got = HexFormat.of().formatHex(bytes(encoded));
            if (padded) {
                want = want.replaceAll("(00)+$", "");
                got = got.replaceAll("(00)+$", "");
            }
            assertEquals(want, got, id + " chunk " + java.util.Arrays.toString(coords) + " re-encoded");
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }
}
