package dev.zarrj.ext.strings;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ArrayBuilder;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.WriteEmptyChunks;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.DimSelection;
import dev.zarrj.core.selection.Index;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Mask;
import dev.zarrj.core.selection.Selection;
import dev.zarrj.core.selection.Slice;
import dev.zarrj.ext.strings.SelectionReference.Dim;
import dev.zarrj.ext.strings.SelectionReference.Expected;
import dev.zarrj.ext.strings.SelectionReference.Idx;
import dev.zarrj.ext.strings.SelectionReference.Invalid;
import dev.zarrj.ext.strings.SelectionReference.Lst;
import dev.zarrj.ext.strings.SelectionReference.Msk;
import dev.zarrj.ext.strings.SelectionReference.Sl;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Selections ({@link Selection}: orthogonal with indices, slices with any bounds and steps, index
 * lists, masks; points by coordinates and by a boolean mask; blocks) read and written on random
 * arrays, compared element by element with {@link SelectionReference}: ranks 0 to 4, lengths 0
 * and 1 included, integer, float, bool and string elements, random fill values, core codecs, zstd,
 * sharding, absent chunks, the memory store and a few file-store arrays. Invalid selections must
 * fail with an IllegalArgumentException naming the dimension, and leave the array as it was. Three
 * threads writing disjoint points of shared chunks at once lose nothing.
 *
 * <p>The class prints its seed; a failure names the seed, the array (group) and the case. Replay
 * one array's cases with {@code -Dzarrj.selection.seed=<seed> -Dzarrj.selection.group=<group>}
 * (every property derives its arrays from the seed and its own name). More cases per array: raise
 * {@code -Dzarrj.selection.groups=<n>} (arrays per property, default 400).
 *
 * <p>It lives here, beside the string type, because this module's tests can depend on zarr-core,
 * zarr-codec-sharding, zarr-codec-zstd and zarr-store-fs at once; zarr-core's own tests cannot.
 */
class SelectionPropertiesTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();
    /**
     * Each array is made by one of these, at random: other thread counts, chunks in flight, request
     * merging, empty chunks stored, a decoded-chunk cache (large, and small enough to evict).
     */
    private static final List<Zarr> ZARRS = List.of(ZARR,
            Zarr.builder().threads(1).maxChunksInFlight(1).coalesceGap(0).build(),
            Zarr.builder().threads(3).maxChunksInFlight(2).ioConcurrency(4).writeEmptyChunks(WriteEmptyChunks.STORE).build(),
            Zarr.builder().threads(2).chunkCache(1 << 20).build(),
            Zarr.builder().threads(2).chunkCache(4096).build());
    private static final long SEED = Long.getLong("zarrj.selection.seed", new Random().nextLong());
    private static final Integer ONLY_GROUP = Integer.getInteger("zarrj.selection.group");
    /** Arrays per property; each holds {@link #CASES} cases, so 10,000 cases per property by default. */
    private static final int GROUPS = Integer.getInteger("zarrj.selection.groups", 400);
    private static final int CASES = 25;
    /** Per property: cases run, cases that selected at least one element or were rightly rejected, elements compared. */
    private static final long[] STATS = new long[3];

    @BeforeAll
    static void printSeed() {
        System.out.println("SelectionPropertiesTest seed " + SEED + " (replay with -Dzarrj.selection.seed=" + SEED + ")");
    }

    @AfterAll
    static void close() {
        ZARRS.forEach(Zarr::close);
    }

    // ---- element kinds ----

    /** A data type with random values, a random fill value, and element access as Java objects. */
    enum Kind {
        INT8(DataTypes.INT8), INT32(DataTypes.INT32), UINT16(DataTypes.UINT16), INT64(DataTypes.INT64),
        FLOAT32(DataTypes.FLOAT32), FLOAT64(DataTypes.FLOAT64), BOOL(DataTypes.BOOL), STRING(StringTypes.STRING);

        private static final String[] WORDS = {"", "a", "bb", "é", "世界", "🎉", "n/a", "long text value"};
        final DataType type;

        Kind(DataType type) {
            this.type = type;
        }

        Object random(SplittableRandom r) {
            return switch (this) {
                case INT8 -> (long) r.nextInt(-128, 128);
                case INT32 -> (long) r.nextInt(-1000, 1000);
                case UINT16 -> (long) r.nextInt(0, 65536);
                case INT64 -> r.nextBoolean() ? r.nextLong() : (long) r.nextInt(-5, 5);
                case FLOAT32 -> (double) (float) (r.nextInt(-400, 400) / 8.0);
                case FLOAT64 -> r.nextInt(20) == 0 ? Double.NaN : r.nextInt(-400, 400) / 16.0;
                case BOOL -> r.nextBoolean();
                case STRING -> WORDS[r.nextInt(WORDS.length)] + (r.nextInt(3) == 0 ? "" : Integer.toString(r.nextInt(100)));
            };
        }

        /** The fill value as the builder takes it; {@link #fillObject} is the same as an element. */
        Object fill(SplittableRandom r) {
            return switch (this) {
                case FLOAT32, FLOAT64 -> r.nextInt(4) == 0 ? Double.NaN : r.nextBoolean() ? 0.0 : 2.5;
                case BOOL -> r.nextBoolean();
                case STRING -> r.nextBoolean() ? "" : "n/a";
                default -> r.nextBoolean() ? 0L : 7L;
            };
        }

        Object get(NdArray a, long i) {
            return switch (this) {
                case FLOAT32, FLOAT64 -> a.getDouble(i);
                case BOOL -> a.getBoolean(i);
                case STRING -> a.getString(i);
                default -> a.getLong(i);
            };
        }

        void set(NdArray a, long i, Object v) {
            switch (this) {
                case FLOAT32, FLOAT64 -> a.setDouble(i, (Double) v);
                case BOOL -> a.setBoolean(i, (Boolean) v);
                case STRING -> a.setString(i, (String) v);
                default -> a.setLong(i, (Long) v);
            }
        }
    }

    // ---- one random array and its model ----

    /** A random array, the store it lives in, and its reference values. */
    static final class Subject {
        final String description;
        final Kind kind;
        final long[] shape;
        final long[] gridChunk;
        final ZarrArray array;
        final Object[] model;

        Subject(String description, Kind kind, long[] shape, long[] gridChunk, ZarrArray array, Object[] model) {
            this.description = description;
            this.kind = kind;
            this.shape = shape;
            this.gridChunk = gridChunk;
            this.array = array;
            this.model = model;
        }
    }

    /**
     * Length 0 and 1 often, otherwise up to 7 (11 in rank 1 and 2), at most about 400 elements in
     * all; large: up to 60, 30 000 elements.
     */
    private static long[] randomShape(SplittableRandom r, int rank, boolean large) {
        long[] shape = new long[rank];
        long n = 1;
        for (int d = 0; d < rank; d++) {
            int p = r.nextInt(10);
            int most = large ? (rank <= 2 ? 60 : 30) : rank <= 2 ? 12 : 7;
            shape[d] = p == 0 && r.nextBoolean() ? 0 : p <= 1 ? 1 : r.nextInt(2, most);
            n *= Math.max(1, shape[d]);
            if (n > (large ? 30_000 : 400)) {
                shape[d] = 1;
            }
        }
        return shape;
    }

    static Subject randomSubject(SplittableRandom r, Zarr zarr, Store store, String path, boolean allowSharding, boolean large) {
        int rank = r.nextInt(10) == 0 ? 0 : r.nextInt(1, 5);
        Kind kind = Kind.values()[r.nextInt(Kind.values().length)];
        long[] shape = randomShape(r, rank, large);
        long[] chunks = new long[rank];
        for (int d = 0; d < rank; d++) {
            chunks[d] = r.nextInt(1, large ? 17 : 5);
        }
        Object fill = kind.fill(r);
        ArrayBuilder b = zarr.array(kind.type, shape).fillValue(fill);
        List<String> codecs = new ArrayList<>();
        long[] gridChunk = chunks;
        boolean sharded = allowSharding && rank > 0 && r.nextInt(3) == 0;
        if (sharded) {
            long[] shard = new long[rank];
            for (int d = 0; d < rank; d++) {
                shard[d] = chunks[d] * r.nextInt(1, 4);
            }
            b.chunks(chunks).shards(shard);
            gridChunk = shard;
            codecs.add("sharding" + Arrays.toString(shard));
        } else {
            b.chunks(chunks);
        }
        if (rank > 1 && r.nextInt(4) == 0) {
            List<Integer> order = new ArrayList<>();
            for (int d = 0; d < rank; d++) {
                order.add(d);
            }
            java.util.Collections.shuffle(order, new Random(r.nextLong()));
            b.codec("transpose", Map.of("order", order));
            codecs.add("transpose" + order);
        }
        if (kind != Kind.STRING && kind != Kind.BOOL && kind != Kind.INT8 && r.nextInt(4) == 0) {
            b.codec("bytes", Map.of("endian", "big"));
            codecs.add("bytes-big");
        }
        if (r.nextInt(3) == 0) {
            b.codec("zstd", Map.of("level", 1));
            codecs.add("zstd");
        }
        if (r.nextInt(5) == 0) {
            b.codec("crc32c");
            codecs.add("crc32c");
        }
        ZarrArray array = b.create(store, path);
        int n = (int) elementCount(shape);
        Object fillObject = kind.get(NdArray.filled(kind.type, array.fillValue(), 1), 0);
        Object[] model = new Object[n];
        Arrays.fill(model, fillObject);
        // Some chunks absent (left at the fill value, so never stored), the others random.
        int mode = r.nextInt(4);
        String contents = "empty";
        if (mode > 0 && n > 0) {
            double present = mode == 3 ? 1.0 : r.nextDouble();
            NdArray data = NdArray.allocate(kind.type, shape);
            long[] at = new long[rank];
            Map<String, Boolean> chunkPresent = new java.util.HashMap<>();
            for (int i = 0; i < n; i++) {
                long[] chunk = new long[rank];
                for (int d = 0; d < rank; d++) {
                    chunk[d] = at[d] / gridChunk[d];
                }
                boolean p = chunkPresent.computeIfAbsent(Arrays.toString(chunk), k -> r.nextDouble() < present);
                model[i] = p ? kind.random(r) : fillObject;
                kind.set(data, i, model[i]);
                for (int d = rank - 1; d >= 0 && ++at[d] == shape[d]; d--) {
                    at[d] = 0;
                }
            }
            array.write(data);
            contents = String.format(java.util.Locale.ROOT, "%.0f%% of chunks written", present * 100);
        }
        String description = "zarr " + ZARRS.indexOf(zarr) + ", " + kind + " " + Arrays.toString(shape) + " chunks " + Arrays.toString(chunks) + " fill "
                + fill + " codecs " + codecs + ", " + contents + ", in " + store;
        return new Subject(description, kind, shape, gridChunk, array, model);
    }

    private static long elementCount(long[] shape) {
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        return n;
    }

    // ---- random selections: plain data for the reference, the API value for zarrj ----

    /** A case: the selection as zarrj takes it, as the reference takes it, and as text. */
    record Case(Selection selection, Supplier<Expected> expected, String text) {}

    /** A bound: mostly near the dimension, sometimes far out or at the extremes of long. */
    private static Long bound(SplittableRandom r, long length) {
        int p = r.nextInt(20);
        if (p < 5) {
            return null;
        }
        if (p == 5) {
            long[] extreme = {Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 1L << 40, -(1L << 40)};
            return extreme[r.nextInt(extreme.length)];
        }
        return r.nextLong(-2 * length - 3, 2 * length + 4);
    }

    private static long step(SplittableRandom r, long length) {
        int p = r.nextInt(20);
        if (p < 6) {
            return 1;
        }
        if (p == 6) {
            return r.nextBoolean() ? Long.MAX_VALUE : -Long.MAX_VALUE;
        }
        long s = r.nextLong(1, length + 3);
        return p < 13 ? s : -s;
    }

    static Sl randomSlice(SplittableRandom r, long length, boolean stepOne) {
        return new Sl(bound(r, length), bound(r, length), stepOne ? 1 : step(r, length));
    }

    static Dim randomDim(SplittableRandom r, long length, boolean basic) {
        int p = r.nextInt(basic ? 2 : 4);
        if (p == 0 && length > 0) {
            return new Idx(r.nextLong(-length, length));
        }
        if (p == 2) {
            long[] l = new long[r.nextInt(length == 0 ? 1 : (int) length + 4)];
            for (int k = 0; k < l.length; k++) {
                l[k] = r.nextLong(-length, length);
            }
            return new Lst(l);
        }
        if (p == 3) {
            boolean[] m = new boolean[(int) length];
            double density = r.nextDouble();
            for (int k = 0; k < m.length; k++) {
                m[k] = r.nextDouble() < density;
            }
            return new Msk(m);
        }
        return randomSlice(r, length, false);
    }

    static DimSelection api(Dim d) {
        if (d instanceof Idx i) {
            return Index.of(i.index());
        }
        if (d instanceof Lst l) {
            return IndexList.of(l.indices());
        }
        if (d instanceof Msk m) {
            return Mask.of(m.mask());
        }
        Sl s = (Sl) d;
        if (s.start() == null && s.stop() == null) {
            return s.step() == 1 && s.hashCode() % 2 == 0 ? Slice.all() : Slice.step(s.step());
        }
        if (s.stop() == null) {
            return s.step() == 1 ? Slice.from(s.start()) : Slice.from(s.start(), s.step());
        }
        if (s.start() == null) {
            return s.step() == 1 ? Slice.to(s.stop()) : Slice.to(s.stop(), s.step());
        }
        return s.step() == 1 ? Slice.of(s.start(), s.stop()) : Slice.of(s.start(), s.stop(), s.step());
    }

    static Case orthogonalCase(SplittableRandom r, long[] shape) {
        int rank = shape.length;
        int given = r.nextInt(4) == 0 ? r.nextInt(rank + 1) : rank;
        boolean basic = r.nextInt(3) == 0;
        List<Dim> dims = new ArrayList<>();
        for (int d = 0; d < given; d++) {
            dims.add(randomDim(r, shape[d], basic));
        }
        Selection s = given == 0 && r.nextBoolean() ? Selection.all()
                : Selection.of(dims.stream().map(SelectionPropertiesTest::api).toArray(DimSelection[]::new));
        return new Case(s, () -> SelectionReference.orthogonal(shape, dims), "of" + dims);
    }

    static Case pointsCase(SplittableRandom r, long[] shape) {
        int rank = shape.length;
        boolean anyEmpty = Arrays.stream(shape).anyMatch(x -> x == 0);
        if (rank == 0 || r.nextInt(3) == 0) {
            int n = (int) elementCount(shape);
            boolean[] m = new boolean[n];
            double density = r.nextDouble();
            for (int i = 0; i < n; i++) {
                m[i] = r.nextDouble() < density;
            }
            NdArray mask = NdArray.copyOf(DataTypes.BOOL, m, shape);
            StringBuilder t = new StringBuilder("points(mask " + Arrays.toString(shape) + " ");
            for (boolean b : m) {
                t.append(b ? '1' : '0');
            }
            return new Case(Selection.points(mask), () -> SelectionReference.pointMask(shape, shape, m), t + ")");
        }
        int n = anyEmpty ? 0 : r.nextInt(4) == 0 ? r.nextInt(200) : r.nextInt(13);
        long[][] coords = new long[rank][n];
        for (int d = 0; d < rank; d++) {
            for (int k = 0; k < n; k++) {
                coords[d][k] = r.nextLong(-shape[d], shape[d]);
            }
        }
        return new Case(Selection.points(coords), () -> SelectionReference.points(shape, coords),
                "points" + Arrays.deepToString(coords));
    }

    static Case blocksCase(SplittableRandom r, long[] shape, long[] gridChunk) {
        int rank = shape.length;
        int given = r.nextInt(4) == 0 ? r.nextInt(rank + 1) : rank;
        List<Dim> dims = new ArrayList<>();
        for (int d = 0; d < given; d++) {
            long grid = (shape[d] + gridChunk[d] - 1) / gridChunk[d];
            dims.add(grid > 0 && r.nextBoolean() ? new Idx(r.nextLong(-grid, grid)) : randomSlice(r, grid, true));
        }
        return new Case(Selection.blocks(dims.stream().map(SelectionPropertiesTest::api).toArray(DimSelection[]::new)),
                () -> SelectionReference.blocks(shape, gridChunk, dims), "blocks" + dims);
    }

    // ---- running and checking ----

    private interface CaseRun {
        void run(SplittableRandom r, Subject s, int caseIndex);
    }

    /** Runs {@code cases} cases on each of {@code groups} random arrays, the failure message naming seed, group and case. */
    private static void forEachGroup(String property, int groups, java.util.function.Function<Zarr, Store> stores, boolean sharding, CaseRun run) {
        forEachGroup(property, groups, stores, sharding, false, run);
    }

    private static void forEachGroup(String property, int groups, java.util.function.Function<Zarr, Store> stores, boolean sharding, boolean large,
                                     CaseRun run) {
        long propertySeed = SEED ^ property.hashCode() * 0x9E3779B97F4A7C15L;
        Arrays.fill(STATS, 0);
        for (int g = 0; g < groups; g++) {
            if (ONLY_GROUP != null && ONLY_GROUP != g) {
                continue;
            }
            SplittableRandom r = new SplittableRandom(propertySeed + g * 0xBF58476D1CE4E5B9L);
            Subject s = null;
            int c = -1;
            Zarr zarr = ZARRS.get(r.nextInt(ZARRS.size()));
            try (Store store = stores.apply(zarr)) {
                s = randomSubject(r, zarr, store, "/a" + g, sharding, large);
                for (c = 0; c < CASES; c++) {
                    run.run(r, s, c);
                    STATS[0]++;
                }
            } catch (Throwable e) {
                throw new AssertionError(property + " failed: seed " + SEED + ", group " + g + ", case " + c + "; array "
                        + (s == null ? "(not created)" : s.description) + "; replay with -Dzarrj.selection.seed=" + SEED
                        + " -Dzarrj.selection.group=" + g + ": " + e.getMessage(), e);
            }
        }
        System.out.printf("%s: %d cases, %d selecting elements or rejected, %d elements compared%n", property, STATS[0], STATS[1], STATS[2]);
        if (ONLY_GROUP == null) {
            // Guards the generator: most cases must select something.
            assertTrue(STATS[0] == (long) groups * CASES && STATS[1] > STATS[0] / 3, property + ": " + Arrays.toString(STATS));
        }
    }

    private static Store memory(Zarr zarr) {
        return zarr.openStore("memory:");
    }

    private static Store memory() {
        return memory(ZARR);
    }

    /** Reads the case and compares shape and every value with the reference. */
    private static void checkRead(Subject s, Case c) {
        Expected e;
        try {
            e = c.expected().get();
        } catch (Invalid invalid) {
            checkRejected(s, c, invalid, () -> s.array.read(c.selection()));
            return;
        }
        NdArray got;
        try {
            got = s.array.read(c.selection());
        } catch (RuntimeException ex) {
            throw new AssertionError("read " + c.text() + " threw " + ex, ex);
        }
        if (!Arrays.equals(e.shape(), got.shape())) {
            throw new AssertionError("read " + c.text() + ": shape " + Arrays.toString(got.shape()) + ", expected "
                    + Arrays.toString(e.shape()));
        }
        STATS[1] += e.flat().length > 0 ? 1 : 0;
        STATS[2] += e.flat().length;
        for (int k = 0; k < e.flat().length; k++) {
            Object want = s.model[e.flat()[k]];
            Object have = s.kind.get(got, k);
            if (!Objects.equals(want, have)) {
                throw new AssertionError("read " + c.text() + ": element " + k + " (array flat index " + e.flat()[k]
                        + ") is " + have + ", expected " + want);
            }
        }
    }

    /** The call must throw an IllegalArgumentException naming the reference's dimension, and change nothing. */
    private static void checkRejected(Subject s, Case c, Invalid invalid, Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException ex) {
            String m = String.valueOf(ex.getMessage());
            if (invalid.dimension >= 0 && !m.contains("dimension " + invalid.dimension)) {
                throw new AssertionError(c.text() + ": the message does not name dimension " + invalid.dimension + ": " + m
                        + " (reference: " + invalid.getMessage() + ")");
            }
            checkWhole(s, "after the rejected " + c.text());
            STATS[1]++;
            return;
        } catch (RuntimeException ex) {
            throw new AssertionError(c.text() + " threw " + ex + ", expected an IllegalArgumentException ("
                    + invalid.getMessage() + ")", ex);
        }
        throw new AssertionError(c.text() + " was accepted; the reference rejects it: " + invalid.getMessage());
    }

    /** The whole array equals the model. */
    private static void checkWhole(Subject s, String when) {
        NdArray all = s.array.read();
        for (int i = 0; i < s.model.length; i++) {
            Object have = s.kind.get(all, i);
            if (!Objects.equals(s.model[i], have)) {
                throw new AssertionError(when + ": array flat index " + i + " is " + have + ", expected " + s.model[i]);
            }
        }
    }

    /** Writes random data through the case into the array and the model (later occurrences win), then compares all. */
    private static void checkWrite(SplittableRandom r, Subject s, Case c) {
        Expected e;
        try {
            e = c.expected().get();
        } catch (Invalid invalid) {
            long[] some = new long[s.shape.length == 0 ? 0 : 1];
            checkRejected(s, c, invalid, () -> s.array.write(c.selection(), NdArray.allocate(s.kind.type, some)));
            return;
        }
        NdArray data = NdArray.allocate(s.kind.type, e.shape());
        Object[] values = new Object[e.flat().length];
        for (int k = 0; k < values.length; k++) {
            values[k] = s.kind.random(r);
            s.kind.set(data, k, values[k]);
        }
        try {
            s.array.write(c.selection(), data);
        } catch (RuntimeException ex) {
            throw new AssertionError("write " + c.text() + " threw " + ex, ex);
        }
        for (int k = 0; k < values.length; k++) {
            s.model[e.flat()[k]] = values[k];
        }
        STATS[1] += values.length > 0 ? 1 : 0;
        STATS[2] += s.model.length;
        checkWhole(s, "after writing " + c.text());
        // Data of another shape is refused and changes nothing.
        if (r.nextInt(8) == 0) {
            long[] wrong = e.shape().clone();
            if (wrong.length == 0) {
                wrong = new long[] {1};
            } else {
                wrong[r.nextInt(wrong.length)] += 1;
            }
            NdArray bad = NdArray.allocate(s.kind.type, wrong);
            try {
                s.array.write(c.selection(), bad);
                throw new AssertionError("write " + c.text() + " took data of shape " + Arrays.toString(wrong));
            } catch (IllegalArgumentException expected) {
                checkWhole(s, "after the refused write of shape " + Arrays.toString(wrong));
            }
        }
    }

    @Test
    void orthogonalReadsMatchTheReference() {
        forEachGroup("orthogonal", GROUPS, SelectionPropertiesTest::memory, true,
                (r, s, c) -> checkRead(s, orthogonalCase(r, s.shape)));
    }

    @Test
    void pointReadsMatchTheReference() {
        forEachGroup("points", GROUPS, SelectionPropertiesTest::memory, true,
                (r, s, c) -> checkRead(s, pointsCase(r, s.shape)));
    }

    @Test
    void blockReadsMatchTheReference() {
        forEachGroup("blocks", GROUPS, SelectionPropertiesTest::memory, true,
                (r, s, c) -> checkRead(s, blocksCase(r, s.shape, s.gridChunk)));
    }

    @Test
    void writesThroughEveryKindOfSelectionMatchTheReference() {
        forEachGroup("writes", GROUPS, SelectionPropertiesTest::memory, true, (r, s, c) -> {
            int p = r.nextInt(3);
            Case k = p == 0 ? orthogonalCase(r, s.shape) : p == 1 ? pointsCase(r, s.shape) : blocksCase(r, s.shape, s.gridChunk);
            checkWrite(r, s, k);
        });
    }

    /** Random invalid selections: each must fail naming its dimension, for reads and for writes. */
    @Test
    void invalidSelectionsFailNamingTheDimension() {
        forEachGroup("invalid", GROUPS / 4, SelectionPropertiesTest::memory, true, (r, s, c) -> {
            Case bad = invalidCase(r, s);
            if (bad != null) {
                checkRead(s, bad);
                checkWrite(r, s, bad);
            }
        });
    }

    /** A selection the reference rejects, or null when this array has no room for one of that sort. */
    static Case invalidCase(SplittableRandom r, Subject s) {
        long[] shape = s.shape;
        int rank = shape.length;
        int p = r.nextInt(6);
        if (p == 5 || rank == 0) {
            // One dimension too many.
            List<Dim> dims = new ArrayList<>();
            for (int d = 0; d <= rank; d++) {
                dims.add(new Sl(null, null, 1));
            }
            return new Case(Selection.of(dims.stream().map(SelectionPropertiesTest::api).toArray(DimSelection[]::new)),
                    () -> SelectionReference.orthogonal(shape, dims), "of" + dims);
        }
        int bad = r.nextInt(rank);
        long n = shape[bad];
        long outside = r.nextBoolean() ? n + r.nextInt(3) : -n - 1 - r.nextInt(3);
        List<Dim> dims = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            dims.add(randomDim(r, shape[d], false));
        }
        switch (p) {
            case 0 -> dims.set(bad, new Idx(outside));
            case 1 -> dims.set(bad, new Lst(new long[] {0 % Math.max(1, n), outside}));
            case 2 -> dims.set(bad, new Msk(new boolean[(int) n + (r.nextBoolean() || n == 0 ? 1 : -1)]));
            case 3 -> {
                long[][] coords = new long[rank][1];
                for (int d = 0; d < rank; d++) {
                    coords[d][0] = d == bad ? outside : shape[d] == 0 ? 0 : r.nextLong(shape[d]);
                }
                return new Case(Selection.points(coords), () -> SelectionReference.points(shape, coords),
                        "points" + Arrays.deepToString(coords));
            }
            default -> {
                long grid = (n + s.gridChunk[bad] - 1) / s.gridChunk[bad];
                List<Dim> blocks = new ArrayList<>();
                for (int d = 0; d < rank; d++) {
                    blocks.add(new Sl(null, null, 1));
                }
                blocks.set(bad, new Idx(r.nextBoolean() ? grid + r.nextInt(2) : -grid - 1));
                return new Case(Selection.blocks(blocks.stream().map(SelectionPropertiesTest::api).toArray(DimSelection[]::new)),
                        () -> SelectionReference.blocks(shape, s.gridChunk, blocks), "blocks" + blocks);
            }
        }
        return new Case(Selection.of(dims.stream().map(SelectionPropertiesTest::api).toArray(DimSelection[]::new)),
                () -> SelectionReference.orthogonal(shape, dims), "of" + dims);
    }

    /**
     * What is refused when the selection is made, before any array: blocks other than an index or
     * a step-1 slice, a slice step of 0, point coordinates of different lengths, a point mask that
     * is not bool; and a point mask of another shape than the array's, when read or written.
     */
    @Test
    void malformedSelectionsAreRefusedNamingWhatIsWrong() {
        for (DimSelection d : List.of(Slice.step(2), Slice.of(0, 4, -1), IndexList.of(0, 1), Mask.of(true))) {
            IllegalArgumentException e = assertRefused(() -> Selection.blocks(Slice.all(), d), "blocks " + d);
            assertTrue(e.getMessage().contains("dimension 1"), e.getMessage());
        }
        assertRefused(() -> Slice.of(0, 5, 0), "step 0");
        assertRefused(() -> Slice.step(0), "step 0");
        IllegalArgumentException lengths = assertRefused(() -> Selection.points(new long[] {1, 2}, new long[] {1}), "lengths");
        assertTrue(lengths.getMessage().contains("dimension 1"), lengths.getMessage());
        assertRefused(() -> Selection.points(NdArray.copyOf(DataTypes.INT8, new byte[] {1}, 1)), "an int8 mask");
        try (Store store = memory()) {
            ZarrArray a = ZARR.array(DataTypes.INT32, 2, 3).chunks(1, 2).create(store, "/m");
            Selection wrong = Selection.points(NdArray.copyOf(DataTypes.BOOL, new boolean[6], 3, 2));
            assertRefused(() -> a.read(wrong), "a mask of shape [3, 2]");
            assertRefused(() -> a.write(wrong, NdArray.allocate(DataTypes.INT32, 0)), "a mask of shape [3, 2]");
        }
    }

    private static IllegalArgumentException assertRefused(Runnable r, String what) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            return e;
        }
        throw new AssertionError(what + " was accepted");
    }

    /** A 0-d array's point mask selects its one element when true and nothing when false (it once read one element). */
    @Test
    void aPointMaskOfA0dArraySelectsItsElementOnlyWhenTrue() {
        try (Store store = memory()) {
            ZarrArray a = ZARR.array(DataTypes.INT32).fillValue(5).create(store, "/zero");
            NdArray no = NdArray.copyOf(DataTypes.BOOL, new boolean[] {false});
            NdArray yes = NdArray.copyOf(DataTypes.BOOL, new boolean[] {true});
            assertTrue(Arrays.equals(new long[] {0}, a.read(Selection.points(no)).shape()));
            a.write(Selection.points(no), NdArray.allocate(DataTypes.INT32, 0));
            assertTrue(Arrays.equals(new int[] {5}, a.read(Selection.points(yes)).toIntArray()));
            a.write(Selection.points(yes), NdArray.copyOf(DataTypes.INT32, new int[] {9}, 1));
            assertTrue(a.read().getLong(0) == 9);
        }
    }

    /** Larger arrays and chunks (up to 30 000 elements, chunks up to 16): many chunks per selection, longer runs in one chunk. */
    @Test
    void onLargerArrays() {
        forEachGroup("large", GROUPS / 10, SelectionPropertiesTest::memory, true, true, (r, s, c) -> {
            switch (c % 4) {
                case 0 -> checkRead(s, orthogonalCase(r, s.shape));
                case 1 -> checkRead(s, pointsCase(r, s.shape));
                case 2 -> checkRead(s, blocksCase(r, s.shape, s.gridChunk));
                default -> checkWrite(r, s, r.nextBoolean() ? orthogonalCase(r, s.shape) : pointsCase(r, s.shape));
            }
        });
    }

    /**
     * Three threads write disjoint random sets of elements (points in small batches, elements of
     * one chunk shared between them) through one array at once: no write is lost.
     */
    @Test
    void concurrentPointWritersOfSharedChunksLoseNothing() {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            forEachGroup("concurrent", GROUPS / 10, SelectionPropertiesTest::memory, true, (r, s, c) -> {
                if (s.model.length == 0) {
                    STATS[1]++;
                    return;
                }
                int rank = s.shape.length;
                List<List<Integer>> owned = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
                for (int i = 0; i < s.model.length; i++) {
                    owned.get(r.nextInt(3)).add(i);
                }
                List<java.util.concurrent.Future<?>> done = new ArrayList<>();
                for (List<Integer> mine : owned) {
                    java.util.Collections.shuffle(mine, new Random(r.nextLong()));
                    Object[] values = new Object[mine.size()];
                    for (int k = 0; k < values.length; k++) {
                        values[k] = s.kind.random(r);
                        s.model[mine.get(k)] = values[k];
                    }
                    int batch = 1 + r.nextInt(8);
                    done.add(pool.submit(() -> {
                        for (int from = 0; from < mine.size(); from += batch) {
                            int n = Math.min(batch, mine.size() - from);
                            long[][] coords = new long[rank][n];
                            NdArray data = NdArray.allocate(s.kind.type, n);
                            for (int k = 0; k < n; k++) {
                                long f = mine.get(from + k);
                                for (int d = rank - 1; d >= 0; d--) {
                                    coords[d][k] = f % s.shape[d];
                                    f /= s.shape[d];
                                }
                                s.kind.set(data, k, values[from + k]);
                            }
                            s.array.write(rank == 0 ? Selection.points(NdArray.copyOf(DataTypes.BOOL, new boolean[] {true}))
                                    : Selection.points(coords), data);
                        }
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> f : done) {
                    try {
                        f.get();
                    } catch (Exception e) {
                        throw new AssertionError("a writer failed: " + e, e);
                    }
                }
                checkWhole(s, "after three concurrent writers");
                STATS[1]++;
                STATS[2] += s.model.length;
            });
        } finally {
            pool.shutdownNow();
        }
    }

    /** The same properties on a few arrays in a file store. */
    @Test
    void onAFileStore(@TempDir Path dir) {
        int[] n = {0};
        forEachGroup("file", 12, z -> z.openStore(dir.resolve("s" + n[0]++).toString()), true, (r, s, c) -> {
            switch (c % 4) {
                case 0 -> checkRead(s, orthogonalCase(r, s.shape));
                case 1 -> checkRead(s, pointsCase(r, s.shape));
                case 2 -> checkRead(s, blocksCase(r, s.shape, s.gridChunk));
                default -> checkWrite(r, s, orthogonalCase(r, s.shape));
            }
        });
    }

    /** The reference itself on Python's own answers, so that it is not merely the API's mirror. */
    @Test
    void theReferenceSlicesAsPythonDoes() {
        // range(*slice(a, b, c).indices(n)) computed by CPython 3.
        assertArrays(new long[] {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, SelectionReference.sliceIndices(null, null, -1, 10));
        assertArrays(new long[] {5, 3, 1}, SelectionReference.sliceIndices(5L, null, -2, 10));
        assertArrays(new long[] {}, SelectionReference.sliceIndices(5L, 2L, 1, 10));
        assertArrays(new long[] {9, 6}, SelectionReference.sliceIndices(100L, 3L, -3, 10));
        assertArrays(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8}, SelectionReference.sliceIndices(-100L, -1L, 1, 10));
        assertArrays(new long[] {}, SelectionReference.sliceIndices(-100L, -50L, -1, 10));
        assertArrays(new long[] {0}, SelectionReference.sliceIndices(0L, null, Long.MAX_VALUE, 10));
        assertArrays(new long[] {9}, SelectionReference.sliceIndices(null, null, -Long.MAX_VALUE, 10));
        assertArrays(new long[] {}, SelectionReference.sliceIndices(null, null, 1, 0));
        assertArrays(new long[] {2, 0}, SelectionReference.sliceIndices(-1L, Long.MIN_VALUE, -2, 3));
    }

    private static void assertArrays(long[] want, long[] got) {
        assertTrue(Arrays.equals(want, got), Arrays.toString(got) + " instead of " + Arrays.toString(want));
    }
}
