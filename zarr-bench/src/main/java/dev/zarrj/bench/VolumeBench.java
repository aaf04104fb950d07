package dev.zarrj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ShortBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The workloads too big to hold in memory, each run in a child JVM of its own with a bounded heap
 * (see {@link ChildMain}): uint16 volumes written and read region by region, chunk by chunk by
 * eight concurrent readers, and a volume streamed through a small heap.
 *
 * <p>Values are {@link #value}: a smooth function of the indices plus two bits of noise, so that
 * they compress as measured data does (not trivially), and every region read is checked at
 * sampled positions.
 */
final class VolumeBench {
    static final String ROUND_TRIP = "round-trip";
    static final String READ_ALL = "read-all";
    static final String READ_CHUNKS = "read-chunks-8";
    static final String STREAM_WRITE = "stream-write";
    static final String STREAM_READ = "stream-read";
    static final int CONCURRENT_READERS = 8;
    /** zstd level of the uint16 and streamed arrays: 1, the level of the float32 chains. */
    static final int ZSTD_LEVEL = 1;

    private VolumeBench() {}

    /**
     * One array: its workload name (also its path under the work directory), chain
     * ({@code bytes}, {@code zstd} or {@code sharding-zstd}), shape, chunk (or shard) shape, inner
     * chunk shape (sharded only, else null) and the region one call writes or reads.
     */
    record Spec(String name, String chain, long[] shape, long[] chunks, long[] inner, long[] slab) {
        long byteSize() {
            return 2 * count(shape);
        }

        /** What {@code read-chunks-8} reads one at a time: the chunks, or the inner chunks when sharded. */
        long[] readUnit() {
            return inner != null ? inner : chunks;
        }

        ObjectNode toJson() {
            ObjectNode n = JsonNodeFactory.instance.objectNode().put("name", name).put("chain", chain);
            put(n, "shape", shape);
            put(n, "chunks", chunks);
            if (inner != null) {
                put(n, "inner", inner);
            }
            put(n, "slab", slab);
            return n;
        }

        static Spec fromJson(JsonNode n) {
            return new Spec(n.get("name").asText(), n.get("chain").asText(), longs(n.get("shape")), longs(n.get("chunks")),
                    n.has("inner") ? longs(n.get("inner")) : null, longs(n.get("slab")));
        }

        private static void put(ObjectNode n, String field, long[] values) {
            ArrayNode a = n.putArray(field);
            for (long v : values) {
                a.add(v);
            }
        }

        private static long[] longs(JsonNode a) {
            long[] out = new long[a.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = a.get(i).asLong();
            }
            return out;
        }
    }

    /** The three arrays of the zarrs/zarr_benchmarks suite's shapes. */
    static List<Spec> uint16(Scale s) {
        return List.of(
                new Spec("uint16/chunks-256", "bytes", s.uint16Shape(), s.uint16Chunks(), null, s.uint16Slab()),
                new Spec("uint16/zstd", "zstd", s.uint16Shape(), s.uint16Chunks(), null, s.uint16Slab()),
                new Spec("uint16/sharding-zstd", "sharding-zstd", s.uint16Shape(), s.uint16Chunks(), s.uint16Inner(),
                        s.uint16Slab()));
    }

    /** The array streamed through {@code -Xmx256m}. */
    static Spec stream(Scale s) {
        return new Spec("stream/uint16-zstd", "zstd", s.streamShape(), s.streamChunks(), null, s.streamSlab());
    }

    /**
     * The child's heap for one operation: 256 MiB, except that eight concurrent readers of whole
     * chunks need room for eight chunks being read and decoded (3 x 8 x the chunk, plus 128 MiB,
     * at least 320 MiB).
     */
    static int heapMib(Spec spec, String op) {
        if (op.equals(READ_CHUNKS)) {
            long unitMib = (2 * count(spec.readUnit()) + (1 << 20) - 1) >> 20;
            return (int) Math.max(320, 3 * CONCURRENT_READERS * unitMib + 128);
        }
        return 256;
    }

    /** The zarrj codecs (beyond the core's) an array's chain needs. */
    static List<String> codecs(Spec spec) {
        return switch (spec.chain()) {
            case "bytes" -> List.of();
            case "zstd" -> List.of("zstd");
            case "sharding-zstd" -> List.of("sharding_indexed", "zstd");
            default -> throw new IllegalArgumentException("unknown chain " + spec.chain());
        };
    }

    private static String chainJson(Spec spec) {
        String bytes = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
        String zstd = "{\"name\":\"zstd\",\"configuration\":{\"level\":" + ZSTD_LEVEL + ",\"checksum\":false}}";
        return switch (spec.chain()) {
            case "bytes" -> "[" + bytes + "]";
            case "zstd" -> "[" + bytes + "," + zstd + "]";
            case "sharding-zstd" -> "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":"
                    + Arrays.toString(spec.inner()).replace(" ", "") + ",\"codecs\":[" + bytes + "," + zstd + "],"
                    + "\"index_codecs\":[" + bytes + ",{\"name\":\"crc32c\"}],\"index_location\":\"end\"}}]";
            default -> throw new IllegalArgumentException("unknown chain " + spec.chain());
        };
    }

    /** Runs one operation on the array at {@code DIR/<name>} and returns its row (without the JVM's memory figures). */
    static Row run(Spec spec, String op, Path dir, int threads) throws Exception {
        try (Zarr zarr = Zarr.builder().threads(threads).build()) {
            CountingStore store = new CountingStore(zarr.openStore(dir.toString()));
            String path = "/" + spec.name();
            Row row = new Row(spec.name(), op);
            row.threads = threads;
            switch (op) {
                case ROUND_TRIP -> {
                    ZarrArray a = create(zarr, store, spec);
                    double seconds = writeAll(a, spec) + readAll(a, spec);
                    row.timed(seconds, 2 * spec.byteSize());
                }
                case STREAM_WRITE -> row.timed(writeAll(create(zarr, store, spec), spec), spec.byteSize());
                case READ_ALL, STREAM_READ -> row.timed(readAll(zarr.openArray(store, path), spec), spec.byteSize());
                case READ_CHUNKS -> row.timed(readUnits(zarr.openArray(store, path), spec), spec.byteSize());
                default -> throw new IllegalArgumentException("unknown operation " + op);
            }
            row.storeRequests = store.takeCount();
            return row;
        }
    }

    private static ZarrArray create(Zarr zarr, CountingStore store, Spec spec) {
        ZarrArray a = zarr.array(DataTypes.UINT16, spec.shape()).chunks(spec.chunks()).codecs(chainJson(spec))
                .overwrite(true).create(store, "/" + spec.name());
        store.takeCount();
        return a;
    }

    /** Seconds spent in the write calls (not in making the values), region by region. */
    private static double writeAll(ZarrArray a, Spec spec) throws Exception {
        double seconds = 0;
        NdArray slab = NdArray.allocate(DataTypes.UINT16, spec.slab());
        for (long[] origin : regions(spec.shape(), spec.slab())) {
            NdArray part = slabAt(spec, origin, slab);
            fill(part, origin);
            seconds += Timing.time(() -> a.write(origin, part));
        }
        return seconds;
    }

    /** Seconds spent in the read calls (not in checking), region by region into one reused buffer. */
    private static double readAll(ZarrArray a, Spec spec) throws Exception {
        double seconds = 0;
        NdArray slab = NdArray.allocate(DataTypes.UINT16, spec.slab());
        for (long[] origin : regions(spec.shape(), spec.slab())) {
            NdArray part = slabAt(spec, origin, slab);
            seconds += Timing.time(() -> a.readInto(origin, part));
            check(part, origin, spec.name());
        }
        return seconds;
    }

    /** Wall seconds for eight threads to read every read unit once, each into its own reused buffer. */
    private static double readUnits(ZarrArray a, Spec spec) throws Exception {
        List<long[]> units = regions(spec.shape(), spec.readUnit());
        AtomicLong next = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] readers = new Thread[CONCURRENT_READERS];
        long start = System.nanoTime();
        for (int t = 0; t < readers.length; t++) {
            readers[t] = new Thread(() -> {
                NdArray buffer = NdArray.allocate(DataTypes.UINT16, spec.readUnit());
                try {
                    for (long i = next.getAndIncrement(); i < units.size() && failure.get() == null; i = next.getAndIncrement()) {
                        long[] origin = units.get((int) i);
                        long[] shape = clip(spec.shape(), origin, spec.readUnit());
                        NdArray part = Arrays.equals(shape, spec.readUnit()) ? buffer : NdArray.allocate(DataTypes.UINT16, shape);
                        a.readInto(origin, part);
                        check(part, origin, spec.name());
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "bench-reader-" + t);
            readers[t].start();
        }
        for (Thread t : readers) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (failure.get() instanceof Exception e) {
            throw e;
        } else if (failure.get() instanceof Error e) {
            throw e;
        }
        return seconds;
    }

    // ---- regions ----

    static long count(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** The origins of a regular grid of {@code step}s over {@code shape}, C order. */
    static List<long[]> regions(long[] shape, long[] step) {
        List<long[]> out = new ArrayList<>();
        for (long z = 0; z < shape[0]; z += step[0]) {
            for (long y = 0; y < shape[1]; y += step[1]) {
                for (long x = 0; x < shape[2]; x += step[2]) {
                    out.add(new long[] {z, y, x});
                }
            }
        }
        return out;
    }

    /** The reused slab when the region at {@code origin} is a whole slab, else a buffer of the clipped region. */
    private static NdArray slabAt(Spec spec, long[] origin, NdArray slab) {
        long[] clipped = clip(spec.shape(), origin, spec.slab());
        return Arrays.equals(clipped, spec.slab()) ? slab : NdArray.allocate(DataTypes.UINT16, clipped);
    }

    private static long[] clip(long[] shape, long[] origin, long[] step) {
        long[] s = new long[3];
        for (int d = 0; d < 3; d++) {
            s[d] = Math.min(step[d], shape[d] - origin[d]);
        }
        return s;
    }

    // ---- values ----

    /** The value at (z, y, x): a smooth field of the indices plus two bits of noise, wrapped to 16 bits. */
    static int value(long z, long y, long x) {
        return (base(z, y) + (int) (x >> 2) + noise(z, y, x)) & 0xffff;
    }

    private static int base(long z, long y) {
        return (int) Math.round(2000 + 1500 * Math.sin(z * 0.02) * Math.cos(y * 0.015));
    }

    private static int noise(long z, long y, long x) {
        int h = (int) (x * 0x9E3779B1L + y * 0x85EBCA6BL + z * 0xC2B2AE35L);
        h ^= h >>> 16;
        h *= 0x7FEB352D;
        h ^= h >>> 15;
        return h >>> 30;
    }

    private static void fill(NdArray part, long[] origin) {
        ShortBuffer s = part.bytes().asShortBuffer();
        long[] shape = part.shape();
        int i = 0;
        for (long z = 0; z < shape[0]; z++) {
            for (long y = 0; y < shape[1]; y++) {
                long gz = origin[0] + z;
                long gy = origin[1] + y;
                int base = base(gz, gy);
                for (long x = 0; x < shape[2]; x++) {
                    long gx = origin[2] + x;
                    s.put(i++, (short) ((base + (int) (gx >> 2) + noise(gz, gy, gx)) & 0xffff));
                }
            }
        }
    }

    /** Checks the first and last elements and 64 more at pseudo-random places. */
    private static void check(NdArray part, long[] origin, String name) {
        ShortBuffer s = part.bytes().asShortBuffer();
        long[] shape = part.shape();
        long n = count(shape);
        long seed = origin[0] * 31 + origin[1] * 17 + origin[2] + 1;
        for (int k = 0; k < 66; k++) {
            long i = k == 0 ? 0 : k == 1 ? n - 1 : Math.floorMod(seed = seed * 6364136223846793005L + 1442695040888963407L, n);
            long z = i / (shape[1] * shape[2]);
            long y = (i / shape[2]) % shape[1];
            long x = i % shape[2];
            int got = s.get((int) i) & 0xffff;
            int want = value(origin[0] + z, origin[1] + y, origin[2] + x);
            if (got != want) {
                throw new BenchFailure(name + ": element [" + (origin[0] + z) + ", " + (origin[1] + y) + ", "
                        + (origin[2] + x) + "] read back as " + got + ", written as " + want);
            }
        }
    }
}
