package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.datatype.DataType;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link NdArray#copy} against a naive element-by-element reference. */
class NdArrayCopyTest {

    /** Copies element by element, the obvious way. */
    static void referenceCopy(byte[] src, long[] srcShape, long[] srcOffset,
                              byte[] dst, long[] dstShape, long[] dstOffset, long[] region, int es) {
        int rank = region.length;
        long count = 1;
        for (long r : region) {
            count *= r;
        }
        long[] idx = new long[rank];
        for (long n = 0; n < count; n++) {
            long s = 0;
            long d = 0;
            for (int k = 0; k < rank; k++) {
                s = s * srcShape[k] + srcOffset[k] + idx[k];
                d = d * dstShape[k] + dstOffset[k] + idx[k];
            }
            System.arraycopy(src, (int) (s * es), dst, (int) (d * es), es);
            for (int k = rank - 1; k >= 0; k--) {
                if (++idx[k] < region[k]) {
                    break;
                }
                idx[k] = 0;
            }
        }
    }

    private static NdArray randomArray(Random rnd, DataType type, long[] shape) {
        NdArray a = NdArray.allocate(type, shape);
        byte[] b = new byte[a.byteSize()];
        rnd.nextBytes(b);
        a.bytes().put(b);
        return a;
    }

    /** Where an array's bytes lie: the copy takes a different bulk copy for each pair. */
    enum Backing { HEAP, HEAP_AT_AN_OFFSET, DIRECT, READ_ONLY }

    private static NdArray randomArray(Random rnd, DataType type, long[] shape, Backing backing) {
        NdArray a = randomArray(rnd, type, shape);
        int size = a.byteSize();
        ByteBuffer bytes = switch (backing) {
            case HEAP -> ByteBuffer.allocate(size);
            // Inside a larger array whose bytes around it must stay as they are.
            case HEAP_AT_AN_OFFSET -> ByteBuffer.wrap(new byte[size + 13], 7, size).slice();
            case DIRECT, READ_ONLY -> ByteBuffer.allocateDirect(size);
        };
        bytes.put(a.bytes().duplicate()).flip();
        if (backing == Backing.READ_ONLY) {
            bytes = ByteBuffer.allocate(size).put(bytes).flip().asReadOnlyBuffer();
        }
        return NdArray.wrap(type, bytes, shape);
    }

    /** Every pair of backings (a read-only one only as the source), in random copies of every rank. */
    @Test
    void randomizedAcrossBackings() {
        Random rnd = new Random(0xBAC);
        Backing[] all = Backing.values();
        int[] pairs = new int[all.length * all.length];
        for (int t = 0; t < 4000; t++) {
            DataType type = rnd.nextBoolean() ? TestTypes.INT32 : TestTypes.FLOAT64;
            int rank = 1 + rnd.nextInt(4);
            long[] srcShape = new long[rank];
            long[] dstShape = new long[rank];
            long[] region = new long[rank];
            long[] srcOffset = new long[rank];
            long[] dstOffset = new long[rank];
            for (int d = 0; d < rank; d++) {
                srcShape[d] = 1 + rnd.nextInt(6);
                dstShape[d] = 1 + rnd.nextInt(6);
                region[d] = 1 + rnd.nextInt((int) Math.min(srcShape[d], dstShape[d]));
                srcOffset[d] = rnd.nextInt((int) (srcShape[d] - region[d] + 1));
                dstOffset[d] = rnd.nextInt((int) (dstShape[d] - region[d] + 1));
            }
            Backing from = all[rnd.nextInt(all.length)];
            Backing to = all[rnd.nextInt(all.length - 1)];
            NdArray src = randomArray(rnd, type, srcShape, from);
            NdArray dst = randomArray(rnd, type, dstShape, to);
            ByteBuffer around = to == Backing.HEAP_AT_AN_OFFSET ? ByteBuffer.wrap(dst.bytes().array().clone()) : null;
            check(src, srcOffset, dst, dstOffset, region, from + " " + Arrays.toString(srcShape) + " @"
                    + Arrays.toString(srcOffset) + " to " + to + " " + Arrays.toString(dstShape) + " @"
                    + Arrays.toString(dstOffset) + " region " + Arrays.toString(region));
            if (around != null) {
                byte[] after = dst.bytes().array();
                int start = dst.bytes().arrayOffset();
                assertArrayEquals(Arrays.copyOfRange(around.array(), 0, start), Arrays.copyOfRange(after, 0, start),
                        "bytes before the array's own");
                int end = start + dst.byteSize();
                assertArrayEquals(Arrays.copyOfRange(around.array(), end, after.length),
                        Arrays.copyOfRange(after, end, after.length), "bytes after the array's own");
            }
            pairs[from.ordinal() * all.length + to.ordinal()]++;
        }
        for (Backing from : all) {
            for (Backing to : Arrays.copyOf(all, all.length - 1)) {
                assertTrue(pairs[from.ordinal() * all.length + to.ordinal()] > 100, from + " to " + to);
            }
        }
    }

