package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * zarrita (npm, pinned in {@code interop/zarrita}) reads the consolidated metadata zarrj writes:
 * its {@code withConsolidatedMetadata} (v3) lists every node from the root document alone and
 * reads every array through it. Skipped, saying why, without Node or {@code npm ci} there.
 */
class ZarritaConsolidatedTest {
    @TempDir
    Path tmp;

    /** interop/zarrita/consolidated.mjs with its packages installed, found above the working directory. */
    private static Optional<Path> script() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path dir = d.resolve("interop").resolve("zarrita");
            if (Files.isRegularFile(dir.resolve("consolidated.mjs"))) {
                return Files.isDirectory(dir.resolve("node_modules").resolve("zarrita"))
                        ? Optional.of(dir.resolve("consolidated.mjs")) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static boolean nodeAvailable() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void zarritaOpensTheHierarchyFromTheConsolidatedRootDocument() throws Exception {
        Optional<Path> script = script();
        Assumptions.assumeTrue(script.isPresent(), "interop/zarrita/consolidated.mjs with node_modules not found "
                + "(run npm ci in interop/zarrita)");
        Assumptions.assumeTrue(nodeAvailable(), "node is not installed");
        Path dir = tmp.resolve("c.zarr").toAbsolutePath();
        Zarr zarr = Zarr.defaults();
        try (Store s = zarr.openStore(dir.toString())) {
            ObjectNode attrs = new ObjectMapper().createObjectNode().put("title", "consolidated by zarrj");
            zarr.createGroup(s, "/", attrs);
            zarr.createGroup(s, "/e");
            try (ZarrArray a = zarr.array(DataTypes.INT32, 6).chunks(4).create(s, "/a")) {
                a.write(new long[] {0}, new long[] {6}, new int[] {1, -2, 3, -4, 5, -6});
            }
            try (ZarrArray b = zarr.array(DataTypes.INT16, 2, 2).create(s, "/g/b")) {
                b.write(new long[] {0, 0}, new long[] {2, 2}, new short[] {7, 8, 9, 10});
            }
            try (ZarrArray c = zarr.array(DataTypes.FLOAT64, 3).chunks(2).create(s, "/g/h/c")) {
                c.write(new long[] {0}, new long[] {3}, new double[] {0.5, 1.5, 2.5});
            }
            zarr.consolidate(s, "/");
        }

        Process p = new ProcessBuilder("node", script.get().toString(), dir.toString()).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), err);
        JsonNode doc = new ObjectMapper().readTree(out);

        assertEquals(1, doc.get("documents").asInt(), "zarrita read only the root zarr.json: " + out);
        List<String> nodes = new ArrayList<>();
        doc.get("nodes").forEach(n -> nodes.add(n.get("path").asText() + " " + n.get("kind").asText()));
        assertEquals(List.of("/ group", "/a array", "/e group", "/g group", "/g/b array", "/g/h group", "/g/h/c array"),
                nodes);
        assertEquals("[1,-2,3,-4,5,-6]", doc.get("arrays").get("/a").toString());
        assertEquals("[7,8,9,10]", doc.get("arrays").get("/g/b").toString());
        assertEquals("[0.5,1.5,2.5]", doc.get("arrays").get("/g/h/c").toString());
        assertEquals("consolidated by zarrj", doc.get("attributes").get("title").asText());
    }
}
