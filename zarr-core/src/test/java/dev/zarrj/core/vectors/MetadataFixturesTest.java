package dev.zarrj.core.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrNode;
import dev.zarrj.core.registry.ExtensionPoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * zarr-python's metadata fixtures, which a v3 parser must accept: every array and group document
 * opens (or, when it names an extension not installed here, fails naming it), and writing it
 * back gives the same document.
 */
class MetadataFixturesTest {
    /** Writes are allowed so that documents with ignorable members can be written back. */
    private static final Zarr ZARR = Zarr.builder().allowWritesWithSkippedExtensions(true).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> nodeDocumentsOpenAndRoundTrip() throws IOException {
        Optional<Path> root = SharedVectors.root();
        Assumptions.assumeTrue(root.isPresent(), SharedVectors.ABSENT);
        Path dir = root.get().resolve("zarr-python/metadata_fixtures/v3");
        List<DynamicTest> tests = new ArrayList<>();
        for (String kind : List.of("array", "group")) {
            try (Stream<Path> files = Files.list(dir.resolve(kind))) {
                for (Path f : files.sorted().toList()) {
                    tests.add(DynamicTest.dynamicTest(kind + "/" + f.getFileName(), () -> roundTrip(f)));
                }
            }
        }
        return tests.stream();
    }

    private static void roundTrip(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        JsonNode doc = JSON.readTree(bytes);
        Store store = ZARR.openStore("memory:");
        store.set(StoreKey.of("n/zarr.json"), ByteBuffer.wrap(bytes));
        List<String> missing = missingCodecsOrGrid(doc);
        if (!missing.isEmpty()) {
            UnknownExtensionException e = assertThrows(UnknownExtensionException.class, () -> ZARR.open(store, "/n"));
            assertTrue(missing.contains(e.extensionName()), e.getMessage());
            return;
        }
        ZarrNode node = ZARR.open(store, "/n");
        assertEquals(doc, JSON.readTree(node.metadata().toString()), "the document as read");
        node.setAttributes(node.attributes());
        JsonNode rewritten = JSON.readTree(store.get(StoreKey.of("n/zarr.json")).orElseThrow().array());
        JsonNode expected = doc.deepCopy();
        if (!expected.has("attributes")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) expected).set("attributes", JSON.createObjectNode());
        }
        assertEquals(expected, rewritten, "the document written back");
    }

    private static List<String> missingCodecsOrGrid(JsonNode doc) {
        List<String> missing = new ArrayList<>();
        if (!doc.path("node_type").asText().equals("array")) {
            return missing;
        }
        JsonNode dt = doc.path("data_type");
        String type = dt.isTextual() ? dt.asText() : dt.path("name").asText();
        if (!type.matches("r[0-9]+") && !ZARR.registry().names(ExtensionPoint.DATA_TYPE).contains(type)) {
            missing.add(type);
        }
        String grid = doc.path("chunk_grid").path("name").asText();
        if (!ZARR.registry().names(ExtensionPoint.CHUNK_GRID).contains(grid)) {
            missing.add(grid);
        }
        for (JsonNode c : doc.path("codecs")) {
            String name = c.isTextual() ? c.asText() : c.path("name").asText();
            if (!ZARR.registry().names(ExtensionPoint.CODEC).contains(name)) {
                missing.add(name);
            }
        }
        return missing;
    }
}
