package dev.zarrj.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tensorstore as a second, independent reader and writer: it reads arrays zarrj wrote with
 * several codec chains (bytes in both byte orders, gzip, zstd, blosc, sharding with a crc32c
 * index, crc32c, transpose) element for element, and zarrj reads the arrays tensorstore writes
 * with the same metadata ({@code bench/tensorstore/interop.py}). Skipped without a Python that has
 * tensorstore ({@code bench/tensorstore/setup.sh} makes one; CI does).
 */
class TensorstoreInteropTest {
    @TempDir
    Path tmp;

    private static final long[] SHAPE = {20, 30, 41};
    private static final long[] CHUNKS = {8, 16, 16};
    private static final String BYTES = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";

    /** An array of the test: its name, data type, codec chain (JSON) and the zarrj codecs it needs. */
    record Case(String name, DataType type, String codecs, List<String> needs) {}

    private static List<Case> cases() {
        String zstd = "{\"name\":\"zstd\",\"configuration\":{\"level\":3,\"checksum\":true}}";
        return List.of(
                new Case("bytes", DataTypes.FLOAT32, "[" + BYTES + "]", List.of()),
                new Case("bytes-big", DataTypes.INT32, "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]",
                        List.of()),
                new Case("gzip", DataTypes.FLOAT32, "[" + BYTES + ",{\"name\":\"gzip\",\"configuration\":{\"level\":5}}]",
                        List.of("gzip")),
                new Case("zstd", DataTypes.INT32, "[" + BYTES + "," + zstd + "]", List.of("zstd")),
                new Case("blosc", DataTypes.FLOAT32, "[" + BYTES + ",{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\","
                        + "\"clevel\":5,\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}}]", List.of("blosc")),
                new Case("sharding", DataTypes.FLOAT32, "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,8,8],"
                        + "\"codecs\":[" + BYTES + "," + zstd + "],\"index_codecs\":[" + BYTES + ",{\"name\":\"crc32c\"}],"
                        + "\"index_location\":\"end\"}}]", List.of("sharding_indexed", "zstd")),
                new Case("crc32c", DataTypes.UINT16, "[" + BYTES + ",{\"name\":\"crc32c\"}]", List.of()),
                new Case("transpose", DataTypes.INT32, "[{\"name\":\"transpose\",\"configuration\":{\"order\":[2,0,1]}},"
                        + BYTES + "," + zstd + "]", List.of("zstd")));
    }

    @Test
    void tensorstoreAndZarrjReadEachOthersArraysElementForElement() throws Exception {
        Optional<String> python = TensorstorePeerTest.realPython();
        assumeTrue(python.isPresent(), "no Python with tensorstore: bench/tensorstore/.venv is absent and "
                + TensorstorePeer.PYTHON_ENV + " is not set (make it with bench/tensorstore/setup.sh)");
        Path script = TensorstorePeer.script().orElseThrow().resolveSibling("interop.py");
        Zarr zarr = Zarr.defaults();
        Set<String> installed = zarr.registry().names(ExtensionPoint.CODEC);
        List<Case> cases = new ArrayList<>();
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        ArrayNode arrays = spec.putArray("arrays");
        try (Store store = zarr.openStore(tmp.resolve("zarrj").toString())) {
            for (Case c : cases()) {
                if (!installed.containsAll(c.needs())) {
                    continue;
                }
                try (ZarrArray a = zarr.array(c.type(), SHAPE).chunks(CHUNKS).codecs(c.codecs()).create(store, "/" + c.name())) {
                    a.write(values(c.type()));
                }
                cases.add(c);
                arrays.addObject().put("path", tmp.resolve("zarrj").resolve(c.name()).toString())
                        .put("raw_out", tmp.resolve(c.name() + ".raw").toString())
                        .put("write_to", tmp.resolve("tensorstore").resolve(c.name()).toString());
            }
        }
        assertTrue(cases.size() >= 6, "cases run: " + cases);

        Process p = new ProcessBuilder(python.get(), script.toString(), spec.toString()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "interop.py did not finish");
        assertEquals(0, p.exitValue(), out);
        JsonNode result = new ObjectMapper().readTree(out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no result: " + out)));
        assertEquals(cases.size(), result.get("arrays").asInt(), out);

        try (Store theirs = zarr.openStore(tmp.resolve("tensorstore").toString())) {
            for (Case c : cases) {
                NdArray want = values(c.type());
                assertArrayEquals(littleEndian(want), Files.readAllBytes(tmp.resolve(c.name() + ".raw")),
                        c.name() + ": tensorstore read other elements than zarrj wrote");
                try (ZarrArray a = zarr.openArray(theirs, "/" + c.name())) {
                    assertTrue(a.read().contentEquals(want), c.name() + ": zarrj read other elements from tensorstore's array");
                }
            }
        }
    }

    /** Distinct values in every element (negative too for the signed types), fill value 0 nowhere but at the origin. */
    private static NdArray values(DataType type) {
        NdArray a = NdArray.allocate(type, SHAPE);
        long n = SHAPE[0] * SHAPE[1] * SHAPE[2];
        for (long i = 0; i < n; i++) {
            if (type == DataTypes.FLOAT32) {
                a.setDouble(i, (float) (Math.sin(i * 0.01) * 1000 + i * 0.25));
            } else if (type == DataTypes.UINT16) {
                a.setLong(i, (i * 37) % 65536);
            } else {
                a.setLong(i, i % 2 == 0 ? i * 1001 : -i * 77);
            }
        }
        return a;
    }

    private static byte[] littleEndian(NdArray a) {
        int size = a.dataType().size();
        long n = a.byteSize() / size;
        ByteBuffer b = ByteBuffer.allocate((int) a.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; i < n; i++) {
            if (a.dataType() == DataTypes.FLOAT32) {
                b.putFloat((float) a.getDouble(i));
            } else if (size == 2) {
                b.putShort((short) a.getLong(i));
            } else {
                b.putInt((int) a.getLong(i));
            }
        }
        return b.array();
    }
}
