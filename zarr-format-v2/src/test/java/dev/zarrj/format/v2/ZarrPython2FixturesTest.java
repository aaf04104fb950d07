package dev.zarrj.format.v2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What zarr-python 2.13 / numcodecs 0.11 wrote (src/test/python/make_fixtures.py): every array
 * reads as a v3 document core accepts and decodes to the values Python wrote, and writes back as
 * the stored documents.
 */
class ZarrPython2FixturesTest {
    static final Path ROOT = Path.of("src", "test", "resources", "zarr-python-2");
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final ZarrV2Format V2 = new ZarrV2Format();
    static final Zarr ZARR = Zarr.defaults();

    static JsonNode expected() {
        try {
            return MAPPER.readTree(ROOT.resolve("expected.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<String> arrays() {
        List<String> names = new ArrayList<>();
        expected().fieldNames().forEachRemaining(names::add);
        return names.stream();
    }

    /** The node's v2 documents as they lie in the fixture folder. */
    static StoredDocuments stored(String path) {
        Map<String, JsonNode> docs = new HashMap<>();
        Path dir = path.isEmpty() ? ROOT : ROOT.resolve(path);
        for (String name : List.of(".zarray", ".zgroup", ".zattrs", ".zmetadata")) {
            Path f = dir.resolve(name);
            if (Files.exists(f)) {
                try {
                    docs.put(name, MAPPER.readTree(f.toFile()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return new StoredDocuments(path.isEmpty() ? "" : path + "/", docs);
    }

    static void assertValues(JsonNode expected, NdArray actual, String name) {
        if (expected.has("bytes")) {
            byte[] want = Base64.getDecoder().decode(expected.get("bytes").asText());
            ByteBuffer b = actual.bytes().duplicate().order(ByteOrder.nativeOrder());
            byte[] got = new byte[b.remaining()];
            b.get(got);
            assertArrayEquals(want, got, name + ": the elements zarr-python wrote");
        } else {
            JsonNode values = expected.get("values");
            String typeName = actual.dataType().name();
            for (int i = 0; i < values.size(); i++) {
                if (typeName.equals("string")) {
                    assertEquals(values.get(i).asText(), actual.getString(i), name + "[" + i + "]");
                } else {
                    assertArrayEquals(Base64.getDecoder().decode(values.get(i).asText()), actual.getBytes(i),
                            name + "[" + i + "]");
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("arrays")
    void readsAsADocumentCoreAcceptsAndWritesBackAsStored(String name) throws IOException {
        StoredDocuments stored = stored(name);
        TranslatedNode node = V2.read(stored).orElseThrow();
        ObjectNode doc = node.document();
        assertEquals("array", doc.get("node_type").asText());
        assertEquals(stored.get(".zarray").orElseThrow().get("fill_value").isNull(), node.storesEveryChunk(), name);

        // write(read(stored)) is what was stored
        Map<String, JsonNode> back = V2.write(doc.deepCopy(), stored);
        assertEquals(stored.documents(), back, name + ": written back as stored");
        // read(write(doc)) for a new node is the document
        Map<String, JsonNode> fresh = V2.write(doc.deepCopy(), StoredDocuments.none(stored.prefix()));
        ObjectNode again = V2.read(new StoredDocuments(stored.prefix(), fresh)).orElseThrow().document();
        assertTrue(Json.sameValue(doc, again), name + ": " + doc + " came back as " + again);

        // core accepts the document, and decodes zarr-python's chunks with it
        Store memory = ZARR.openStore("memory:");
        ZarrArray created = ZARR.createArray(memory, "/" + name, doc.deepCopy(), true);
        Path dir = ROOT.resolve(name);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String rel = dir.relativize(f).toString().replace('\\', '/');
                if (!rel.startsWith(".")) {
                    memory.set(StoreKey.of(name + "/" + rel), ByteBuffer.wrap(Files.readAllBytes(f)));
                }
            }
        }
        assertValues(expected().get(name), created.read(), name);
    }

    @ParameterizedTest
    @MethodSource("arrays")
    void coreOpensTheV2ArrayWhereZarrPythonWroteIt(String name) {
        Store store = ZARR.openStore(ROOT.toAbsolutePath().toString(), true);
        ZarrArray a = ZARR.openArray(store, "/" + name);
        assertEquals(2, a.zarrFormat());
        assertValues(expected().get(name), a.read(), name);
    }

    @Test
    void theRootGroupReadsWithItsConsolidatedMetadataAndWritesBackAsStored() {
        StoredDocuments stored = stored("");
        TranslatedNode node = V2.read(stored).orElseThrow();
        ObjectNode doc = node.document();
        assertEquals("group", doc.get("node_type").asText());
        assertEquals("fixtures", doc.get("attributes").get("title").asText());
        JsonNode consolidated = doc.get("consolidated_metadata");
        assertEquals("inline", consolidated.get("kind").asText());
        assertFalse(consolidated.get("must_understand").asBoolean());
        JsonNode entries = consolidated.get("metadata");
        List<String> expectedPaths = new ArrayList<>(arrays().toList());
        expectedPaths.add("sub");
        for (String path : expectedPaths) {
            JsonNode own = V2.read(stored(path)).orElseThrow().document();
            assertTrue(Json.sameValue(own, entries.get(path)), path + ": " + entries.get(path) + " vs " + own);
        }
        assertEquals(expectedPaths.size(), entries.size());
        assertEquals(stored.documents(), V2.write(doc.deepCopy(), stored));

        Store memory = ZARR.openStore("memory:");
        ZARR.createGroup(memory, "/g", (ObjectNode) doc.get("attributes"));
    }
}
