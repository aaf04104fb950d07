package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The consolidated hierarchies of the shared vectors: every node listed in consolidated metadata
 * opens as its own document says, and its data read that way equals its data read without them.
 * Arrays of types zarrj does not read yet fail alike both ways, and their entries are compared as
 * JSON.
 */
class ConsolidatedVectorsTest {
    private static final Zarr CONSOLIDATED = Zarr.builder().threads(2).build();
    private static final Zarr DIRECT = Zarr.builder().threads(2).useConsolidatedMetadata(false).build();

    @TempDir
    Path tmp;

    @AfterAll
    static void close() {
        CONSOLIDATED.close();
        DIRECT.close();
    }

    private static Path vectorsOrSkip() {
        Optional<Path> root = VectorCatTest.vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found (no shared/vectors above the working directory)");
        return root.get();
    }

    @Test
    void zarrPythonsConsolidatedGroupOpensEveryNodeFromTheRootDocument() {
        Path data = vectorsOrSkip().resolve("zarrita.js/data.zarr");
        try (Store files = CONSOLIDATED.openStore(data.toString(), true)) {
            DocumentCounting store = new DocumentCounting(files);
            ZarrGroup g = CONSOLIDATED.openGroup(store, "/consolidated");
            assertEquals(List.of("1d.chunked.i2", "2d.contiguous.i2", "nested", "nested/1d.i2"),
                    g.consolidatedPaths().orElseThrow());
            assertEquals(List.of("1d.chunked.i2", "2d.contiguous.i2", "nested"), g.childNames());
            assertEquals(List.of("1d.i2"), g.openGroup("nested").childNames());
            assertEquals("A nested group", g.openGroup("nested").attributes().get("description").asText());
            for (String p : g.consolidatedPaths().get()) {
                ZarrNode n = g.open(p);
                assertEquals(1, store.documents.get(), "only /consolidated/zarr.json, after opening " + p);
                compare(() -> n, () -> DIRECT.open(files, "/consolidated/" + p), null);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"zarrita.js/data.zarr", "zarrs/issue_287.zarr"})
    void consolidatedByZarrjEveryListedNodeOpensAsWithout(String vector) throws IOException {
        Path copy = tmp.resolve("copy.zarr");
        copyTree(vectorsOrSkip().resolve(vector), copy);
        try (Store store = CONSOLIDATED.openStore(copy.toString())) {
            List<String> paths = CONSOLIDATED.consolidate(store, "/").consolidatedPaths().orElseThrow();
            JsonNode entries = new ObjectMapper().readTree(copy.resolve("zarr.json").toFile())
                    .get("consolidated_metadata").get("metadata");
            assertEquals(entries.size(), paths.size());
            assertTrue(paths.size() >= 4, paths.toString());
            int compared = 0;
            for (String p : paths) {
                ZarrGroup root = CONSOLIDATED.openGroup(store, "/");
                JsonNode own = new ObjectMapper().readTree(copy.resolve(p).resolve("zarr.json").toFile());
                compare(() -> root.open(p), () -> DIRECT.open(store, "/" + p), () -> {
                    JsonNode e = entries.get(p);
                    assertEquals(own, e, "entry of " + p);
                });
                compared++;
            }
            assertEquals(paths.size(), compared);
        }
    }

    /**
     * The node opened both ways: equal metadata and data; or, where zarrj lacks an extension, the
     * same failure both ways and then {@code unknown} (when given) compares the documents.
     */
    private static void compare(Supplier<ZarrNode> consolidated, Supplier<ZarrNode> direct, Runnable unknown) {
        ZarrNode a;
        try {
            a = consolidated.get();
        } catch (UnknownExtensionException e) {
            UnknownExtensionException d = org.junit.jupiter.api.Assertions.assertThrows(UnknownExtensionException.class,
                    direct::get);
            assertEquals(d.extensionName(), e.extensionName());
            if (unknown != null) {
                unknown.run();
            }
            return;
        }
        ZarrNode b = direct.get();
        assertEquals(b.path(), a.path());
        assertEquals(b.attributes(), a.attributes(), a.path());
        if (b instanceof ZarrArray db) {
            ZarrArray ca = assertInstanceOf(ZarrArray.class, a);
            assertEquals(db.metadata(), ca.metadata(), a.path());
            assertTrue(db.read().contentEquals(ca.read()), "data of " + a.path());
        } else {
            assertInstanceOf(ZarrGroup.class, a);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            files.forEach(f -> {
                try {
                    Path t = to.resolve(from.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(t);
                    } else {
                        Files.copy(f, t);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /** A read-only view of a store that counts the metadata documents read through it. */
    private static final class DocumentCounting implements Store {
        private final Store inner;
        final AtomicInteger documents = new AtomicInteger();

        DocumentCounting(Store inner) {
            this.inner = inner;
        }

        @Override public StoreCapabilities capabilities() { return inner.capabilities(); }
        @Override public String describe() { return inner.describe(); }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            if (key.value().endsWith("zarr.json")) {
                documents.incrementAndGet();
            }
            return inner.get(key);
        }

        @Override public List<StoreKey> listPrefix(String prefix) { return inner.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return inner.listDir(prefix); }
    }
}
