package dev.zarrj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.store.Store;
import dev.zarrj.bench.raw.RawCodec;
import dev.zarrj.bench.remote.LatencyRelay;
import dev.zarrj.bench.remote.S3ProxyServer;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The remote workloads ({@code zarr bench --remote}): s3proxy on loopback behind a
 * {@link LatencyRelay} that adds L = 0, 20 and 50 ms to every request. The float32 {@code zstd-1}
 * and {@code sharding-zstd-1} arrays (Float32Bench's chains, at a smaller shape), and
 * {@code zstd-1} in 256 KiB chunks ({@link #SMALL_CHUNKS}), written whole,
 * read whole, and read as 64 random single (inner) chunks by 8 concurrent readers; a hierarchy of
 * 100 arrays opened as {@code zarr info} opens it; the whole read at L = 20 again with
 * {@code ioConcurrency = threads} (the behaviour before asynchronous fetching), and by zarrita
 * through the same relay when bench/zarrita is installed; with {@code --remote-big}, the whole
 * read of a 2 GiB array at L = 50 in a child JVM with a small heap. Each row carries the relay's
 * HTTP request count and peak requests in flight.
 */
final class RemoteBench {
    static final String PREFIX = "remote/";
    static final List<Integer> LATENCIES = List.of(0, 20, 50);
    /** The latency of the ioConcurrency baseline and of the zarrita comparison. */
    static final int COMPARE_LATENCY = 20;
    static final int BIG_LATENCY = 50;
    static final String HIERARCHY = PREFIX + "hierarchy-100";
    static final String ZARRITA = PREFIX + "zarrita/";
    static final String BIG = PREFIX + "big-zstd-1";
    static final String READ_RANDOM = "read-random-chunks";
    /** The whole read with {@code ioConcurrency = threads}: zarrj before asynchronous fetching. */
    static final String READ_IO_THREADS = "read-io-threads";
    static final String OPEN_HIERARCHY = "open-hierarchy";
    static final int RANDOM_READS = 64;
    static final int RANDOM_READERS = 8;
    static final int BIG_HEAP_MIB = 256;
    private static final String BUCKET = "zarrj-bench";
    private static final String CHAINS_PREFIX = "float32";
    /**
     * {@code zstd-1} with chunks of 256 KiB instead of 4 MiB: many more requests for the same
     * bytes, so that latency, not decoding, dominates, and the gain of requests in flight over
     * one per thread shows undiluted.
     */
    static final Float32Bench.Chain SMALL_CHUNKS = new Float32Bench.Chain("zstd-1-256k", List.of("zstd"),
            b -> b.chunks(16, 64, 64).codec("zstd", Map.of("level", 1, "checksum", false)), () -> RawCodec.zstd(1));
    private static final long[] SMALL_CHUNK_SHAPE = {16, 64, 64};
    private static final List<String> CHAINS = List.of("zstd-1", "sharding-zstd-1", SMALL_CHUNKS.name());

    private final Scale scale;
    private final int threads;
    private final Path dir;
    private final Log log;
    private final Predicate<String> selected;
    private final boolean big;
    /** zarrj's ioConcurrency for the remote store (--io-concurrency), or null: zarrj's own choice. */
    private final Integer ioConcurrency;
    final List<Failure> failures = new ArrayList<>();

    RemoteBench(Workbench bench, boolean big, Integer ioConcurrency) {
        this.ioConcurrency = ioConcurrency;
        this.scale = bench.scale();
        this.threads = bench.threads();
        this.dir = bench.dir();
        this.log = bench.log();
        this.selected = bench.selected();
        this.big = big;
    }

    /** The float32 arrays' shape: smaller than Float32Bench's, so that nine latencies × ops stay within minutes. */
    static long[] shape(Scale scale) {
        return switch (scale.name()) {
            case "full" -> new long[] {128, 512, 512};
            case "quick" -> new long[] {64, 256, 512};
            default -> new long[] {32, 128, 256};
        };
    }

    /** The big array of the bounded-memory target: 2 GiB of float32 at full and quick sizes. */
    static long[] bigShape(Scale scale) {
        return scale.name().equals("tiny") ? new long[] {64, 256, 256} : new long[] {512, 1024, 1024};
    }

    /** The region one call reads of the big array: eight chunks, 32 MiB. */
    static long[] bigSlab(long[] shape) {
        return new long[] {64, 128, Math.min(1024, shape[2])};
    }

    private int runs() {
        return scale.name().equals("full") ? 3 : 1;
    }

    private static int hierarchySize(Scale scale) {
        return scale.name().equals("tiny") ? 10 : 100;
    }

    /** Whether any remote workload is selected by {@code --only}. */
    static boolean anySelected(Predicate<String> selected) {
        for (String c : CHAINS) {
            if (selected.test(PREFIX + c) || selected.test(ZARRITA + c)) {
                return true;
            }
        }
        return selected.test(HIERARCHY) || selected.test(BIG);
    }

    List<Row> run() throws Exception {
        List<Row> rows = new ArrayList<>();
        List<Float32Bench.Chain> chains = new ArrayList<>();
        List<Float32Bench.Chain> candidates = new ArrayList<>(Float32Bench.chains());
        candidates.add(SMALL_CHUNKS);
        for (Float32Bench.Chain c : candidates) {
            if (CHAINS.contains(c.name()) && (selected.test(PREFIX + c.name()) || selected.test(ZARRITA + c.name()))) {
                chains.add(c);
            }
        }
        boolean hierarchy = selected.test(HIERARCHY);
        boolean bigSelected = big && selected.test(BIG);
        if (chains.isEmpty() && !hierarchy && !bigSelected) {
            return rows;
        }
        StringBuilder why = new StringBuilder();
        Optional<Path> jar = S3ProxyServer.jar(why);
        if (jar.isEmpty()) {
            log.line("remote: skipped: %s", why);
            return rows;
        }
        Path serverDir = Files.createDirectories(dir.resolve("s3proxy"));
        log.line("remote: starting s3proxy (%s)", jar.get().getFileName());
        S3ProxyServer started;
        try {
            started = S3ProxyServer.start(jar.get(), serverDir);
        } catch (IOException e) {
            Files2.deleteTree(serverDir);
            throw new BenchFailure("remote: " + e.getMessage());
        }
        try (S3ProxyServer server = started; LatencyRelay relay = new LatencyRelay(server.address(), 0)) {
            server.createBucket(BUCKET);
            String location = "s3://" + BUCKET + "/remote?endpoint=http://127.0.0.1:" + relay.port()
                    + "&path-style=true&anonymous=true&region=us-east-1";
            log.line("remote: s3proxy at %s, relay at 127.0.0.1:%d; store %s", server.endpoint(), relay.port(), location);
            Zarr.Builder builder = Zarr.builder().threads(threads);
            if (ioConcurrency != null) {
                builder.ioConcurrency(ioConcurrency);
            }
            try (Zarr zarr = builder.build();
                 Zarr baseline = Zarr.builder().threads(threads).ioConcurrency(threads).build();
                 Store store = zarr.openStore(location)) {
                if (!chains.isEmpty()) {
                    rows.addAll(chains(chains, zarr, baseline, store, relay));
                }
                if (hierarchy) {
                    rows.addAll(hierarchy(zarr, store, relay));
                }
                if (bigSelected) {
                    big(zarr, store, relay, location).ifPresent(rows::add);
                }
            }
        } finally {
            Files2.deleteTree(serverDir);
        }
        return rows;
    }

    // ---- the float32 arrays ----

    private List<Row> chains(List<Float32Bench.Chain> chains, Zarr zarr, Zarr baseline, Store store, LatencyRelay relay)
            throws Exception {
        List<Row> rows = new ArrayList<>();
        long[] shape = shape(scale);
        NdArray data = Float32Bench.smoothField(shape);
        log.line("remote: float32 %s, %.0f MB; %d thread(s); latencies %s ms", Arrays.toString(shape), data.byteSize() / 1e6,
                threads, LATENCIES);
        List<String> zarritaChains = new ArrayList<>();
        for (Float32Bench.Chain chain : chains) {
            String name = PREFIX + chain.name();
            String path = "/" + CHAINS_PREFIX + "/" + chain.name();
            relay.delayMillis(0);
            ZarrArray array = chain.configure().apply(zarr.array(DataTypes.FLOAT32, shape)).overwrite(true).create(store, path);
            ZarrArray slow = baseline.openArray(store, path);
            boolean zarrj = selected.test(name);
            // Written here (and read once if measured): the warm-up, at 0 ms, of the code paths timed below.
            array.write(data);
            if (zarrj) {
                if (!array.read().contentEquals(data)) {
                    throw new BenchFailure(name + ": read back other values than were written");
                }
                rows.addAll(interleaved(name, chain, relay, array, slow, data));
            }
            if (selected.test(ZARRITA + chain.name())) {
                zarritaChains.add(chain.name());
            }
        }
        if (!zarritaChains.isEmpty()) {
            rows.addAll(zarrita(zarritaChains, relay));
        }
        return rows;
    }

    private interface Op {
        void run() throws Exception;
    }

    /** One operation at one latency: its timed runs, the requests of the last and the most in flight of any. */
    private final class Series {
        final Row row;
        final List<Double> seconds = new ArrayList<>();
        final Op body;
        int peak;

        Series(String name, String op, int latency, Integer io, long bytes, Op body) {
            this.row = new Row(name, op);
            row.threads = threads;
            row.latencyMs = latency;
            row.ioConcurrency = io;
            row.bytes = bytes;
            this.body = body;
        }

        void run(LatencyRelay relay) throws Exception {
            relay.delayMillis(row.latencyMs);
            relay.takeCounts();
            seconds.add(Timing.time(body::run));
            LatencyRelay.Counts counts = relay.takeCounts();
            row.httpRequests = counts.requests();
            peak = Math.max(peak, counts.peakInFlight());
        }

        Row finish() {
            row.timed(Timing.median(seconds.stream().mapToDouble(Double::doubleValue).toArray()), row.bytes);
            row.peakInFlight = peak;
            report(row);
            return row;
        }
    }

    /**
     * Write, read and random reads at every latency (and the ioConcurrency = threads read at
     * 20 ms), run after run: each run goes through all latencies, so that a change in what else
     * the machine runs affects every latency alike and their ratios stay fair.
     */
    private List<Row> interleaved(String name, Float32Bench.Chain chain, LatencyRelay relay, ZarrArray array,
                                  ZarrArray slow, NdArray data) throws Exception {
        NdArray[] back = new NdArray[1];
        ExecutorService readers = Executors.newFixedThreadPool(RANDOM_READERS);
        try {
            Op random = randomReads(name, chain, array, data, readers);
            long randomBytes = randomBytes(chain, array);
            List<Series> all = new ArrayList<>();
            for (int latency : LATENCIES) {
                all.add(new Series(name, "write", latency, ioConcurrency, data.byteSize(), () -> array.write(data)));
                all.add(new Series(name, "read", latency, ioConcurrency, data.byteSize(), () -> back[0] = array.read()));
                Series r = new Series(name, READ_RANDOM, latency, ioConcurrency, randomBytes, random);
                r.row.threads = RANDOM_READERS;
                all.add(r);
                if (latency == COMPARE_LATENCY) {
                    all.add(new Series(name, READ_IO_THREADS, latency, threads, data.byteSize(), () -> back[0] = slow.read()));
                }
            }
            for (int run = 0; run < runs(); run++) {
                for (Series x : all) {
                    x.run(relay);
                    if (back[0] != null) {
                        if (!back[0].contentEquals(data)) {
                            throw new BenchFailure(name + " " + x.row.op + " at " + x.row.latencyMs
                                    + " ms: other values than were written");
                        }
                        back[0] = null;
                    }
                }
            }
            List<Row> rows = new ArrayList<>();
            for (Series x : all) {
                rows.add(x.finish());
            }
            return rows;
        } finally {
            readers.shutdown();
        }
    }

    private Row timed(String name, String op, int latency, Integer io, LatencyRelay relay, long bytes, Op body)
            throws Exception {
        Series x = new Series(name, op, latency, io, bytes, body);
        x.run(relay);
        return x.finish();
    }

    /** The 64 seeded random chunks (inner chunks when sharded) the random reads read. */
    private static List<long[]> randomOrigins(Float32Bench.Chain chain, long[] shape) {
        long[] unit = unit(chain);
        Random random = new Random(14);
        List<long[]> origins = new ArrayList<>();
        for (int i = 0; i < RANDOM_READS; i++) {
            long[] o = new long[3];
            for (int d = 0; d < 3; d++) {
                o[d] = random.nextInt((int) ((shape[d] + unit[d] - 1) / unit[d])) * unit[d];
            }
            origins.add(o);
        }
        return origins;
    }

    private static long[] unit(Float32Bench.Chain chain) {
        return chain.sharded() ? Float32Bench.INNER : chain == SMALL_CHUNKS ? SMALL_CHUNK_SHAPE : Float32Bench.CHUNKS;
    }

    private static long[] unitAt(long[] unit, long[] shape, long[] o) {
        long[] s = new long[3];
        for (int d = 0; d < 3; d++) {
            s[d] = Math.min(unit[d], shape[d] - o[d]);
        }
        return s;
    }

    private static long randomBytes(Float32Bench.Chain chain, ZarrArray array) {
        long bytes = 0;
        for (long[] o : randomOrigins(chain, array.shape())) {
            bytes += 4 * VolumeBench.count(unitAt(unit(chain), array.shape(), o));
        }
        return bytes;
    }

    /** 64 random single chunks (inner chunks when sharded), eight readers each taking the next; each checked. */
    private static Op randomReads(String name, Float32Bench.Chain chain, ZarrArray array, NdArray data,
                                  ExecutorService readers) {
        long[] shape = array.shape();
        List<long[]> origins = randomOrigins(chain, shape);
        return () -> {
            List<Future<?>> done = new ArrayList<>();
            for (long[] o : origins) {
                done.add(readers.submit(() -> {
                    long[] s = unitAt(unit(chain), shape, o);
                    NdArray got = array.read(o, s);
                    if (!got.contentEquals(data.region(Region.of(o, s)))) {
                        throw new BenchFailure(name + " " + READ_RANDOM + ": chunk at " + Arrays.toString(o)
                                + " read other values than were written");
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        };
    }

    // ---- zarrita ----

    /** zarrita's full reads at L = 20 ms through the same relay, when Node and bench/zarrita are here: one Node process per chain. */
    private List<Row> zarrita(List<String> chains, LatencyRelay relay) throws Exception {
        Optional<Path> script = zarritaScript();
        if (script.isEmpty()) {
            log.line("remote: zarrita skipped: bench/zarrita/remote.mjs with its node_modules not found "
                    + "(run from the repository after 'npm ci' in bench/zarrita, or set ZARRJ_ZARRITA_DIR)");
            return List.of();
        }
        relay.delayMillis(COMPARE_LATENCY);
        String base = "http://127.0.0.1:" + relay.port() + "/" + BUCKET + "/remote";
        List<Row> rows = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String chain : chains) {
            List<String> cmd = List.of("node", script.get().toString(), base, String.valueOf(runs()), chain);
            log.line("remote: zarrita: %s", String.join(" ", cmd));
            relay.takeCounts();
            Process p;
            try {
                p = new ProcessBuilder(cmd).directory(script.get().getParent().toFile())
                        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            } catch (IOException e) {
                log.line("remote: zarrita skipped: cannot start node: %s", e.getMessage());
                return rows;
            }
            p.getOutputStream().close();
            JsonNode result = null;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (line.startsWith("{")) {
                        result = json.readTree(line);
                    }
                }
            }
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
            }
            LatencyRelay.Counts counts = relay.takeCounts();
            if (result == null || result.has("error")) {
                failures.add(new Failure(ZARRITA + chain, "read", "zarrita: "
                        + (result == null ? "no result, exit status " + p.exitValue() : result.get("error").asText()), false));
                continue;
            }
            Row row = new Row(ZARRITA + chain, "read");
            row.latencyMs = COMPARE_LATENCY;
            row.timed(result.get("seconds").asDouble(), result.get("bytes").asLong());
            // The relay counted the opening, the warm-up and the timed runs: per read, the rest.
            row.httpRequests = counts.requests() / (runs() + 1L);
            row.peakInFlight = counts.peakInFlight();
            report(row);
            rows.add(row);
        }
        return rows;
    }

    /** remote.mjs in ZARRJ_ZARRITA_DIR, or in bench/zarrita above this module's jar or classes, with node_modules installed. */
    static Optional<Path> zarritaScript() {
        List<Path> candidates = new ArrayList<>();
        String env = System.getenv("ZARRJ_ZARRITA_DIR");
        if (env != null) {
            candidates.add(Path.of(env));
        }
        try {
            Path here = Path.of(RemoteBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = here; p != null; p = p.getParent()) {
                candidates.add(p.resolve("bench").resolve("zarrita"));
            }
        } catch (URISyntaxException | RuntimeException e) {
            // no code source: only the environment variable
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve("remote.mjs")) && Files.isDirectory(c.resolve("node_modules").resolve("zarrita"))) {
                return Optional.of(c.resolve("remote.mjs").toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    // ---- the hierarchy ----

    /** A group of 100 small arrays, opened as {@code zarr info} opens it: the group, then each child. */
    private List<Row> hierarchy(Zarr zarr, Store store, LatencyRelay relay) throws Exception {
        int n = hierarchySize(scale);
        relay.delayMillis(0);
        ZarrGroup root = zarr.createGroup(store, "/hierarchy");
        for (int i = 0; i < n; i++) {
            try (ZarrArray a = zarr.array(DataTypes.INT32, 16).chunks(16).create(store, String.format("/hierarchy/a%03d", i))) {
                a.write(new long[] {0}, new long[] {16}, new int[16]);
            }
        }
        log.line("remote: hierarchy of %d arrays (no consolidated metadata: zarrj does not write it yet)", n);
        List<Row> rows = new ArrayList<>();
        for (int latency : LATENCIES) {
            relay.delayMillis(latency);
            long[] bytes = new long[1];
            Row r = timed(HIERARCHY, OPEN_HIERARCHY, latency, null, relay, 1, () -> {
                ZarrNode node = zarr.open(store, "/hierarchy");
                long b = node.metadata().toString().length();
                int arrays = 0;
                for (ZarrNode child : ((ZarrGroup) node).children()) {
                    b += child.metadata().toString().length();
                    arrays++;
                }
                if (arrays != n) {
                    throw new BenchFailure(HIERARCHY + ": opened " + arrays + " children, expected " + n);
                }
                bytes[0] = b;
            });
            r.timed(r.seconds, bytes[0]);
            rows.add(r);
        }
        root.close();
        return rows;
    }

    // ---- the big array ----

    /**
     * Writes the 2 GiB array slab by slab at L = 0 (not a row: the target is the read), then reads
     * it whole at L = 50 ms in a child JVM with {@code -Xmx256m}, slab by slab into one reused buffer.
     */
    private Optional<Row> big(Zarr zarr, Store store, LatencyRelay relay, String location) throws Exception {
        long[] shape = bigShape(scale);
        long[] slab = bigSlab(shape);
        relay.delayMillis(0);
        log.line("remote: big array %s (%s), written slab by slab at 0 ms", Arrays.toString(shape),
                Targets.size(4 * VolumeBench.count(shape)));
        try (ZarrArray a = zarr.array(DataTypes.FLOAT32, shape).chunks(Float32Bench.CHUNKS)
                .codec("zstd", java.util.Map.of("level", 1, "checksum", false)).overwrite(true).create(store, "/big")) {
            long[] thick = {slab[0], shape[1], shape[2]};
            for (long z = 0; z < shape[0]; z += thick[0]) {
                long[] o = {z, 0, 0};
                a.write(o, field(o, thick));
            }
        }
        ChildJvm.Result<List<String>> launcher = ChildJvm.launcher();
        if (launcher.problem() != null) {
            log.line("remote: %s skipped: %s", BIG, launcher.problem());
            return Optional.empty();
        }
        relay.delayMillis(BIG_LATENCY);
        relay.takeCounts();
        ChildJvm.Outcome out = ChildJvm.run(launcher.value(), List.of(ChildMain.REMOTE_READ, location,
                longs(shape), longs(slab), String.valueOf(threads), String.valueOf(ioConcurrency == null ? 0 : ioConcurrency)),
                BIG_HEAP_MIB, log);
        LatencyRelay.Counts counts = relay.takeCounts();
        if (out.row() == null) {
            failures.add(new Failure(BIG, "read", out.error(), out.oom()));
            return Optional.empty();
        }
        Row r = out.row();
        r.latencyMs = BIG_LATENCY;
        r.ioConcurrency = ioConcurrency;
        r.httpRequests = counts.requests();
        r.peakInFlight = counts.peakInFlight();
        report(r);
        return Optional.of(r);
    }

    private static String longs(long[] a) {
        StringBuilder s = new StringBuilder();
        for (long v : a) {
            s.append(s.length() == 0 ? "" : ",").append(v);
        }
        return s.toString();
    }

    static long[] parseLongs(String s) {
        return Arrays.stream(s.split(",")).mapToLong(Long::parseLong).toArray();
    }

    /** The child's side: reads the array at {@code location} whole, slab by slab into one buffer, checking each slab. */
    static Row childRead(String location, long[] shape, long[] slab, int threads, int ioConcurrency) throws Exception {
        Zarr.Builder builder = Zarr.builder().threads(threads);
        if (ioConcurrency > 0) {
            builder.ioConcurrency(ioConcurrency);
        }
        try (Zarr zarr = builder.build(); ZarrArray a = zarr.openArray(location, "/big", true)) {
            NdArray buffer = NdArray.allocate(DataTypes.FLOAT32, slab);
            long start = System.nanoTime();
            for (long z = 0; z < shape[0]; z += slab[0]) {
                for (long y = 0; y < shape[1]; y += slab[1]) {
                    for (long x = 0; x < shape[2]; x += slab[2]) {
                        long[] o = {z, y, x};
                        a.readInto(o, buffer);
                        check(buffer, o);
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Row r = new Row(BIG, "read");
            r.threads = threads;
            r.timed(seconds, 4 * VolumeBench.count(shape));
            return r;
        }
    }

    /** Checks 16 points of a slab read at {@code o} against the field. */
    private static void check(NdArray got, long[] o) {
        long[] s = got.shape();
        FloatBuffer f = got.bytes().asFloatBuffer();
        Random random = new Random(o[0] * 31 + o[1] * 17 + o[2]);
        for (int k = 0; k < 16; k++) {
            int z = random.nextInt((int) s[0]);
            int y = random.nextInt((int) s[1]);
            int x = random.nextInt((int) s[2]);
            float want = value(o[0] + z, o[1] + y, o[2] + x);
            float have = f.get((int) ((z * s[1] + y) * s[2] + x));
            if (Float.compare(want, have) != 0) {
                throw new BenchFailure(BIG + ": element [" + (o[0] + z) + ", " + (o[1] + y) + ", " + (o[2] + x) + "] is "
                        + have + ", expected " + want);
            }
        }
    }

    private static float value(long z, long y, long x) {
        return (float) (Math.sin(z * 0.05) * Math.cos(y * 0.02) + x * 0.001);
    }

    /** Float32Bench's field, for the region at {@code offset} of {@code shape}. */
    private static NdArray field(long[] offset, long[] shape) {
        NdArray a = NdArray.allocate(DataTypes.FLOAT32, shape);
        FloatBuffer f = a.bytes().asFloatBuffer();
        int i = 0;
        for (long z = 0; z < shape[0]; z++) {
            for (long y = 0; y < shape[1]; y++) {
                double base = Math.sin((offset[0] + z) * 0.05) * Math.cos((offset[1] + y) * 0.02);
                for (long x = 0; x < shape[2]; x++) {
                    f.put(i++, (float) (base + (offset[2] + x) * 0.001));
                }
            }
        }
        return a;
    }

    private void report(Row r) {
        log.line("  %s %s at %d ms%s: %.3f s, %.1f MB/s, %d HTTP requests, at most %d in flight", r.name, r.op,
                r.latencyMs, r.ioConcurrency == null ? "" : ", ioConcurrency " + r.ioConcurrency, r.seconds, r.mbPerS,
                r.httpRequests, r.peakInFlight);
    }
}
