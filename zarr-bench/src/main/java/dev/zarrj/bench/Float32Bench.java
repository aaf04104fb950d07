package dev.zarrj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
import dev.zarrj.api.NdArray;
import dev.zarrj.bench.data.Fields;
import dev.zarrj.bench.raw.RawCodec;
import dev.zarrj.core.ArrayBuilder;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.selection.DimSelection;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Selection;
import dev.zarrj.core.selection.Slice;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The float32 workloads: one array per codec chain at {@code DIR/float32/<chain>}, written and read
 * whole next to the raw loop's ceiling (same chunks, same threads), and the latency of a region,
 * a chunk and (sharded) an inner chunk.
 */
final class Float32Bench {
    static final long[] CHUNKS = {64, 128, 128};
    static final long[] SHARD = {128, 256, 256};
    static final long[] INNER = {32, 64, 64};
    /** The region [100:164, 200:328, 300:428] of the full-size array: it crosses chunk borders in every dimension. */
    private static final long[] REGION_START = {100, 200, 300};
    private static final String SHARDING = "sharding-zstd-1";
    /** The unsharded array whose one chunk is the sharded inner chunk's reference. */
    static final String REFERENCE = "zstd-1-32x64x64";
    /** The step of {@code read-strided} in every dimension. */
    static final int STRIDE = 4;
    /** The seed of {@code read-orthogonal}'s index lists: the same indices in every run. */
    private static final long ORTHOGONAL_SEED = 18;
    /** Timed rounds of the selection reads: at least this many, then more while the time below lasts. */
    private static final int SELECTION_MIN_ROUNDS = 5;
    private static final int SELECTION_MAX_ROUNDS = 25;
    /** Seconds of timed selection rounds (the scale's run budget when smaller). */
    private static final double SELECTION_SECONDS = 10;
    /**
     * Seconds of warm-up rounds before the timed selection rounds (the scale's run budget when
     * smaller): in a JVM that has not read selections yet, the first 15–20 reads of a sharded
     * selection on two cores take 140–210 ms while C2 compiles the selection path on the same two
     * cores, then about 135 ms; one warm-up round left most of those in the timed rounds.
     */
    private static final double SELECTION_WARMUP_SECONDS = 3;
    /** Repeat a part of the ceiling until this much time has passed (or the scale's runs are done). */
    private static final double PART_SECONDS = 1.0;

    /**
     * A codec chain: the zarrj codecs it needs (beyond the core's), how zarrj's array is
     * configured, and the raw codec of its ceiling.
     */
    record Chain(String name, List<String> codecs, UnaryOperator<ArrayBuilder> configure, Supplier<RawCodec> raw) {
        boolean compressed() {
            return !codecs.isEmpty();
        }

        boolean sharded() {
            return name.equals(SHARDING);
        }
    }

    static List<Chain> chains() {
        return List.of(
                new Chain("bytes", List.of(), b -> b.chunks(CHUNKS), RawCodec::none),
                new Chain("gzip-1", List.of("gzip"), b -> b.chunks(CHUNKS).codec("gzip", Map.of("level", 1)),
                        () -> RawCodec.gzip(1)),
                new Chain("zstd-1", List.of("zstd"), b -> b.chunks(CHUNKS).codec("zstd", Map.of("level", 1, "checksum", false)),
                        () -> RawCodec.zstd(1)),
                new Chain("blosc-zstd-5-shuffle", List.of("blosc"), b -> b.chunks(CHUNKS).codec("blosc", Map.of("cname",
                        "zstd", "clevel", 5, "shuffle", "shuffle", "typesize", 4, "blocksize", 0)),
                        () -> RawCodec.blosc("zstd", 5, true, 4)),
                new Chain(SHARDING, List.of("sharding_indexed", "zstd"), b -> b.chunks(SHARD).codecs(shardingChain()),
                        () -> RawCodec.zstd(1)));
    }

