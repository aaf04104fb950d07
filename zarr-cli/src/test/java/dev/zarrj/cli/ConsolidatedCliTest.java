package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code zarr consolidate}, and {@code zarr info} reading through consolidated metadata. */
class ConsolidatedCliTest {
    @TempDir
    Path dir;

    /** 12 arrays and 3 groups below the root: a0..a3, g/b0..b3, g/h/c0..c3 (g, g/h, and e, empty). */
    private Path hierarchy() {
        Path store = dir.resolve("h.zarr").toAbsolutePath();
        Zarr zarr = Zarr.defaults();
        try (Store s = zarr.openStore(store.toString())) {
            zarr.createGroup(s, "/");
            zarr.createGroup(s, "/e");
            for (String p : List.of("a", "g/b", "g/h/c")) {
                for (int i = 0; i < 4; i++) {
                    try (ZarrArray a = zarr.array(DataTypes.INT16, 6).chunks(3).create(s, p + i)) {
                        a.write(new long[] {0}, new long[] {6}, new short[] {1, 2, 3, 4, 5, 6});
                    }
                }
            }
        }
        return store;
    }

    private static long metadataReads(Path store) throws IOException {
        return Files.readAllLines(Path.of(store + ".requests")).stream()
                .filter(l -> l.startsWith("get ") && l.endsWith("zarr.json")).count();
    }

    @Test
    void consolidateThenInfoReadsOneMetadataDocument() throws Exception {
        Path store = hierarchy();

        CliRun c = CliRun.zarr("consolidate", store.toString());

        assertEquals(0, c.code(), c.err());
        assertTrue(c.out().contains("consolidated the metadata of 15 node(s) below / into 'zarr.json'"), c.out());
        JsonNode root = new ObjectMapper().readTree(store.resolve("zarr.json").toFile());
        assertEquals(15, root.get("consolidated_metadata").get("metadata").size());

        Assumptions.assumeTrue(CliJvm.available(), "no class path to start the CLI with");
        CliJvm.Run info = CliJvm.finish(CliJvm.startWithTestProviders("info", "counting:" + store, "--json"));
        assertEquals(0, info.code(), info.err());
        assertEquals(1, metadataReads(store), "only the root's zarr.json");
        JsonNode doc = new ObjectMapper().readTree(info.out());
        assertEquals(16, doc.get("nodes").size());
        assertEquals(15, doc.get("nodes").get(0).get("consolidated_nodes").asInt());
        assertEquals("/g/h/c3", doc.get("nodes").get(15).get("path").asText());
        assertEquals(2, doc.get("nodes").get(15).get("stored_chunks").asInt(), "chunks are still listed from the store");

        CliJvm.Run direct = CliJvm.finish(CliJvm.startWithTestProviders("--no-consolidated", "info", "counting:" + store,
                "--json"));
        assertEquals(0, direct.code(), direct.err());
        assertEquals(16, metadataReads(store), "every node's own zarr.json");
        JsonNode directDoc = new ObjectMapper().readTree(direct.out());
        assertEquals(doc.get("nodes").size(), directDoc.get("nodes").size());
        for (int i = 0; i < directDoc.get("nodes").size(); i++) {
            assertEquals(directDoc.get("nodes").get(i).get("path"), doc.get("nodes").get(i).get("path"));
        }

        CliRun tree = CliRun.zarr("info", "-l", store.toString());
        assertTrue(tree.out().contains("consolidated metadata: 15 node(s) below"), tree.out());
    }

    @Test
    void consolidateASubgroup() throws IOException {
        Path store = hierarchy();

        CliRun c = CliRun.zarr("consolidate", store.toString(), "--path", "/g");

        assertEquals(0, c.code(), c.err());
        assertTrue(c.out().contains("consolidated the metadata of 9 node(s) below /g into 'g/zarr.json'"), c.out());
        assertTrue(new ObjectMapper().readTree(store.resolve("g/zarr.json").toFile()).has("consolidated_metadata"));
        assertTrue(!new ObjectMapper().readTree(store.resolve("zarr.json").toFile()).has("consolidated_metadata"));
    }

    @Test
    void consolidateRefusesAnArrayOrNothingWithAOneLineError() {
        Path store = hierarchy();

        CliRun array = CliRun.zarr("consolidate", store.toString(), "--path", "/a0");
        CliRun missing = CliRun.zarr("consolidate", store.toString(), "--path", "/nothing");

        assertEquals(2, array.code());
        assertTrue(array.err().startsWith("zarr: ") && array.err().contains("is an array, not a group")
                && array.err().strip().lines().count() == 1, array.err());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("no array or group at '/nothing'"), missing.err());
    }

    @Test
    void helpListsConsolidate() {
        CliRun help = CliRun.zarr("--help");
        assertTrue(help.out().contains("consolidate") && help.out().contains("--no-consolidated"), help.out());
    }

    @Test
    void infoReadsZarrPythonsConsolidatedGroupOfTheVectors() {
        Optional<Path> vectors = VectorCatTest.vectors();
        Assumptions.assumeTrue(vectors.isPresent(), "shared test vectors not found (no shared/vectors above the working directory)");
        Path store = vectors.get().resolve("zarrita.js/data.zarr");

        CliRun info = CliRun.zarr("info", "-l", store.toString(), "--path", "/consolidated");

        assertEquals(0, info.code(), info.err());
        assertTrue(info.out().contains("consolidated metadata: 4 node(s) below"), info.out());
        assertTrue(info.out().contains("/consolidated/nested/1d.i2  array int16"), info.out());
    }
}