    /** Checks one copy against the reference; every byte of dst, inside the region or not. */
    private static void check(NdArray src, long[] srcOffset, NdArray dst, long[] dstOffset, long[] region,
                              String what) {
        byte[] expected = dst.toByteArray();
        byte[] srcBefore = src.toByteArray();
        referenceCopy(srcBefore, src.shape(), srcOffset, expected, dst.shape(), dstOffset, region,
                src.dataType().size());
        RegionCopy.copy(src, Region.of(srcOffset, region), dst, dstOffset);
        assertArrayEquals(expected, dst.toByteArray(), what);
        assertArrayEquals(srcBefore, src.toByteArray(), "source unchanged: " + what);
    }

    @ParameterizedTest(name = "element size {0}")
    @ValueSource(ints = {1, 2, 4, 8, 16})
    void randomizedAgainstReference(int elementSize) {
        DataType type = TestTypes.BY_SIZE.stream().filter(t -> t.size() == elementSize).findFirst().orElseThrow();
        Random rnd = new Random(0xC0FFEE + elementSize);
        int trials = 0;
        int merged = 0;
        int empty = 0;
        for (int t = 0; t < 3000; t++) {
            int rank = rnd.nextInt(5);
            long[] srcShape = new long[rank];
            long[] dstShape = new long[rank];
            long[] region = new long[rank];
            long[] srcOffset = new long[rank];
            long[] dstOffset = new long[rank];
            // From some dimension on, make the region span both arrays whole, so that runs merge.
            int wholeFrom = rnd.nextInt(3) == 0 ? rnd.nextInt(rank + 1) : rank;
            for (int d = 0; d < rank; d++) {
                if (d >= wholeFrom) {
                    long n = 1 + rnd.nextInt(4);
                    srcShape[d] = n;
                    dstShape[d] = n;
                    region[d] = n;
                    continue;
                }
                srcShape[d] = rnd.nextInt(6);
                dstShape[d] = rnd.nextInt(6);
                long max = Math.min(srcShape[d], dstShape[d]);
                region[d] = rnd.nextInt(10) == 0 ? 0 : (max == 0 ? 0 : rnd.nextInt((int) max + 1));
                srcOffset[d] = rnd.nextInt((int) (srcShape[d] - region[d] + 1));
                dstOffset[d] = rnd.nextInt((int) (dstShape[d] - region[d] + 1));
            }
            NdArray src = randomArray(rnd, type, srcShape);
            NdArray dst = randomArray(rnd, type, dstShape);
            String what = "src " + Arrays.toString(srcShape) + " @" + Arrays.toString(srcOffset)
                    + " dst " + Arrays.toString(dstShape) + " @" + Arrays.toString(dstOffset)
                    + " region " + Arrays.toString(region);
            check(src, srcOffset, dst, dstOffset, region, what);
            trials++;
            if (wholeFrom < rank - 1) {
                merged++;
            }
            if (Arrays.stream(region).anyMatch(r -> r == 0)) {
                empty++;
            }
        }
        assertTrue(trials == 3000 && merged > 100 && empty > 100, "cases: merged=" + merged + " empty=" + empty);
    }

    @Test
    void wholeTrailingDimensionsMergeIntoOneRun() {
        Random rnd = new Random(1);
        NdArray src = randomArray(rnd, TestTypes.INT32, new long[] {4, 3, 2});
        NdArray dst = randomArray(rnd, TestTypes.INT32, new long[] {5, 3, 2});
        check(src, new long[] {1, 0, 0}, dst, new long[] {3, 0, 0}, new long[] {2, 3, 2}, "rows 1..3 to 3..5");
        // The trailing dimension is whole in the source only: runs must not merge.
        NdArray narrow = randomArray(rnd, TestTypes.INT32, new long[] {4, 3, 2});
        NdArray wide = randomArray(rnd, TestTypes.INT32, new long[] {4, 3, 5});
        check(narrow, new long[] {0, 0, 0}, wide, new long[] {1, 1, 3}, new long[] {3, 2, 2}, "into wider rows");
        check(wide, new long[] {1, 0, 1}, narrow, new long[] {0, 1, 0}, new long[] {3, 2, 2}, "from wider rows");
    }

