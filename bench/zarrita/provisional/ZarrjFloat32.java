import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * PROVISIONAL stand-in for {@code bin/zarr bench --dir DIR --json}, until that command is on this
 * branch: writes the float32 arrays of the benchmark layout into {@code DIR/float32/<chain>}, times
 * zarrj on the float32 workloads, and prints a JSON document in the same shape (a subset of its
 * fields). Delete it once {@code bin/zarr bench} exists; {@code run.sh} never uses it.
 *
 * <p>Run through {@code provisional/run.sh}, which builds the modules and sets the module path.
 */
public final class ZarrjFloat32 {
    private static final int WHOLE_RUNS = 3;
    private static final int LATENCY_RUNS = 20;

    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    private static final String ZSTD1 = "{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":false}}";

    /** The chains: name, codecs, chunk (or shard) shape. */
    record Chain(String name, String codecs, long[] chunks, long[] inner) {}

    record Row(String name, String op, int threads, double seconds, long bytes) {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ZarrjFloat32 DIR [--quick]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        boolean quick = Arrays.asList(args).contains("--quick");
        long[] shape = quick ? new long[] {128, 256, 256} : new long[] {256, 512, 512};
        int cores = Runtime.getRuntime().availableProcessors();

        List<Chain> chains = List.of(
                new Chain("bytes", "[" + LE + "]", new long[] {64, 128, 128}, null),
                new Chain("gzip-1", "[" + LE + ",{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]", new long[] {64, 128, 128}, null),
                new Chain("zstd-1", "[" + LE + "," + ZSTD1 + "]", new long[] {64, 128, 128}, null),
                new Chain("blosc-zstd-5-shuffle", "[" + LE + ",{\"name\":\"blosc\",\"configuration\":{\"cname\":\"zstd\",\"clevel\":5,"
                        + "\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}}]", new long[] {64, 128, 128}, null),
                new Chain("sharding-zstd-1", "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[32,64,64],"
                        + "\"codecs\":[" + LE + "," + ZSTD1 + "],\"index_codecs\":[" + LE + ",{\"name\":\"crc32c\"}],"
                        + "\"index_location\":\"end\"}}]", new long[] {128, 256, 256}, new long[] {32, 64, 64}),
                new Chain("zstd-1-32x64x64", "[" + LE + "," + ZSTD1 + "]", new long[] {32, 64, 64}, null));

        NdArray data = field(shape);
        // The regions as zarr bench chooses them (see bench.mjs, "the regions of the latency ops").
        long[] regionShape = new long[3];
        long[] regionOffset = new long[3];
        long[] shardOrigin = new long[3];
        long[] innerOffset = new long[3];
        long[] shard = {128, 256, 256};
        long[] inner = {32, 64, 64};
        for (int d = 0; d < 3; d++) {
            regionShape[d] = Math.min(new long[] {64, 128, 128}[d], shape[d] / 2);
            long start = new long[] {100, 200, 300}[d];
            regionOffset[d] = start + regionShape[d] <= shape[d] ? start : (shape[d] - regionShape[d]) / 2;
            shardOrigin[d] = Math.min(1, (shape[d] + shard[d] - 1) / shard[d] - 1) * shard[d];
            innerOffset[d] = shardOrigin[d] + 2 * inner[d] <= shape[d] ? shardOrigin[d] + inner[d] : shardOrigin[d];
        }

        List<Row> rows = new ArrayList<>();
        int[] threadCounts = cores > 1 ? new int[] {1, cores} : new int[] {1};
        for (Chain c : chains) {
            for (int threads : threadCounts) {
                try (Zarr zarr = Zarr.builder().threads(threads).build()) {
                    Store store = zarr.openStore(dir.toString());
                    ZarrArray array = zarr.array(DataTypes.FLOAT32, shape).chunks(c.chunks()).codecs(c.codecs())
                            .fillValue(0).overwrite(true).create(store, "/float32/" + c.name());
                    String name = "float32/" + c.name();
                    rows.add(new Row(name, "write", threads, median(WHOLE_RUNS, () -> array.write(data)), data.byteSize()));
                    NdArray[] back = new NdArray[1];
                    rows.add(new Row(name, "read", threads, median(WHOLE_RUNS, () -> back[0] = array.read()), data.byteSize()));
                    if (!back[0].contentEquals(data)) {
                        throw new IllegalStateException(name + ": the array read back differs from the one written");
                    }
                    if (threads != threadCounts[threadCounts.length - 1]) {
                        continue;
                    }
                    rows.add(new Row(name, "read-region", threads,
                            median(LATENCY_RUNS, () -> array.read(regionOffset, regionShape)), 4 * count(regionShape)));
                    // Chunk (1,1,1), or the last chunk in a dimension with fewer chunks; for the
                    // 32x64x64 chain the chunk that holds the sharded read-inner-chunk's elements.
                    long[] origin = new long[3];
                    long[] clipped = new long[3];
                    long[] grid = array.chunkGridShape();
                    for (int d = 0; d < 3; d++) {
                        origin[d] = c.name().equals("zstd-1-32x64x64") ? innerOffset[d] : Math.min(1, grid[d] - 1) * c.chunks()[d];
                        clipped[d] = Math.min(c.chunks()[d], shape[d] - origin[d]);
                    }
                    rows.add(new Row(name, "read-chunk", threads, median(LATENCY_RUNS, () -> array.read(origin, clipped)),
                            4 * count(clipped)));
                    if (c.inner() != null) {
                        rows.add(new Row(name, "read-inner-chunk", threads,
                                median(LATENCY_RUNS, () -> array.read(innerOffset, inner)), 4 * count(inner)));
                    }
                }
            }
        }
        System.out.println(json(rows, cores));
    }

    private static long count(long[] shape) {
        return Arrays.stream(shape).reduce(1, (a, b) -> a * b);
    }

    interface Body {
        void run() throws Exception;
    }

    private static double median(int runs, Body body) throws Exception {
        body.run();
        double[] t = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            body.run();
            t[i] = (System.nanoTime() - start) / 1e9;
        }
        Arrays.sort(t);
        return t[runs / 2];
    }

    static NdArray field(long[] shape) {
        NdArray a = NdArray.allocate(DataTypes.FLOAT32, shape);
        FloatBuffer f = a.bytes().asFloatBuffer();
        int i = 0;
        for (long z = 0; z < shape[0]; z++) {
            for (long y = 0; y < shape[1]; y++) {
                for (long x = 0; x < shape[2]; x++) {
                    f.put(i++, (float) (Math.sin(z * 0.05) * Math.cos(y * 0.02) + x * 0.001));
                }
            }
        }
        return a;
    }

    private static String json(List<Row> rows, int cores) {
        Map<String, String> machine = new LinkedHashMap<>();
        machine.put("processors", String.valueOf(cores));
        machine.put("java", "\"" + System.getProperty("java.version") + "\"");
        machine.put("source", "\"provisional stand-in (bench/zarrita/provisional), not bin/zarr bench\"");
        String m = machine.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue()).collect(Collectors.joining(","));
        String w = rows.stream().map(r -> String.format(Locale.ROOT,
                "{\"name\":\"%s\",\"op\":\"%s\",\"threads\":%d,\"seconds\":%.6f,\"mb_per_s\":%.1f,\"bytes\":%d}",
                r.name(), r.op(), r.threads(), r.seconds(), r.bytes() / 1e6 / r.seconds(), r.bytes())).collect(Collectors.joining(",\n  "));
        return "{\"machine\":{" + m + "},\n \"workloads\":[\n  " + w + "],\n \"targets\":[]}";
    }
}
