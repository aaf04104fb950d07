package dev.zarrj.bench;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The absent-heavy workloads (issue 22, item 7): a whole-array read of a uint8 array of 1×1
 * chunks of which a handful are stored, next to the same read of an array of the same shape and
 * chunking with every chunk stored; and the issue's own case, 2048×2048 chunks with two stored.
 * The arrays are at {@code DIR/sparse/<name>}.
 *
 * <p>On the absent-heavy row, {@code ceiling_mb_per_s} is the dense read's throughput, so its
 * ratio is how many times faster the read of the absent-heavy array is than that of the dense one.
 */
final class SparseBench {
    static final String ABSENT_HEAVY = "sparse/absent-heavy";
    static final String DENSE = "sparse/dense";
    static final String ISSUE = "sparse/4194304-chunks-2-present";
    /** The stored chunks of the absent-heavy array, as fractions of its side. */
    private static final double[][] PRESENT = {{0.1, 0.2}, {0.5, 0.5}, {0.99, 0.01}, {0.3, 0.97}};
    private static final long ISSUE_SIDE = 2048;

    private final Workbench bench;

    SparseBench(Workbench bench) {
        this.bench = bench;
    }

    /** The side of the absent-heavy and dense arrays, in chunks of one element. */
    private long side() {
        return switch (bench.scale().name()) {
            case "full" -> 256;
            case "quick" -> 128;
            default -> 64;
        };
    }

    List<Row> run() throws Exception {
        List<Row> rows = new ArrayList<>();
        boolean pair = bench.selected().test(ABSENT_HEAVY) || bench.selected().test(DENSE);
        boolean issue = bench.selected().test(ISSUE);
        if (!pair && !issue) {
            return rows;
        }
        try (Zarr zarr = Zarr.builder().threads(bench.threads()).build()) {
            CountingStore store = new CountingStore(zarr.openStore(bench.dir().resolve("sparse").toString()));
            if (pair) {
                rows.addAll(pair(zarr, store));
            }
            if (issue) {
                rows.add(issueCase(zarr, store));
            }
        }
        return rows;
    }

    private List<Row> pair(Zarr zarr, CountingStore store) throws Exception {
        long side = side();
        long[] shape = {side, side};
        bench.log().line("sparse: uint8 %s, chunks [1, 1] (%d chunks), %d stored, next to all stored; %d thread(s)",
                Arrays.toString(shape), side * side, PRESENT.length, bench.threads());
        ZarrArray sparse = zarr.array(DataTypes.UINT8, shape).chunks(1, 1).overwrite(true).create(store, "/absent-heavy");
        byte[] expected = new byte[(int) (side * side)];
        for (int i = 0; i < PRESENT.length; i++) {
            long y = (long) (PRESENT[i][0] * side);
            long x = (long) (PRESENT[i][1] * side);
            sparse.write(new long[] {y, x}, new long[] {1, 1}, new byte[] {(byte) (i + 1)});
            expected[(int) (y * side + x)] = (byte) (i + 1);
        }
        byte[] all = new byte[(int) (side * side)];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) (1 + i % 251);
        }
        ZarrArray dense = zarr.array(DataTypes.UINT8, shape).chunks(1, 1).overwrite(true).create(store, "/dense");
        dense.write(new long[2], shape, all);

        List<double[]> runs = new ArrayList<>();
        long[] requests = new long[2];
        NdArray[] back = new NdArray[2];
        long start = System.nanoTime();
        while (runs.size() < bench.scale().warmups() + bench.scale().runs()
                && (runs.isEmpty() || (System.nanoTime() - start) / 1e9 < bench.scale().runSeconds())) {
            double[] run = new double[2];
            store.takeCount();
            run[0] = Timing.time(() -> back[0] = sparse.read());
            requests[0] = store.takeCount();
            run[1] = Timing.time(() -> back[1] = dense.read());
            requests[1] = store.takeCount();
            runs.add(run);
        }
        if (!Arrays.equals(back[0].toByteArray(), expected) || !Arrays.equals(back[1].toByteArray(), all)) {
            throw new BenchFailure("sparse: zarrj read back other values than it wrote");
        }
        List<double[]> measured = runs.subList(Math.min(bench.scale().warmups(), runs.size() - 1), runs.size());
        Row denseRow = new Row(DENSE, "read");
        denseRow.threads = bench.threads();
        denseRow.timed(median(measured, 1), all.length);
        denseRow.storeRequests = requests[1];
        Row sparseRow = new Row(ABSENT_HEAVY, "read");
        sparseRow.threads = bench.threads();
        sparseRow.timed(median(measured, 0), all.length);
        sparseRow.ceilingMbPerS = denseRow.mbPerS;
        sparseRow.storeRequests = requests[0];
        bench.log().line("%s", String.format(Locale.ROOT, "%s read: %.4f s, %d store request(s); %s read: %.4f s, %d store"
                + " request(s); absent-heavy %.1fx faster", ABSENT_HEAVY, sparseRow.seconds, requests[0], DENSE,
                denseRow.seconds, requests[1], sparseRow.ratioToCeiling()));
        List<Row> rows = new ArrayList<>();
        if (bench.selected().test(ABSENT_HEAVY)) {
            rows.add(sparseRow);
        }
        if (bench.selected().test(DENSE)) {
            rows.add(denseRow);
        }
        return rows;
    }

    /** The issue's case: 4,194,304 chunks of one element, two of them stored, read whole. */
    private Row issueCase(Zarr zarr, CountingStore store) throws Exception {
        long[] shape = {ISSUE_SIDE, ISSUE_SIDE};
        ZarrArray a = zarr.array(DataTypes.UINT8, shape).chunks(1, 1).overwrite(true).create(store, "/" + ISSUE.substring("sparse/".length()));
        a.write(new long[] {3, 5}, new long[] {1, 1}, new byte[] {7});
        a.write(new long[] {2000, 100}, new long[] {1, 1}, new byte[] {9});
        double[] seconds = new double[Math.max(1, bench.scale().runs())];
        NdArray[] back = new NdArray[1];
        long requests = 0;
        for (int r = -bench.scale().warmups(); r < seconds.length; r++) {
            store.takeCount();
            double s = Timing.time(() -> back[0] = a.read());
            requests = store.takeCount();
            if (r >= 0) {
                seconds[r] = s;
            }
        }
        byte[] got = back[0].toByteArray();
        int nonZero = 0;
        for (byte b : got) {
            nonZero += b != 0 ? 1 : 0;
        }
        if (nonZero != 2 || got[3 * (int) ISSUE_SIDE + 5] != 7 || got[2000 * (int) ISSUE_SIDE + 100] != 9) {
            throw new BenchFailure(ISSUE + ": zarrj read back other values than it wrote");
        }
        Row row = new Row(ISSUE, "read");
        row.threads = bench.threads();
        row.timed(Timing.median(seconds), got.length);
        row.storeRequests = requests;
        bench.log().line("%s", String.format(Locale.ROOT, "%s read: %.4f s, %d store request(s)", ISSUE, row.seconds,
                requests));
        return row;
    }

    private static double median(List<double[]> runs, int column) {
        return Timing.median(runs.stream().mapToDouble(r -> r[column]).toArray());
    }
}
