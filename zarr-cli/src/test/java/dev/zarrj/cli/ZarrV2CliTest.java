package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zarr command on Zarr v2 stores (zarr-format-v2 on its module path): info names each node's
 * format and shows its stored documents, create writes v2, cat/verify/copy read v2 written by
 * zarr-python 2 and by zarrj, and copy migrates between v2 and v3, byte for byte where the chunks
 * stay the same.
 */
class ZarrV2CliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void infoNamesEachNodesFormatAndShowsItsStoredDocuments() throws Exception {
        String store = tmp.resolve("v2").toString();
        CliRun group = CliRun.zarr("create", store, "--path", "/", "--group", "--zarr-format", "2",
                "--attrs", "{\"title\": \"t\"}");
        assertEquals(0, group.code(), group.err());
        assertTrue(group.out().contains("as Zarr v2"), group.out());
        CliRun array = CliRun.zarr("create", store, "--path", "/a", "--shape", "5", "--chunks", "2", "--dtype", "int16",
                "--zarr-format", "2", "--attrs", "{\"units\": \"m\"}");
        assertEquals(0, array.code(), array.err());
        assertTrue(Files.isRegularFile(tmp.resolve("v2/a/.zarray")));
        assertTrue(Files.isRegularFile(tmp.resolve("v2/.zgroup")));
        assertFalse(Files.exists(tmp.resolve("v2/a/zarr.json")));
        // Without --zarr-format, below a v2 group: v2 too (a zarr.json root would hide the v2 hierarchy).
        CliRun below = CliRun.zarr("create", store, "--path", "/g/b", "--shape", "3", "--dtype", "uint8");
        assertEquals(0, below.code(), below.err());
        assertTrue(Files.isRegularFile(tmp.resolve("v2/g/b/.zarray")), below.out());
        assertFalse(Files.exists(tmp.resolve("v2/zarr.json")));
        assertFalse(Files.exists(tmp.resolve("v2/g/zarr.json")));
        String v3 = tmp.resolve("v3").toString();
        assertEquals(0, CliRun.zarr("create", v3, "--path", "/b", "--shape", "3", "--dtype", "uint8").code());
        assertTrue(CliRun.zarr("info", "-l", v3).out().contains("zarr format 3 (zarr.json)"));

        CliRun info = CliRun.zarr("info", "-l", store);
        assertEquals(0, info.code(), info.err());
        assertTrue(info.out().contains("zarr format 2 (.zgroup, .zattrs)"), info.out());
        assertTrue(info.out().contains("zarr format 2 (.zarray, .zattrs)"), info.out());
        assertTrue(info.out().contains("/g/b  array uint8"), info.out());
        assertFalse(info.out().contains("zarr format 3"), info.out());
        assertFalse(info.out().contains("stored .zarray"), "documents only on request: " + info.out());

        CliRun stored = CliRun.zarr("info", store, "--path", "/a", "--stored");
        assertTrue(stored.out().contains("stored .zarray {\"chunks\":[2],"), stored.out());
        assertTrue(stored.out().contains("\"dtype\":\"<i2\""), stored.out());
        assertTrue(stored.out().contains("stored .zattrs {\"units\":\"m\"}"), stored.out());