    /** sharding_indexed with inner chunks [32,64,64] of bytes + zstd level 1, the default index (bytes + crc32c, at the end). */
    private static String shardingChain() {
        return "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[32,64,64],"
                + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
                + "{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":false}}],"
                + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],"
                + "\"index_location\":\"end\"}}]";
    }

    private final Scale scale;
    private final int threads;
    private final Path dir;
    private final Log log;
    private final Predicate<String> selected;
    private final PeerOptions peerOptions;
    /** The tensorstore peer of this run, once a float32 chain was selected. */
    private TensorstorePeer peer;
    /** The sharded chain's selection reads, for the peer. */
    private List<SelectionRead> selectionReads = List.of();

    /**
     * How the tensorstore peer runs: the Python to use ({@code --tensorstore-python}, or null to
     * look for one), whether it is turned off ({@code --no-tensorstore}), and whether its copies
     * at {@code DIR/tensorstore/float32/<chain>} are kept ({@code --dir}).
     */
    record PeerOptions(String python, boolean off, boolean keep) {
        static final PeerOptions DEFAULT = new PeerOptions(null, false, false);
    }

    Float32Bench(Workbench bench) {
        this(bench, PeerOptions.DEFAULT);
    }

    Float32Bench(Workbench bench, PeerOptions peerOptions) {
        this.scale = bench.scale();
        this.threads = bench.threads();
        this.dir = bench.dir();
        this.log = bench.log();
        this.selected = bench.selected();
        this.peerOptions = peerOptions;
    }

    /** The tensorstore peer, or empty when no float32 workload was selected. */
    Optional<TensorstorePeer> peer() {
        return Optional.ofNullable(peer);
    }

    static String workload(String chain) {
        return "float32/" + chain;
    }

    List<Row> run() throws Exception {
        List<Chain> chains = new ArrayList<>();
        for (Chain c : chains()) {
            if (selected.test(workload(c.name()))) {
                chains.add(c);
            }
        }
        List<Row> rows = new ArrayList<>();
        if (chains.isEmpty()) {
            return rows;
        }
        long[] shape = scale.float32Shape();
        NdArray data = smoothField(shape);
        byte[] bytes = heapBytes(data);
        log.line("float32 %s, chunks %s, %.0f MB; %d thread(s)", Arrays.toString(shape), Arrays.toString(CHUNKS),
                bytes.length / 1e6, threads);
        peer = peerOptions.off() ? TensorstorePeer.skip("--no-tensorstore") : TensorstorePeer.find(peerOptions.python());
        if (peer.available()) {
            log.line("tensorstore %s (%s) after each chain, data_copy_concurrency and file_io_concurrency %d, cache off,"
                    + " no fsync", peer.version(), peer.python(), threads);
        } else {
            log.line("tensorstore skipped: %s", peer.skipped());
        }
        ExecutorService poolN = Executors.newFixedThreadPool(threads);
        ExecutorService pool1 = Executors.newFixedThreadPool(1);
        try (Zarr zarrN = Zarr.builder().threads(threads).build(); Zarr zarr1 = Zarr.builder().threads(1).build()) {
            CountingStore store = new CountingStore(zarrN.openStore(dir.toString()));
            for (Chain chain : chains) {
                Optional<String> problem = unavailable(chain, zarrN);
                if (problem.isPresent()) {
                    log.line("%s: skipped: %s", workload(chain.name()), problem.get());
                    continue;
                }
                String path = "/" + workload(chain.name());
                ZarrArray arrayN = chain.configure().apply(zarrN.array(DataTypes.FLOAT32, shape)).overwrite(true)
                        .create(store, path);
                ZarrArray array1 = zarr1.openArray(store, path);
                int before = rows.size();
                Path rawDir = dir.resolve("raw").resolve(chain.name());
                RawLoop raw = chain.sharded()
                        ? RawLoop.sharded(bytes, shape, 4, SHARD, INNER, chain.raw().get(), rawDir)
                        : RawLoop.chunked(bytes, shape, 4, CHUNKS, chain.raw().get(), rawDir);
                raw.overlapWrites(store.writeConcurrency());
                try (raw) {
                    raw.prepare(poolN);
                    rows.addAll(throughput(chain, arrayN, store, raw, poolN, threads, data, bytes, scale.warmups(), true));
                    if (chain.compressed() && threads > 1) {
                        // Warm already: the same code paths have just run. The parts are reported for
                        // the default threads only (they cost as long again, and gzip is slow).
                        rows.addAll(throughput(chain, array1, store, raw, pool1, 1, data, bytes, 0, false));
                    }
                } finally {
                    Files2.deleteTree(rawDir);
                }
                if (chain.sharded()) {
                    rows.addAll(selections(chain, arrayN, store, data));
                }
                rows.addAll(latencies(chain, arrayN, store, data, zarrN));
                if (peer.available()) {
                    tensorstore(chain, rows.subList(before, rows.size()), store, zarrN, data);
                }
            }
            Files2.deleteTree(dir.resolve("raw"));
            if (!peerOptions.keep()) {
                Files2.deleteTree(dir.resolve("tensorstore"));
            }
        } finally {
            poolN.shutdown();
            pool1.shutdown();
        }
        return rows;
    }

    /** Why a chain cannot run here (a zarrj plugin or a raw library missing), or empty. */
    private static Optional<String> unavailable(Chain chain, Zarr zarr) {
        Set<String> installed = zarr.registry().names(ExtensionPoint.CODEC);
        for (String codec : chain.codecs()) {
            if (!installed.contains(codec)) {
                return Optional.of("zarrj has no '" + codec + "' codec installed");
            }
        }
        return RawCodec.unavailable(chain.raw()).map(p -> "the raw codec of its ceiling: " + p
                + (chain.name().startsWith("blosc") ? "; install c-blosc (apt-get install libblosc1)" : ""));
    }

    /**
     * Whole-array write and read with {@code t} threads, each next to the raw loop on the same
     * threads, in interleaved runs so that both sides see the same state of the machine: up to
     * the scale's warm-ups + runs, but no more once its run budget has passed (a slow codec's one
     * run is long enough to be measured alone); warm-ups are dropped when measured runs follow.
     * With {@code parts}, also the ceiling's codec-only and store-only figures.
     */
    private List<Row> throughput(Chain chain, ZarrArray array, CountingStore store, RawLoop raw, ExecutorService pool,
                                 int t, NdArray data, byte[] bytes, int warmups, boolean parts) throws Exception {
        List<double[]> runs = new ArrayList<>();
        NdArray[] back = new NdArray[1];
        byte[][] rawBack = new byte[1][];
        long[] requests = new long[2];
        long start = System.nanoTime();
        while (runs.isEmpty() || (runs.size() < warmups + scale.runs()
                && (System.nanoTime() - start) / 1e9 < scale.runSeconds())) {
            double[] run = new double[4];
            store.takeCount();
            run[0] = Timing.time(() -> array.write(data));
            requests[0] = store.takeCount();
            run[1] = Timing.time(() -> raw.write(pool));
            run[2] = Timing.time(() -> back[0] = array.read());
            requests[1] = store.takeCount();
            run[3] = Timing.time(() -> rawBack[0] = raw.read(pool));
            runs.add(run);
        }
        List<double[]> measured = runs.subList(Math.min(warmups, runs.size() - 1), runs.size());
        if (!back[0].contentEquals(data)) {
            throw new BenchFailure(workload(chain.name()) + ": zarrj read back other values than it wrote");
        }
        if (!Arrays.equals(rawBack[0], bytes)) {
            throw new BenchFailure(workload(chain.name()) + ": the raw loop read back other bytes than it wrote");
        }
        back[0] = null;
        rawBack[0] = null;
        double mb = bytes.length / 1e6;
        Row write = new Row(workload(chain.name()), "write");
        write.threads = t;
        write.timed(median(measured, 0), bytes.length);
        write.ceilingMbPerS = mb / median(measured, 1);
        write.storeRequests = requests[0];
        Row read = new Row(workload(chain.name()), "read");
        read.threads = t;
        read.timed(median(measured, 2), bytes.length);
        read.ceilingMbPerS = mb / median(measured, 3);
        read.storeRequests = requests[1];
        if (parts) {
            // Diagnostic figures: up to `runs` runs each, fewer for slow codecs.
            byte[] out = new byte[bytes.length];
            int most = scale.runs();
            if (!raw.codec.identity()) {
                write.codecMbPerS = mb / Timing.latency(() -> raw.encodeOnly(pool), 0, PART_SECONDS, 1, most).median();
                read.codecMbPerS = mb / Timing.latency(() -> raw.decodeOnly(pool, out), 0, PART_SECONDS, 1, most)
                        .median();
            }
            write.storeMbPerS = mb / Timing.latency(() -> raw.storeWriteOnly(pool), 0, PART_SECONDS, 1, most).median();
            read.storeMbPerS = mb / Timing.latency(() -> raw.storeReadOnly(pool), 0, PART_SECONDS, 1, most).median();
        }
        report(write);
        report(read);
        return List.of(write, read);
    }

    private static double median(List<double[]> runs, int column) {
        return Timing.median(runs.stream().mapToDouble(r -> r[column]).toArray());
    }

    /**
     * The selection reads, each with a read of its covering region (the smallest box holding
     * every element it selects) timed after them: {@code read-strided}, every {@value #STRIDE}th
     * element in each dimension, and {@code read-orthogonal}, sorted random index lists of a
     * quarter of each dimension (a fixed seed). Both rows count the covering region's bytes, so
     * that {@code ratio_to_ceiling} is the covering read's time over the selection's.
     */
    private List<Row> selections(Chain chain, ZarrArray array, CountingStore store, NdArray data) throws Exception {
        long[] shape = array.shape();
        long[][] strided = new long[3][];
        long[][] orthogonal = new long[3][];
        Random random = new Random(ORTHOGONAL_SEED);
        for (int d = 0; d < 3; d++) {
            strided[d] = new long[(int) ((shape[d] + STRIDE - 1) / STRIDE)];
            for (int i = 0; i < strided[d].length; i++) {
                strided[d][i] = (long) i * STRIDE;
            }
            TreeSet<Long> picked = new TreeSet<>();
            while (picked.size() < Math.max(1, shape[d] / STRIDE)) {
                picked.add((long) random.nextInt((int) shape[d]));
            }
            orthogonal[d] = picked.stream().mapToLong(Long::longValue).toArray();
        }
        Selection stridedSel = Selection.of(Slice.step(STRIDE), Slice.step(STRIDE), Slice.step(STRIDE));
        DimSelection[] lists = new DimSelection[3];
        for (int d = 0; d < 3; d++) {
            lists[d] = IndexList.of(orthogonal[d]);
        }
        List<SelectionRead> reads = List.of(new SelectionRead("read-strided", stridedSel, strided),
                new SelectionRead("read-orthogonal", Selection.of(lists), orthogonal));
        String name = workload(chain.name());
        for (SelectionRead r : reads) {
            r.check(name, array, data);
        }
        // Both warmed up before either is timed (the first reads would otherwise pay for the JIT),
        // then the selections timed in rounds of their own, as tensorstore times them, and their
        // covering reads (the ceiling) after them in rounds of their own: a 256 MiB covering read
        // just before each selection read left it the collector's work on its garbage (outside
        // the bench, the median selection read 3% slower, the 90th percentile 15-20%).
        int minRounds = scale.warmups() > 0 ? SELECTION_MIN_ROUNDS : 1;
        double budget = Math.min(scale.runSeconds(), SELECTION_SECONDS);
        double warmup = scale.warmups() > 0 ? Math.min(scale.runSeconds(), SELECTION_WARMUP_SECONDS) : 0;
        List<double[]> coverSeconds = new ArrayList<>();
        List<double[]> selSeconds = new ArrayList<>();
        long warmStart = System.nanoTime();
        for (int w = 0; w < SELECTION_MAX_ROUNDS && (System.nanoTime() - warmStart) / 1e9 < warmup; w++) {
            for (SelectionRead r : reads) {
                array.read(r.offset, r.cover);
                array.read(r.selection);
            }
        }
        for (boolean covers : new boolean[] {false, true}) {
            long start = System.nanoTime();
            for (int round = 0; round < minRounds || round < SELECTION_MAX_ROUNDS
                    && (System.nanoTime() - start) / 1e9 < budget; round++) {
                double[] t = new double[reads.size()];
                for (int i = 0; i < reads.size(); i++) {
                    SelectionRead r = reads.get(i);
                    t[i] = covers ? Timing.time(() -> array.read(r.offset, r.cover))
                            : Timing.time(() -> array.read(r.selection));
                }
                (covers ? coverSeconds : selSeconds).add(t);
            }
        }
        selectionReads = reads;
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            SelectionRead r = reads.get(i);
            store.takeCount();
            array.read(r.selection);
            long bytes = Arrays.stream(r.cover).reduce(1, (x, y) -> x * y) * data.dataType().size();
            Row row = new Row(name, r.op);
            row.threads = threads;
            row.timed(median(selSeconds, i), bytes);
            row.ceilingMbPerS = bytes / 1e6 / median(coverSeconds, i);
            row.storeRequests = store.takeCount();
            report(row);
            rows.add(row);
        }
        return rows;
    }

    /**
     * tensorstore on this chain's array, the same operations zarrj measured with its default
     * threads and the same repetitions: each of those rows gets tensorstore's figure (in the
     * row's bytes). Then zarrj reads tensorstore's copy of the array (the peer's write) and
     * compares it with what zarrj wrote: both engines read each other's bytes bit for bit.
     */
    private void tensorstore(Chain chain, List<Row> chainRows, CountingStore store, Zarr zarr, NdArray data)
            throws Exception {
        String name = workload(chain.name());
        Path copy = dir.resolve("tensorstore").resolve("float32").resolve(chain.name());
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        spec.put("array", dir.resolve("float32").resolve(chain.name()).toAbsolutePath().toString());
        spec.put("write_to", copy.toAbsolutePath().toString());
        spec.put("threads", threads);
        List<Row> measured = new ArrayList<>();
        List<ObjectNode> opList = new ArrayList<>();
        for (Row r : chainRows) {
            if (!r.name.equals(name) || r.threads == null || r.threads != threads) {
                continue;
            }
            ObjectNode op = JsonNodeFactory.instance.objectNode().put("op", r.op);
            switch (r.op) {
                case "write", "read" -> timing(op.put("kind", r.op), scale.warmups(), 1, scale.runs(), scale.runSeconds());
                case "read-region", "read-chunk", "read-inner-chunk" -> {
                    op.put("kind", "box").set("region", r.region.toJson());
                    timing(op, scale.warmups() > 0 ? 3 : 0, scale.latencyMinReps(), scale.latencyMaxReps(),
                            scale.latencySeconds());
                    op.put("warmup_seconds", latencyWarmupSeconds());
                }
                case "read-strided", "read-orthogonal" -> {
                    SelectionRead s = selectionReads.stream().filter(x -> x.op.equals(r.op)).findFirst().orElseThrow();
                    if (r.op.equals("read-strided")) {
                        op.put("kind", "strided").put("step", STRIDE);
                    } else {
                        ArrayNode lists = op.put("kind", "orthogonal").putArray("indices");
                        for (long[] list : s.indices) {
                            ArrayNode l = lists.addArray();
                            Arrays.stream(list).forEach(l::add);
                        }
                    }
                    timing(op, scale.warmups() > 0 ? 1 : 0, scale.warmups() > 0 ? SELECTION_MIN_ROUNDS : 1,
                            SELECTION_MAX_ROUNDS, Math.min(scale.runSeconds(), SELECTION_SECONDS));
                    op.put("warmup_seconds", scale.warmups() > 0
                            ? Math.min(scale.runSeconds(), SELECTION_WARMUP_SECONDS) : 0);
                }
                default -> {
                    continue;
                }
            }
            opList.add(op);
            measured.add(r);
        }
        // In zarrj's order, which starts with the write: its copy is what zarrj reads back below.
        spec.putArray("ops").addAll(opList);
        log.line("%s: tensorstore on the same %d operation(s)", name, measured.size());
        JsonNode result = peer.run(spec, name, log);
        for (Row r : measured) {
            JsonNode o = result.get(r.op);
            if (o == null || !o.has("seconds") || o.get("seconds").asDouble() <= 0) {
                throw new BenchFailure(name + " " + r.op + ": tensorstore reported no time");
            }
            r.tensorstoreMbPerS = r.bytes / 1e6 / o.get("seconds").asDouble();
            log.line("  %s %s: tensorstore %.1f MB/s (%d runs), zarrj %.2fx", name, r.op, r.tensorstoreMbPerS,
                    o.path("runs").asInt(), r.ratioToTensorstore());
        }
        if (measured.stream().anyMatch(r -> r.op.equals("write"))) {
            NdArray back;
            try (ZarrArray theirs = zarr.openArray(store, "/tensorstore/float32/" + chain.name())) {
                back = theirs.read();
            } catch (BenchFailure e) {
                throw e;
            } catch (Exception e) {
                throw new BenchFailure(name + ": zarrj could not read tensorstore's copy at " + copy + ": " + e.getMessage(), e);
            }
            if (!back.contentEquals(data)) {
                throw new BenchFailure(name + ": zarrj read other values from tensorstore's copy at " + copy
                        + " than it wrote itself");
            }
            log.line("  %s: zarrj read tensorstore's copy back, the same values", name);
        }
        if (!peerOptions.keep()) {
            Files2.deleteTree(copy);
        }
    }

    private static void timing(ObjectNode op, int warmups, int minRuns, int maxRuns, double seconds) {
        op.put("warmups", warmups).put("min_runs", minRuns).put("max_runs", maxRuns).put("seconds", seconds);
    }

    /** A selection read: its indices per dimension, and the region that covers them. */
    private static final class SelectionRead {
        final String op;
        final Selection selection;
        final long[][] indices;
        final long[] offset = new long[3];
        final long[] cover = new long[3];

        SelectionRead(String op, Selection selection, long[][] indices) {
            this.op = op;
            this.selection = selection;
            this.indices = indices;
            for (int d = 0; d < 3; d++) {
                offset[d] = indices[d][0];
                cover[d] = indices[d][indices[d].length - 1] + 1 - indices[d][0];
            }
        }

        /** The selection's shape and values against the covering region's read and the field written. */
        void check(String name, ZarrArray array, NdArray data) {
            NdArray coverValues = array.read(offset, cover);
            NdArray got = array.read(selection);
            long[] selected = {indices[0].length, indices[1].length, indices[2].length};
            if (!Arrays.equals(got.shape(), selected)) {
                throw new BenchFailure(name + " " + op + ": a result of shape " + Arrays.toString(got.shape()) + ", not "
                        + Arrays.toString(selected));
            }
            long[] at = new long[3];
            long[] inCover = new long[3];
            for (int x = 0; x < selected[0]; x++) {
                for (int y = 0; y < selected[1]; y++) {
                    for (int z = 0; z < selected[2]; z++) {
                        at[0] = indices[0][x];
                        at[1] = indices[1][y];
                        at[2] = indices[2][z];
                        for (int d = 0; d < 3; d++) {
                            inCover[d] = at[d] - offset[d];
                        }
                        double want = coverValues.getDouble(inCover);
                        if (got.getDouble(x, y, z) != want || data.getDouble(at) != want) {
                            throw new BenchFailure(name + " " + op + ": read other values than the covering region at "
                                    + Arrays.toString(at));
                        }
                    }
                }
            }
        }
    }

    /**
     * A region across chunk borders, one chunk, and for the sharded chain one inner chunk next to
     * its reference; each row carries the region it read.
     */
    private List<Row> latencies(Chain chain, ZarrArray array, CountingStore store, NdArray data, Zarr zarr)
            throws Exception {
        List<Row> rows = new ArrayList<>();
        long[] shape = scale.float32Shape();
        long[] regionShape = new long[3];
        long[] regionStart = new long[3];
        for (int d = 0; d < 3; d++) {
            regionShape[d] = Math.min(CHUNKS[d], shape[d] / 2);
            regionStart[d] = REGION_START[d] + regionShape[d] <= shape[d] ? REGION_START[d] : (shape[d] - regionShape[d]) / 2;
        }
        Row.Region region = new Row.Region(regionStart, regionShape);
        rows.add(latency(workload(chain.name()), "read-region", region, store, () -> array.read(regionStart, regionShape),
                data.region(Region.of(regionStart, regionShape))));

        long[] grid = array.chunkGridShape();
        long[] chunk = new long[3];
        for (int d = 0; d < 3; d++) {
            chunk[d] = Math.min(1, grid[d] - 1);
        }
        long[] chunkShape = array.chunkShape();
        Row.Region chunkRegion = chunkRegion(chunk, chunkShape, shape);
        rows.add(latency(workload(chain.name()), "read-chunk", chunkRegion, store, () -> array.readChunk(chunk),
                chunkValues(data, chunkRegion, chunkShape)));

        if (chain.sharded()) {
            // Inner chunk (1,1,1) of that shard, where it lies inside the array.
            long[] chunkOrigin = chunkRegion.offset();
            long[] innerOrigin = new long[3];
            for (int d = 0; d < 3; d++) {
                long o = chunkOrigin[d] + INNER[d];
                innerOrigin[d] = o + INNER[d] <= shape[d] ? o : chunkOrigin[d];
            }
            // Its reference: the same elements as one unsharded chunk of the same shape and codec.
            ZarrArray reference = zarr.array(DataTypes.FLOAT32, shape).chunks(INNER)
                    .codec("zstd", Map.of("level", 1, "checksum", false)).overwrite(true)
                    .create(store, "/" + workload(REFERENCE));
            reference.write(data);
            long[] refChunk = new long[3];
            for (int d = 0; d < 3; d++) {
                refChunk[d] = innerOrigin[d] / INNER[d];
            }
            Row.Region refRegion = chunkRegion(refChunk, INNER, shape);
            Row ref = latency(workload(REFERENCE), "read-chunk", refRegion, store, () -> reference.readChunk(refChunk),
                    chunkValues(data, refRegion, INNER));
            Row inner = latency(workload(chain.name()), "read-inner-chunk", new Row.Region(innerOrigin, INNER), store,
                    () -> array.read(innerOrigin, INNER), data.region(Region.of(innerOrigin, INNER)));
            inner.ceilingMbPerS = ref.mbPerS;
            log.line("  %s read-inner-chunk: %d store request(s), %.2fx the unsharded chunk's throughput",
                    workload(chain.name()), inner.storeRequests, inner.ratioToCeiling());
            rows.add(inner);
            rows.add(ref);
        }
        return rows;
    }

    /** The part of chunk {@code index} of a grid of {@code chunkShape} chunks that lies inside an array of {@code shape}. */
    private static Row.Region chunkRegion(long[] index, long[] chunkShape, long[] shape) {
        long[] offset = new long[3];
        long[] inside = new long[3];
        for (int d = 0; d < 3; d++) {
            offset[d] = index[d] * chunkShape[d];
            inside[d] = Math.min(chunkShape[d], shape[d] - offset[d]);
        }
        return new Row.Region(offset, inside);
    }

    /** What {@code readChunk} returns for the chunk at {@code region}: the whole chunk, 0 (the fill value) past the edge. */
    private static NdArray chunkValues(NdArray data, Row.Region region, long[] chunkShape) {
        NdArray out = NdArray.allocate(data.dataType(), chunkShape);
        RegionCopy.copy(data, Region.of(region.offset(), region.shape()), out, new long[3]);
        return out;
    }

    private interface Read {
        NdArray read() throws Exception;
    }

    /**
     * Seconds of warm-up reads before a latency operation's timed reads: as long as they are
     * timed (none at the tiny scale). A few warm-up reads left the JIT compiling the path of a
     * read of one chunk while it was timed: of a plain 4 MiB chunk read in a fresh JVM, the
     * median of 200 reads was about 1,000 µs after 3 warm-up reads, 690 µs after 300 and 640 µs
     * after 1,000 (0.7 s) or more, where tensorstore takes about 700.
     */
    private double latencyWarmupSeconds() {
        return scale.warmups() > 0 ? scale.latencySeconds() : 0;
    }

    private Row latency(String name, String op, Row.Region region, CountingStore store, Read read, NdArray expected)
            throws Exception {
        NdArray got = read.read();
        if (!got.contentEquals(expected)) {
            throw new BenchFailure(name + " " + op + ": read other values than were written");
        }
        int warmups = scale.warmups() > 0 ? 3 : 0;
        Optional<Long> faultsBefore = Machine.minorFaults();
        Timing.Samples samples = Timing.latency(read::read, warmups, latencyWarmupSeconds(), scale.latencySeconds(),
                scale.latencyMinReps(), scale.latencyMaxReps());
        Optional<Long> faultsAfter = Machine.minorFaults();
        store.takeCount();
        read.read();
        Row r = new Row(name, op);
        r.threads = threads;
        r.timed(samples.median(), expected.byteSize());
        r.percentiles(samples);
        if (faultsBefore.isPresent() && faultsAfter.isPresent()) {
            r.minorFaults = (double) (faultsAfter.get() - faultsBefore.get()) / (warmups + samples.count());
        }
        r.storeRequests = store.takeCount();
        r.region = region;
        report(r);
        return r;
    }

    private void report(Row r) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(java.util.Locale.ROOT, "%s %s, %d thread(s): %.4f s, %.1f MB/s", r.name, r.op, r.threads,
                r.seconds, r.mbPerS));
        if (r.samples != null) {
            s.append(String.format(java.util.Locale.ROOT, " (p90 %.4f s, p99 %.4f s over %d runs)", r.p90Seconds,
                    r.p99Seconds, r.samples));
        }
        if (r.minorFaults != null) {
            s.append(String.format(java.util.Locale.ROOT, ", %.0f page faults", r.minorFaults));
        }
        if (r.ceilingMbPerS != null) {
            s.append(String.format(java.util.Locale.ROOT, ", ceiling %.1f MB/s, ratio %.2f", r.ceilingMbPerS,
                    r.ratioToCeiling()));
        }
        if (r.storeRequests != null) {
            s.append(", ").append(r.storeRequests).append(" store request(s)");
        }
        log.line("%s", s);
    }

    /** zarrj's benchmark field ({@link Fields#smoothFloat32}). */
    static NdArray smoothField(long[] shape) {
        return Fields.smoothFloat32(shape);
    }

    /** The array's bytes as the byte array behind it (native order, which the raw loop writes as is). */
    private static byte[] heapBytes(NdArray a) {
        ByteBuffer b = a.bytes();
        if (b.hasArray() && b.arrayOffset() == 0 && b.array().length == a.byteSize()) {
            return b.array();
        }
        return a.toByteArray();
    }
}
