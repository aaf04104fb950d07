package dev.zarrj.format.v2;

import static dev.zarrj.format.v2.V2ReadTest.json;
import static dev.zarrj.format.v2.V2ReadTest.zarray;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** v2 nodes opened, changed and refused through core, where the format's translation shows. */
class V2ThroughCoreTest {
    static final Zarr ZARR = Zarr.defaults();
    static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aResizeAndAnAttributeUpdateRewriteOnlyTheShapeAndTheAttributes(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("a");
        Files.createDirectories(a);
        // what zarrj would not write itself: auto shuffle, no fill value, a key v2 readers ignore
        ObjectNode before = zarray("{'dtype': '<f8', 'fill_value': null, 'order': 'F', 'compressor': {'id': 'blosc',"
                + " 'cname': 'lz4', 'clevel': 5, 'shuffle': -1, 'blocksize': 0}, 'written_by': 'someone'}");
        Files.writeString(a.resolve(".zarray"), before.toString());
        Store store = ZARR.openStore(dir.toString());
        ZarrArray array = ZARR.openArray(store, "/a");
        array.write(new long[] {1, 1}, new long[] {1, 2}, new double[] {2.5, 3.5});
        array.resize(new long[] {5, 6}, false);
        array.setAttributes((ObjectNode) json("{'note': 'grown'}"));

        ObjectNode expected = before.deepCopy();
        expected.set("shape", json("[5, 6]"));
        assertEquals(expected, MAPPER.readTree(a.resolve(".zarray").toFile()));
        assertEquals(json("{'note': 'grown'}"), MAPPER.readTree(a.resolve(".zattrs").toFile()));
        assertFalse(Files.exists(a.resolve("zarr.json")));
        ZarrArray again = ZARR.openArray(store, "/a");
        assertArrayEquals(new long[] {5, 6}, again.shape());
        assertArrayEquals(new double[] {2.5, 3.5}, again.read(new long[] {1, 1}, new long[] {1, 2}).toDoubleArray());
    }

    @Test
    void aCodecNotInstalledIsReportedAtTheV2FieldItCameFrom(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("g/a"));
        Files.writeString(dir.resolve("g/a/.zarray"), zarray("{'compressor': {'id': 'nosuch', 'level': 1}}").toString());
        Store store = ZARR.openStore(dir.toString());
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.openArray(store, "/g/a"));
        assertTrue(e.getMessage().contains("g/a/.zarray") && e.getMessage().contains("/compressor"), e.getMessage());
    }

    @Test
    void aMalformedZarrayIsReportedThroughCore(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("a"));
        Files.writeString(dir.resolve("a/.zarray"), zarray("{'order': 'K'}").toString());
        Store store = ZARR.openStore(dir.toString());
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.openArray(store, "/a"));
        assertEquals("/order", e.pointer());
        assertTrue(e.getMessage().contains("a/.zarray") && e.getMessage().contains("\"K\""), e.getMessage());
    }

    @Test
    void anArrayZarrjCannotReadDoesNotBreakItsHierarchy(@TempDir Path dir) throws IOException {
        String pickled = zarray("{'dtype': '|O', 'filters': [{'id': 'pickle', 'protocol': 2}]}").toString();
        String plain = zarray("{}").toString();
        Files.createDirectories(dir.resolve("p"));
        Files.createDirectories(dir.resolve("a"));
        Files.writeString(dir.resolve(".zgroup"), "{\"zarr_format\": 2}");
        Files.writeString(dir.resolve("p/.zarray"), pickled);
        Files.writeString(dir.resolve("a/.zarray"), plain);
        Files.writeString(dir.resolve(".zmetadata"), "{\"metadata\": {\".zgroup\": {\"zarr_format\": 2}, \"p/.zarray\": "
                + pickled + ", \"a/.zarray\": " + plain + "}, \"zarr_consolidated_format\": 1}");
        for (boolean consolidated : new boolean[] {true, false}) {
            try (Zarr zarr = Zarr.builder().useConsolidatedMetadata(consolidated).build()) {
                Store store = zarr.openStore(dir.toString());
                ZarrGroup root = zarr.openGroup(store, "/");
                assertEquals(java.util.List.of("a", "p"), root.childNames());
                assertTrue(root.exists("p"));
                dev.zarrj.api.UnsupportedFormatException e = assertThrows(dev.zarrj.api.UnsupportedFormatException.class,
                        () -> root.open("p"));
                assertTrue(e.getMessage().contains("p/.zarray") && e.getMessage().contains("pickle"), e.getMessage());
                ZarrArray a = root.openArray("a");
                a.setAttributes((ObjectNode) json("{'ok': " + consolidated + "}"));
                assertEquals(consolidated, zarr.openArray(store, "/a").attributes().get("ok").asBoolean());
            }
        }
    }
}