    @Test
    void scalarCopy() {
        NdArray src = NdArray.copyOf(TestTypes.FLOAT64, new double[] {2.5}, new long[0]);
        NdArray dst = NdArray.allocate(TestTypes.FLOAT64);
        RegionCopy.copy(src, Region.of(new long[0], new long[0]), dst, new long[0]);
        assertArrayEquals(new double[] {2.5}, dst.toDoubleArray());
    }

    @Test
    void copyBetweenViewsUsesTheirOwnOrigin() {
        NdArray a = NdArray.copyOf(TestTypes.INT16, new short[] {0, 1, 2, 3, 4, 5, 6, 7}, 4, 2);
        NdArray b = NdArray.allocate(TestTypes.INT16, 4, 2);
        RegionCopy.copy(a.slice(1, 3), Region.of(new long[] {0, 0}, new long[] {2, 2}), b.slice(2, 4), new long[] {0, 0});
        assertArrayEquals(new short[] {0, 0, 0, 0, 2, 3, 4, 5}, b.toShortArray());
    }

    @Test
    void copyBetweenTypesOfOneSizeCopiesBits() {
        NdArray f = NdArray.copyOf(TestTypes.FLOAT32, new float[] {1f}, 1);
        NdArray i = NdArray.allocate(TestTypes.INT32, 1);
        RegionCopy.copy(f, Region.of(new long[] {0}, new long[] {1}), i, new long[] {0});
        assertArrayEquals(new int[] {Float.floatToRawIntBits(1f)}, i.toIntArray());
    }

    @Test
    void boundsViolationsRefused() {
        NdArray src = NdArray.allocate(TestTypes.UINT8, 3, 4);
        NdArray dst = NdArray.allocate(TestTypes.UINT8, 5, 2);
        long[] z = {0, 0};
        refused(src, new long[] {0, 3}, dst, z, new long[] {1, 2}, "source overflows dim 1");
        refused(src, z, dst, new long[] {4, 0}, new long[] {2, 1}, "destination overflows dim 0");
        refused(src, z, dst, z, new long[] {1, 3}, "region wider than destination");
        refused(src, new long[] {-1, 0}, dst, z, new long[] {1, 1}, "negative source offset");
        refused(src, z, dst, new long[] {0, -1}, new long[] {1, 1}, "negative destination offset");
        refused(src, z, dst, z, new long[] {1, -1}, "negative region");
        refused(src, new long[] {3, 0}, dst, z, new long[] {1, 1}, "offset at the end with a non-empty region");
        refused(src, z, dst, z, new long[] {1}, "region of another rank");
        refused(src, new long[] {0}, dst, z, new long[] {1, 1}, "source offset of another rank");
        refused(src, z, dst, new long[] {0, 0, 0}, new long[] {1, 1}, "destination offset of another rank");
        refused(src, z, NdArray.allocate(TestTypes.INT16, 5, 2), z, new long[] {1, 1}, "element sizes differ");
        refused(src, z, NdArray.allocate(TestTypes.UINT8, 5), new long[] {0}, new long[] {1}, "ranks differ");
        assertArrayEquals(new byte[10], dst.toByteArray(), "nothing written by refused copies");
    }

    @Test
    void emptyRegionsAreStillBoundsChecked() {
        NdArray src = NdArray.allocate(TestTypes.UINT8, 3, 2);
        NdArray dst = NdArray.allocate(TestTypes.UINT8, 3, 2);
        long[] z = {0, 0};
        // Order of the dimensions must not matter: both lie outside.
        refused(src, z, dst, z, new long[] {5, 0}, "empty region, too long in dim 0");
        refused(src, z, dst, z, new long[] {0, 5}, "empty region, too long in dim 1");
        refused(src, new long[] {0, 9}, dst, z, new long[] {0, 0}, "empty region at an offset outside");
        // An empty region at the very end is inside.
        RegionCopy.copy(src, Region.of(new long[] {3, 2}, new long[] {0, 0}), dst, new long[] {3, 2});
    }

    @Test
    void offsetsNearLongMaxDoNotWrapAround() {
        NdArray src = NdArray.copyOf(TestTypes.UINT8, new byte[] {1, 2, 3, 4}, 2, 2);
        NdArray dst = NdArray.allocate(TestTypes.UINT8, 2, 2);
        refused(src, new long[] {1, Long.MAX_VALUE}, dst, new long[] {0, 0}, new long[] {1, 1}, "source offset");
        refused(src, new long[] {0, 0}, dst, new long[] {1, Long.MAX_VALUE}, new long[] {1, 1}, "destination offset");
        assertArrayEquals(new byte[4], dst.toByteArray());
    }

    private static void refused(NdArray src, long[] so, NdArray dst, long[] dO, long[] region, String what) {
        assertThrows(IllegalArgumentException.class, () -> RegionCopy.copy(src, Region.of(so, region), dst, dO), what);
    }
}
