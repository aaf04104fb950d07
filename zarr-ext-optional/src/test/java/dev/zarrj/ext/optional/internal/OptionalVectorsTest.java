package dev.zarrj.ext.optional.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.ext.optional.OptionalConfiguration;
import dev.zarrj.ext.optional.OptionalType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The two zarrs vectors of the optional type ({@code optional<uint8>} with fill value
 * {@code null}, {@code optional<optional<uint8>>} with {@code [null]}), masks through
 * {@code packbits}: each reads element by element as the manifest says ({@code null} missing,
 * {@code [null]} present with its value missing), and zarrj, writing the same values under the same
 * metadata, stores exactly zarrs' chunks, the same keys and the same bytes.
 */
class OptionalVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final List<String> IDS = List.of("zarrs/v3/array_optional.zarr/array",
            "zarrs/v3/array_optional_nested.zarr/array");

    static Optional<Path> vectors() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isRegularFile(candidate.resolve("MANIFEST.json"))) {
                return Optional.of(candidate);
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }

    private static Path root() {
        Optional<Path> root = vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found (no shared/vectors above the working"
                + " directory)");
        return root.get();
    }

    private static JsonNode entry(Path root, String id) throws IOException {
        for (JsonNode a : new ObjectMapper().readTree(root.resolve("MANIFEST.json").toFile()).get("arrays")) {
            if (a.get("id").asText().equals(id)) {
                return a;
            }
        }
        throw new AssertionError(id + " is not in the manifest");
    }

    @TestFactory
    Stream<DynamicTest> readsAsTheManifestSays() {
        Path root = root();
        return IDS.stream().map(id -> DynamicTest.dynamicTest(id, () -> {
            JsonNode expected = entry(root, id).get("expected").get("values");
            assertEquals("list", expected.get("kind").asText());
            ZarrArray array = ZARR.openArray(ZARR.openStore(root.resolve(id).toString(), true), "/");
            OptionalType type = assertInstanceOf(OptionalType.class, array.dataType());
            assertEquals("optional", type.name(), "the name as zarrs wrote it");
            NdArray values = array.read();
            JsonNode list = expected.get("values");
            assertEquals(list.size(), values.elementCount());
            for (int i = 0; i < list.size(); i++) {
                assertEquals(list.get(i), OptionalType.toJson(values, i), id + " element " + i);
                assertEquals(!list.get(i).isNull(), OptionalType.isPresent(values, i), id + " element " + i);
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> zarrjWritesZarrsChunksByteForByte() {
        Path root = root();
        return IDS.stream().map(id -> DynamicTest.dynamicTest(id, () -> {
            Store original = ZARR.openStore(root.resolve(id).toString(), true);
            ZarrArray source = ZARR.openArray(original, "/");
            NdArray data = source.read();
            Store copy = ZARR.openStore("memory:");
            ZarrArray target = ZARR.createArray(copy, "/", source.metadata(), false);
            target.write(data);
            assertEquals(source.metadata().toString(), ZARR.openArray(copy, "/").metadata().toString());
            TreeSet<String> originalChunks = new TreeSet<>();
            for (StoreKey k : original.list()) {
                originalChunks.add(k.value());
            }
            TreeSet<String> copiedChunks = new TreeSet<>();
            for (StoreKey k : copy.list()) {
                copiedChunks.add(k.value());
                if (!k.value().equals("zarr.json")) {
                    assertArrayEquals(bytes(original.get(k).orElseThrow()), bytes(copy.get(k).orElseThrow()),
                            id + " chunk " + k);
                }
            }
            assertEquals(originalChunks, copiedChunks, id + ": the chunks stored (a chunk of fill values is not)");
            assertTrue(ZARR.openArray(copy, "/").read().contentEquals(data));
        }));
    }

    @TestFactory
    Stream<DynamicTest> zarrsDefaultIsWhatZarrsWrote() {
        Path root = root();
        return IDS.stream().map(id -> DynamicTest.dynamicTest(id, () -> {
            ZarrArray array = ZARR.openArray(ZARR.openStore(root.resolve(id).toString(), true), "/");
            assertEquals(array.codecs().get(0), OptionalConfiguration.zarrsDefault((OptionalType) array.dataType())
                    .toJson());
        }));
    }

    private static byte[] bytes(java.nio.ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
