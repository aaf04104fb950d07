package dev.zarrj.examples;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Full-array write and read throughput of a float32 [256, 512, 512] array chunked [64, 128, 128]
 * on the file system store, with {@code bytes} only and with {@code gzip} level 1, next to the
 * ceiling measured in the same run on the same chunks with the same threads: raw file writes and
 * reads of the encoded bytes, and raw {@link Deflater}/{@link Inflater}.
 *
 * <p>Usage: {@code ZARRJ_MAIN=dev.zarrj.examples.Bench bin/zarr-demo [WORK_DIR] [--quick]}.
 * Prints a table and one JSON document. Each figure is the median of several runs after a warm-up.
 */
public final class Bench {
    private static final long[] SHAPE = {256, 512, 512};
    private static final long[] CHUNKS = {64, 128, 128};

    private Bench() {}

    record Result(String name, String op, double seconds, double mbPerS, Double ceiling) {}

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args.length > 0 && !args[0].startsWith("--") ? args[0] : "target/bench");
        boolean quick = Arrays.asList(args).contains("--quick");
        int runs = quick ? 2 : 3;
        int threads = Runtime.getRuntime().availableProcessors();
        Files.createDirectories(work);

        NdArray data = smoothField(quick ? new long[] {128, 512, 512} : SHAPE);
        long[] shape = data.shape();
        double mb = data.byteSize() / 1e6;
        List<NdArray> chunks = splitIntoChunks(data);

        List<Result> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Zarr zarr = Zarr.builder().threads(threads).build()) {
            Store store = zarr.openStore(work.resolve("bench.zarr").toString());

            // Ceilings: the same chunks, the same threads, without zarrj.
            double rawWrite = median(runs, () -> rawFileWrite(pool, chunks, work.resolve("raw")));
            double rawRead = median(runs, () -> rawFileRead(pool, work.resolve("raw")));
            double deflate = median(runs, () -> deflateAll(pool, chunks));
            List<byte[]> compressed = deflateToList(pool, chunks);
            double inflate = median(runs, () -> inflateAll(pool, compressed, chunks.get(0).byteSize()));

            for (String codec : List.of("bytes", "gzip-1")) {
                var builder = zarr.array(DataTypes.FLOAT32, shape).chunks(CHUNKS).overwrite(true);
                if (codec.equals("gzip-1")) {
                    builder.codec("gzip", Map.of("level", 1));
                }
                ZarrArray array = builder.create(store, "/" + codec);
                double write = median(runs, () -> array.write(data));
                NdArray[] back = new NdArray[1];
                double read = median(runs, () -> back[0] = array.read());
                if (!back[0].contentEquals(data)) {
                    throw new IllegalStateException(codec + ": data read back differs from data written");
                }
                boolean gz = codec.equals("gzip-1");
                results.add(new Result(codec, "write", write, mb / write, mb / (gz ? deflate : rawWrite)));
                results.add(new Result(codec, "read", read, mb / read, mb / (gz ? inflate : rawRead)));
            }
            results.add(new Result("raw file", "write", rawWrite, mb / rawWrite, null));
            results.add(new Result("raw file", "read", rawRead, mb / rawRead, null));
            results.add(new Result("raw Deflater level 1", "compress", deflate, mb / deflate, null));
            results.add(new Result("raw Inflater", "decompress", inflate, mb / inflate, null));
        } finally {
            pool.shutdown();
        }
        print(results, shape, threads, mb);
        deleteTree(work);
    }

    private static void print(List<Result> results, long[] shape, int threads, double mb) {
        System.out.printf(Locale.ROOT, "float32 %s chunks %s, %.0f MB, %d threads, %s, %s%n",
                Arrays.toString(shape), Arrays.toString(CHUNKS), mb, threads,
                System.getProperty("java.vm.name"), System.getProperty("java.version"));
        System.out.printf(Locale.ROOT, "%-22s %-10s %8s %9s %13s %8s%n", "workload", "op", "seconds", "MB/s", "ceiling MB/s", "ratio");
        StringBuilder json = new StringBuilder("{\"machine\":{\"processors\":" + threads + ",\"java\":\""
                + System.getProperty("java.version") + "\"},\"workloads\":[");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            String ratio = r.ceiling() == null ? "" : String.format(Locale.ROOT, "%.2f", r.mbPerS() / r.ceiling());
            System.out.printf(Locale.ROOT, "%-22s %-10s %8.3f %9.1f %13s %8s%n", r.name(), r.op(), r.seconds(), r.mbPerS(),
                    r.ceiling() == null ? "" : String.format(Locale.ROOT, "%.1f", r.ceiling()), ratio);
            json.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT,
                    "{\"name\":\"%s\",\"op\":\"%s\",\"seconds\":%.4f,\"mb_per_s\":%.1f", r.name(), r.op(), r.seconds(), r.mbPerS()));
            if (r.ceiling() != null) {
                json.append(String.format(Locale.ROOT, ",\"ceiling_mb_per_s\":%.1f,\"ratio_to_ceiling\":%.3f",
                        r.ceiling(), r.mbPerS() / r.ceiling()));
            }
            json.append('}');
        }
        System.out.println(json.append("]}"));
    }

    interface Body {
        void run() throws Exception;
    }

    private static double median(int runs, Body body) throws Exception {
        body.run(); // warm-up
        double[] t = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            body.run();
            t[i] = (System.nanoTime() - start) / 1e9;
        }
        Arrays.sort(t);
        return t[runs / 2];
    }

    /** A smooth function of the indices, so that it compresses the way real fields do. */
    static NdArray smoothField(long[] shape) {
        NdArray a = NdArray.allocate(DataTypes.FLOAT32, shape);
        ByteBuffer b = a.bytes();
        var f = b.asFloatBuffer();
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

    private static List<NdArray> splitIntoChunks(NdArray data) {
        long[] s = data.shape();
        List<NdArray> out = new ArrayList<>();
        for (long z = 0; z < s[0]; z += CHUNKS[0]) {
            for (long y = 0; y < s[1]; y += CHUNKS[1]) {
                for (long x = 0; x < s[2]; x += CHUNKS[2]) {
                    out.add(data.region(new long[] {z, y, x}, CHUNKS));
                }
            }
        }
        return out;
    }

    private static void all(ExecutorService pool, int n, java.util.function.IntConsumer task) throws Exception {
        List<Future<?>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            fs.add(pool.submit(() -> task.accept(k)));
        }
        for (Future<?> f : fs) {
            f.get();
        }
    }

    private static void rawFileWrite(ExecutorService pool, List<NdArray> chunks, Path dir) throws Exception {
        Files.createDirectories(dir);
        all(pool, chunks.size(), i -> {
            try {
                Path tmp = dir.resolve(i + ".tmp");
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    ByteBuffer b = chunks.get(i).bytes().order(ByteOrder.LITTLE_ENDIAN);
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                }
                Files.move(tmp, dir.resolve(String.valueOf(i)), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static void rawFileRead(ExecutorService pool, Path dir) throws Exception {
        int n;
        try (Stream<Path> s = Files.list(dir)) {
            n = (int) s.count();
        }
        all(pool, n, i -> {
            try {
                byte[] b = Files.readAllBytes(dir.resolve(String.valueOf(i)));
                if (b.length == 0) {
                    throw new IllegalStateException();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static void deflateAll(ExecutorService pool, List<NdArray> chunks) throws Exception {
        deflateToList(pool, chunks);
    }

    private static List<byte[]> deflateToList(ExecutorService pool, List<NdArray> chunks) throws Exception {
        byte[][] out = new byte[chunks.size()][];
        all(pool, chunks.size(), i -> {
            Deflater d = new Deflater(1, true);
            try {
                d.setInput(chunks.get(i).bytes());
                d.finish();
                byte[] buf = new byte[chunks.get(i).byteSize() / 2 + 1024];
                int len = 0;
                while (!d.finished()) {
                    if (len == buf.length) {
                        buf = Arrays.copyOf(buf, buf.length * 2);
                    }
                    len += d.deflate(buf, len, buf.length - len);
                }
                out[i] = Arrays.copyOf(buf, len);
            } finally {
                d.end();
            }
        });
        return Arrays.asList(out);
    }

    private static void inflateAll(ExecutorService pool, List<byte[]> compressed, int size) throws Exception {
        all(pool, compressed.size(), i -> {
            Inflater inf = new Inflater(true);
            try {
                inf.setInput(compressed.get(i));
                byte[] out = new byte[size];
                int n = 0;
                while (n < size && !inf.finished()) {
                    n += inf.inflate(out, n, size - n);
                }
                if (n != size) {
                    throw new IllegalStateException("inflated " + n + " of " + size);
                }
            } catch (java.util.zip.DataFormatException e) {
                throw new IllegalStateException(e);
            } finally {
                inf.end();
            }
        });
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
        }
    }
}
