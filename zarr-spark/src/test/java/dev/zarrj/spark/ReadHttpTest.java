package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arrays served over HTTP (a loopback server over a directory, ranges honoured) read through
 * Spark with {@code http://} locations: the store cannot be listed, so every chunk the filters
 * keep is requested, and only those.
 */
class ReadHttpTest {
    private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

    @TempDir
    static Path dir;
    static HttpServer server;
    static final List<String> GETS = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws IOException {
        Zarr zarr = Zarr.defaults();
        int[] v = new int[20 * 20];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 3 - 7;
        }
        try (ZarrArray a = zarr.array(DataTypes.INT32, 20, 20).chunks(5, 5).create(dir.toString(), "/plain")) {
            a.write(new long[2], new long[] {20, 20}, v);
        }
        try (ZarrArray a = zarr.array(DataTypes.INT32, 20, 20).chunks(5, 5).shards(10, 10).create(dir.toString(), "/sharded")) {
            a.write(new long[2], new long[] {20, 20}, v);
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ReadHttpTest::handle);
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    private static void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String key = ex.getRequestURI().getPath().substring(1);
            Path p = dir.resolve(key).normalize();
            if (!p.startsWith(dir) || !Files.isRegularFile(p)) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            byte[] value = Files.readAllBytes(p);
            if (ex.getRequestMethod().equals("HEAD")) {
                ex.getResponseHeaders().set("Content-Length", Long.toString(value.length));
                ex.sendResponseHeaders(200, -1);
                return;
            }
            GETS.add(key);
            String range = ex.getRequestHeaders().getFirst("Range");
            int from = 0;
            int to = value.length;
            int status = 200;
            if (range != null) {
                Matcher m = RANGE.matcher(range);
                if (m.matches()) {
                    if (m.group(1).isEmpty()) {
                        from = Math.max(0, value.length - Integer.parseInt(m.group(2)));
                    } else {
                        from = Integer.parseInt(m.group(1));
                        to = m.group(2).isEmpty() ? value.length : Math.min(value.length, Integer.parseInt(m.group(2)) + 1);
                    }
                    status = 206;
                    ex.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + (to - 1) + "/" + value.length);
                }
            }
            ex.sendResponseHeaders(status, to - from);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(value, from, to - from);
            }
        }
    }

    private static String location() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    private static Set<String> chunkGets(String array) {
        Set<String> out = new TreeSet<>();
        GETS.forEach(k -> {
            if (k.startsWith(array + "/c/")) {
                out.add(k);
            }
        });
        return out;
    }

    @Test
    void anArrayOverHttpReadsWhole() {
        for (String array : List.of("plain", "sharded")) {
            Object[] read = Tables.byElement(Tables.read(location(), array), new long[] {20, 20});
            for (int i = 0; i < read.length; i++) {
                assertEquals(i * 3 - 7, read[i], array + " element " + i);
            }
        }
    }

    @Test
    void filtersRequestOnlyTheirChunks() {
        var t = Tables.read(location(), "plain");
        GETS.clear();
        Map<Long, Integer> row = new TreeMap<>();
        for (Row r : t.where("dim_0 = 12 AND dim_1 >= 15").collectAsList()) {
            row.put(r.getLong(1), r.getInt(2));
        }
        Map<Long, Integer> want = new TreeMap<>();
        for (long j = 15; j < 20; j++) {
            want.put(j, (int) (12 * 20 + j) * 3 - 7);
        }
        assertEquals(want, row);
        assertEquals(Set.of("plain/c/2/3"), chunkGets("plain"));
    }

    @Test
    void skipFillOverAStoreThatCannotBeListedStillOmitsFill() {
        try (ZarrArray a = Zarr.defaults().array(DataTypes.INT32, 20, 20).chunks(5, 5).fillValue(0)
                .create(dir.toString(), "/sparse")) {
            a.write(new long[] {7, 7}, new long[] {1, 1}, new int[] {42});
        }
        List<Row> rows = Tables.read(location(), "sparse", "skipFill", "true").collectAsList();
        assertEquals(1, rows.size());
        assertEquals(List.of(7L, 7L, 42), List.of(rows.get(0).get(0), rows.get(0).get(1), rows.get(0).get(2)));
    }
}
