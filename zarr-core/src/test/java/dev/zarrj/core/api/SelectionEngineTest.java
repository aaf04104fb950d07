package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The chunk-wise selection engine: results against a reference, and which chunks it asks for. */
class SelectionEngineTest {
    private static final Zarr ZARR = Zarr.builder().threads(3).build();
    private static final long[] SHAPE = {23, 17, 11};

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static ZarrArray filled(Store store, int[] reference) {
        ZarrArray a = ZARR.array(DataTypes.INT32, SHAPE).chunks(5, 4, 3).fillValue(-7).create(store, "/a");
        Random rnd = new Random(1);
        for (int i = 0; i < reference.length; i++) {
            reference[i] = rnd.nextInt(1000);
        }
        a.write(new long[3], SHAPE, reference);
        return a;
    }

    private static int at(int[] ref, long z, long y, long x) {
        return ref[(int) ((z * SHAPE[1] + y) * SHAPE[2] + x)];
    }

    private static DimSelection random(Random rnd, long length) {
        switch (rnd.nextInt(5)) {
            case 0: {
                long step = rnd.nextInt(7) - 3;
                step = step == 0 ? 1 : step;
                return Slice.of(rnd.nextInt((int) length + 4) - 2, rnd.nextInt((int) length + 4) - 2, step);
            }
            case 1: {
                long[] l = new long[1 + rnd.nextInt(9)];
                for (int i = 0; i < l.length; i++) {
                    l[i] = rnd.nextInt((int) (2 * length)) - length; // negatives, repeats, any order
                }
                return IndexList.of(l);
            }
            case 2: {
                boolean[] m = new boolean[(int) length];
                for (int i = 0; i < m.length; i++) {
                    m[i] = rnd.nextInt(3) == 0;
                }
                return Mask.of(m);
            }
            case 3:
                return Index.of(rnd.nextInt((int) length));
            default:
                return Slice.step(rnd.nextBoolean() ? 2 : -1);
        }
    }

    private static long[] shapeOf(DimSelection[] dims, long[][] idx) {
        List<Long> s = new ArrayList<>();
        for (int d = 0; d < dims.length; d++) {
            if (dims[d].keepsDimension()) {
                s.add((long) idx[d].length);
            }
        }
        return s.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void orthogonalReadsMatchTheReference() {
        int[] ref = new int[23 * 17 * 11];
        ZarrArray a = filled(ZARR.openStore("memory:"), ref);
        Random rnd = new Random(7);
        for (int round = 0; round < 300; round++) {
            DimSelection[] dims = new DimSelection[3];
            long[][] idx = new long[3][];
            for (int d = 0; d < 3; d++) {
                dims[d] = random(rnd, SHAPE[d]);
                idx[d] = dims[d].indices(SHAPE[d]);
            }
            NdArray got = a.read(Selection.of(dims));
            assertArrayEquals(shapeOf(dims, idx), got.shape());
            int k = 0;
            for (long z : idx[0]) {
                for (long y : idx[1]) {
                    for (long x : idx[2]) {
                        assertEquals(at(ref, z, y, x), got.getLong(k++), "round " + round + " " + List.of(dims));
                    }
                }
            }
            assertEquals(k, got.elementCount());
        }
    }

    @Test
    void orthogonalWritesMatchTheReferenceLaterOccurrenceWins() {
        int[] ref = new int[23 * 17 * 11];
        ZarrArray a = filled(ZARR.openStore("memory:"), ref);
        Random rnd = new Random(8);
        for (int round = 0; round < 150; round++) {
            DimSelection[] dims = new DimSelection[3];
            long[][] idx = new long[3][];
            for (int d = 0; d < 3; d++) {
                dims[d] = random(rnd, SHAPE[d]);
                idx[d] = dims[d].indices(SHAPE[d]);
            }
            Selection sel = Selection.of(dims);
            long[] shape = shapeOf(dims, idx);
            int n = idx[0].length * idx[1].length * idx[2].length;
            int[] values = new int[n];
            int k = 0;
            for (long z : idx[0]) {
                for (long y : idx[1]) {
                    for (long x : idx[2]) {
                        values[k] = rnd.nextInt(1000);
                        ref[(int) ((z * SHAPE[1] + y) * SHAPE[2] + x)] = values[k++];
                    }
                }
            }
            a.write(sel, NdArray.copyOf(DataTypes.INT32, values, shape));
            assertArrayEquals(ref, a.read().toIntArray(), "round " + round + " " + sel);
        }
    }
}
