package dev.zarrj.store.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arrays written with zarr-core to a directory, served by a loopback HTTP server and read back
 * through {@code http://} URIs, as a user opens remote data.
 */
class HttpEndToEndTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final int N = 64;

    @TempDir
    Path dir;

    private static int[] values() {
        int[] v = new int[N * N];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 7 - 1000;
        }
        return v;
    }

    private static NdArray expected(int[] all, int r0, int c0, int rows, int cols) {
        int[] out = new int[rows * cols];
        for (int r = 0; r < rows; r++) {
            System.arraycopy(all, (r0 + r) * N + c0, out, r * cols, cols);
        }
        return NdArray.copyOf(DataTypes.INT32, out, rows, cols);
    }

    private void write() {
        int[] all = values();
        try (ZarrGroup g = ZARR.createGroup(dir.toString(), "/")) {
            try (ZarrArray a = ZARR.array(DataTypes.INT32, N, N).chunks(16, 16).create(g, "plain")) {
                a.write(new long[] {0, 0}, new long[] {N, N}, all);
            }
            try (ZarrArray a = ZARR.array(DataTypes.INT32, N, N).chunks(8, 8).shards(32, 32).create(g, "sharded")) {
                a.write(new long[] {0, 0}, new long[] {N, N}, all);
            }
        }
    }

    @Test
    void readsRegionsOfPlainAndShardedArrays() {
        write();
        int[] all = values();
        try (TestServer server = TestServer.serving(dir)) {
            String location = server.uri("/data").toString();
            for (TestServer.Mode mode : List.of(TestServer.Mode.HONOURS_RANGE, TestServer.Mode.IGNORES_RANGE)) {
                server.mode(mode);
                for (String name : List.of("/plain", "/sharded")) {
                    try (ZarrArray a = ZARR.openArray(location, name, true)) {
                        assertTrue(a.read().contentEquals(expected(all, 0, 0, N, N)), mode + " " + name + " whole");
                        assertTrue(a.read(new long[] {5, 17}, new long[] {30, 41})
                                .contentEquals(expected(all, 5, 17, 30, 41)), mode + " " + name + " region");
                    }
                }
            }
        }
    }

    @Test
    void aPartialReadOfAShardFetchesItsIndexAndOneInnerChunk() {
        write();
        int[] all = values();
        try (TestServer server = TestServer.serving(dir);
             ZarrArray a = ZARR.openArray(server.uri("/data").toString(), "/sharded", true)) {
            server.clearRequests();
            assertTrue(a.read(new long[] {40, 8}, new long[] {8, 8}).contentEquals(expected(all, 40, 8, 8, 8)));
            List<String> shardRequests = server.requests().stream()
                    .filter(r -> r.contains("/sharded/c/")).collect(Collectors.toList());
            // The shard index (a suffix read), then the one inner chunk: never the whole shard.
            assertEquals(2, shardRequests.size(), server.requests().toString());
            assertTrue(shardRequests.get(0).matches("GET /data/sharded/c/1/0 bytes=-\\d+"), shardRequests.toString());
            assertTrue(shardRequests.get(1).matches("GET /data/sharded/c/1/0 bytes=\\d+-\\d+"), shardRequests.toString());
            assertEquals(2, server.requests().size(), server.requests().toString());
        }
    }

    @Test
    void groupsOpenByPathAndMissingNodesAreReported() {
        write();
        try (TestServer server = TestServer.serving(dir);
             ZarrGroup g = ZARR.openGroup(server.uri("/data").toString(), "/", true)) {
            try (ZarrArray a = g.openArray("plain")) {
                assertArrayEquals(new long[] {N, N}, a.shape());
            }
            ZarrException e = assertThrows(ZarrException.class, () -> g.openArray("nope"));
            assertTrue(e instanceof NodeNotFoundException, e.toString());
        }
    }

    @Test
    void aServerThatGarblesRangesFailsTheReadInsteadOfReturningWrongValues() {
        write();
        try (TestServer server = TestServer.serving(dir).mode(TestServer.Mode.WRONG_CONTENT_RANGE);
             ZarrArray a = ZARR.openArray(server.uri("/data").toString(), "/sharded", true)) {
            ZarrException e = assertThrows(ZarrException.class, () -> a.read(new long[] {40, 8}, new long[] {8, 8}));
            assertTrue(e.getMessage().contains("Content-Range") || (e.getCause() != null
                    && String.valueOf(e.getCause().getMessage()).contains("Content-Range")), e.toString());
        }
    }
}