        JsonNode doc = JSON.readTree(CliRun.zarr("info", store, "--path", "/a", "--json", "--stored").out());
        JsonNode node = doc.get("nodes").get(0);
        assertEquals(2, node.get("zarr_format").asInt());
        assertEquals("[\".zarray\",\".zattrs\"]", node.get("stored_documents").toString());
        assertEquals("<i2", node.get("stored_metadata").get(".zarray").get("dtype").asText());
        assertEquals("int16", node.get("data_type").asText(), "the v3-equivalent data type beside the stored one");
    }

    @Test
    void createRefusesWhatZarrV2CannotExpressInOneLine() {
        String store = tmp.resolve("v2").toString();
        CliRun sharded = CliRun.zarr("create", store, "--path", "/s", "--shape", "8", "--shard", "8", "--chunks", "4",
                "--dtype", "int32", "--zarr-format", "2");
        assertEquals(2, sharded.code());
        assertEquals(1, sharded.err().strip().lines().count(), sharded.err());
        assertTrue(sharded.err().contains("cannot create array /s as Zarr v2"), sharded.err());
        assertTrue(sharded.err().contains("sharding"), sharded.err());
        assertFalse(Files.exists(tmp.resolve("v2/s/.zarray")));

        CliRun format = CliRun.zarr("create", store, "--path", "/g", "--group", "--zarr-format", "4");
        assertEquals(2, format.code());
        assertTrue(format.err().contains("--zarr-format must be 2 or 3"), format.err());
    }

    /** zarr-python 2 writes a small store; the zarr command reads, verifies and migrates it, and back. */
    @Test
    void catVerifyAndCopyReadWhatZarrPython2Wrote() throws Exception {
        ExternalTools.pythonZarr2Missing().ifPresent(r -> Assumptions.abort(r));
        Path v2 = tmp.resolve("py.zarr");
        python("""
                import sys, numpy as np, zarr, numcodecs
                g = zarr.open_group(sys.argv[1], mode='w')
                g.attrs['made_by'] = 'zarr-python 2'
                a = g.create_dataset('f/a', shape=(5, 4), chunks=(2, 3), dtype='<i4', order='F', fill_value=7,
                                     compressor=numcodecs.Zlib(level=3), dimension_separator='/')
                a[0:4, 0:3] = np.arange(12, dtype='<i4').reshape(4, 3) * -3
                b = g.create_dataset('b', shape=(7,), chunks=(3,), dtype='>f8', fill_value=-1.5,
                                     compressor=numcodecs.Blosc(cname='zstd', clevel=2, shuffle=2))
                b[:] = [0.5, -0.0, 1e300, float('nan'), 3.25, -7.0, 2.0]
                """, v2.toString());
        String a = "[[0,-3,-6,7],[-9,-12,-15,7],[-18,-21,-24,7],[-27,-30,-33,7],[7,7,7,7]]";

        CliRun cat = CliRun.zarr("cat", v2.toString(), "--path", "/f/a", "--format", "json");
        assertEquals(0, cat.code(), cat.err());
        assertEquals(a, cat.out().strip());
        CliRun verify = CliRun.zarr("verify", v2.toString());
        assertEquals(0, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains("5 chunk(s) checked, 0 bad"), verify.out());

        Path v3 = tmp.resolve("v3.zarr");
        CliRun copy = CliRun.zarr("copy", v2.toString(), v3.toString(), "--zarr-format", "3");
        assertEquals(0, copy.code(), copy.err());
        assertTrue(copy.out().contains("/f/a -> Zarr v3: copied byte for byte: 2 chunk(s)"), copy.out());
        assertTrue(copy.out().contains("/b -> Zarr v3: copied byte for byte: 3 chunk(s)"), copy.out());
        assertTrue(copy.out().contains("2 byte for byte (5 chunk(s)), 0 re-encoded (0 chunk(s))"), copy.out());
        assertSameFiles(v2.resolve("f/a"), v3.resolve("f/a"), 2);
        assertSameFiles(v2.resolve("b"), v3.resolve("b"), 3);
        assertTrue(Files.isRegularFile(v3.resolve("f/a/zarr.json")));
        assertEquals(a, CliRun.zarr("cat", v3.toString(), "--path", "/f/a", "--format", "json").out().strip());
        assertTrue(CliRun.zarr("info", "-l", v3.toString()).out().contains("{\"made_by\":\"zarr-python 2\"}"));

        // Without --zarr-format each node keeps its format.
        Path same = tmp.resolve("same.zarr");
        CliRun plain = CliRun.zarr("copy", v2.toString(), same.toString());
        assertEquals(0, plain.code(), plain.err());
        assertTrue(plain.out().contains("/f/a -> Zarr v2: copied byte for byte: 2 chunk(s)"), plain.out());
        assertTrue(Files.isRegularFile(same.resolve("f/a/.zarray")));
        assertFalse(Files.exists(same.resolve("f/a/zarr.json")));
        assertSameFiles(v2.resolve("f/a"), same.resolve("f/a"), 2);

        // And back to Zarr v2: zarr-python 2 reads the same elements.
        Path back = tmp.resolve("back.zarr");
        CliRun again = CliRun.zarr("copy", v3.toString(), back.toString(), "--zarr-format", "2");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("0 re-encoded"), again.out());
        assertSameFiles(v2.resolve("f/a"), back.resolve("f/a"), 2);
        String read = python("""
                import sys, json, zarr
                g = zarr.open_group(sys.argv[1], mode='r')
                b = [None if x != x else x for x in g['b'][:].tolist()]
                print(json.dumps([g['f/a'][:].tolist(), b, g['f/a'].order, g['b'].dtype.str, dict(g.attrs)]))
                """, back.toString());
        assertEquals("[" + a.replace(",", ", ") + ", [0.5, -0.0, 1e+300, null, 3.25, -7.0, 2.0], \"F\", \">f8\", "
                + "{\"made_by\": \"zarr-python 2\"}]", read.strip());
    }

    /** zarrj's own v3 array to v2 and back: the keys change with the encoding, the bytes do not. */
    @Test
    void migrationRenamesChunkKeysAndKeepsTheirBytes() throws Exception {
        Path v3 = tmp.resolve("v3");
        Zarr zarr = Zarr.defaults();
        try (Store s = zarr.openStore(v3.toString())) {
            try (ZarrArray a = zarr.array(DataTypes.INT32, 4, 6).chunks(2, 3).codec("gzip", java.util.Map.of("level", 5))
                    .create(s, "/g/a")) {
                int[] values = new int[24];
                for (int i = 0; i < values.length; i++) {
                    values[i] = i * i - 100;
                }
                a.write(new long[] {0, 0}, new long[] {4, 6}, values);
            }
        }
        String before = CliRun.zarr("cat", v3.toString(), "--path", "/g/a", "--format", "csv").out();

        Path v2 = tmp.resolve("v2");
        CliRun copy = CliRun.zarr("copy", v3.toString(), v2.toString(), "--zarr-format", "2");
        assertEquals(0, copy.code(), copy.err());
        assertTrue(copy.out().contains("/g/a -> Zarr v2: copied byte for byte: 4 chunk(s), chunk keys default '/' -> v2 '.'"),
                copy.out());
        for (String k : List.of("0/0", "0/1", "1/0", "1/1")) {
            assertArrayEquals(Files.readAllBytes(v3.resolve("g/a/c/" + k)),
                    Files.readAllBytes(v2.resolve("g/a/" + k.replace('/', '.'))), k);
        }
        assertTrue(Files.readString(v2.resolve("g/a/.zarray")).contains("\"gzip\""));
        assertEquals(before, CliRun.zarr("cat", v2.toString(), "--path", "/g/a", "--format", "csv").out());
        assertTrue(CliRun.zarr("verify", v2.toString()).out().contains("4 chunk(s) checked, 0 bad"));

        Path v3again = tmp.resolve("v3again");
        CliRun back = CliRun.zarr("copy", v2.toString(), v3again.toString(), "--zarr-format", "3",
                "--chunk-key-encoding", "default");
        assertEquals(0, back.code(), back.err());
        assertTrue(back.out().contains("copied byte for byte: 4 chunk(s), chunk keys v2 '.' -> default '/'"), back.out());
        assertSameFiles(v3.resolve("g/a/c"), v3again.resolve("g/a/c"), 4);
        assertEquals(before, CliRun.zarr("cat", v3again.toString(), "--path", "/g/a", "--format", "csv").out());

        // New codecs: decoded and encoded again, said so.
        Path zstd = tmp.resolve("zstd");
        CliRun reencoded = CliRun.zarr("copy", v2.toString(), zstd.toString(), "--zarr-format", "3", "--codecs",
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"zstd\"}]");
        assertEquals(0, reencoded.code(), reencoded.err());
        assertTrue(reencoded.out().contains("/g/a -> Zarr v3: re-encoded (codecs differ): 4 chunk(s)"), reencoded.out());
        assertTrue(reencoded.out().contains("0 byte for byte (0 chunk(s)), 1 re-encoded (4 chunk(s))"), reencoded.out());
        assertEquals(before, CliRun.zarr("cat", zstd.toString(), "--path", "/g/a", "--format", "csv").out());
    }

    @Test
    void migrationToV2StopsBeforeWritingAnArrayV2CannotExpress() throws Exception {
        Path v3 = tmp.resolve("v3");
        Zarr zarr = Zarr.defaults();
        try (Store s = zarr.openStore(v3.toString())) {
            zarr.array(DataTypes.INT32, 8).create(s, "/a").close();
            zarr.array(DataTypes.INT32, 8).shards(8).chunks(4).create(s, "/z/sharded").close();
        }
        Path v2 = tmp.resolve("v2");
        CliRun copy = CliRun.zarr("copy", v3.toString(), v2.toString(), "--zarr-format", "2");
        assertEquals(2, copy.code());
        assertEquals(1, copy.err().strip().lines().count(), copy.err());
        assertTrue(copy.err().contains("cannot copy array /z/sharded as Zarr v2"), copy.err());
        assertTrue(copy.err().contains("sharding"), copy.err());
        assertFalse(Files.exists(v2.resolve("a")), "nothing is written when one array cannot be");

        CliRun encoding = CliRun.zarr("copy", v3.toString(), v2.toString(), "--chunk-key-encoding", "c/");
        assertEquals(2, encoding.code());
        assertTrue(encoding.err().contains("--chunk-key-encoding must be default or v2"), encoding.err());
    }

    @Test
    void chunksAreReusedOnlyWhereDataTypeGridCodecsAndFillValueAgree() throws Exception {
        ObjectNode a = (ObjectNode) JSON.readTree("""
                {"data_type": "float32", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
                 "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}], "fill_value": 1}""");
        ObjectNode same = a.deepCopy();
        same.put("fill_value", 1.0); // a translation may write 1 as 1.0
        assertNull(CopyCommand.difference(a, same));
        ObjectNode other = a.deepCopy();
        other.put("fill_value", "NaN");
        ((ObjectNode) other.get("codecs").get(0).get("configuration")).put("endian", "big");
        assertEquals("codecs differ, fill value differs", CopyCommand.difference(a, other));
        ObjectNode transformed = a.deepCopy();
        transformed.putArray("storage_transformers").addObject().put("name", "x");
        assertEquals("storage transformers", CopyCommand.difference(a, transformed));
        ObjectNode none = a.deepCopy();
        none.putArray("storage_transformers");
        assertNull(CopyCommand.difference(a, none), "an empty list is no storage transformer");
    }

    /** The chunk files below two folders are the same, byte for byte, and there are {@code count} of them. */
    private static void assertSameFiles(Path from, Path to, int count) throws IOException {
        List<Path> chunks;
        try (Stream<Path> files = Files.walk(from)) {
            chunks = files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith(".z")
                    && !f.getFileName().toString().equals("zarr.json")).toList();
        }
        assertEquals(count, chunks.size(), "chunks in " + from);
        for (Path f : chunks) {
            Path g = to.resolve(from.relativize(f).toString());
            assertTrue(Files.isRegularFile(g), g + " is missing");
            assertArrayEquals(Files.readAllBytes(f), Files.readAllBytes(g), from.relativize(f).toString());
        }
    }

    /** Runs a Python program with zarr-python 2 and returns what it printed. */
    private static String python(String program, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(ExternalTools.PYTHON, "-c", program));
        command.addAll(List.of(args));
        ExternalTools.Result r = ExternalTools.run(command);
        assertEquals(0, r.exit(), "python failed: " + r.err());
        return r.out();
    }
}
