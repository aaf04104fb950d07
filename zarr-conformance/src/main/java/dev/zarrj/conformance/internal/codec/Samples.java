package dev.zarrj.conformance.internal.codec;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The shapes and sample data the codec contracts use: deterministic, so a failure reproduces, and
 * mixed, so that compressors see both runs they shrink and noise they cannot.
 */
public final class Samples {
    /** Decoded sizes above this are "heavy": the costly rules check fewer variants of them. */
    public static final long HEAVY_BYTES = 256 * 1024;

    /** The size of the large sample: at least this many bytes. */
    public static final long LARGE_BYTES = 4L * 1024 * 1024;

    private static final long CACHE_BYTES = 160L * 1024 * 1024;
    private static final java.util.LinkedHashMap<String, byte[]> CACHE = new java.util.LinkedHashMap<>(64, 0.75f, true);
    private static long cached;

    private Samples() {}

    /**
     * The default shapes: 0-d, 1-d of length 1 and of an odd length, 2-d and 3-d shapes with
     * lengths of 1 and odd lengths, a medium 3-d shape, and one 2-d shape of at least 4 MiB.
     */
    public static List<long[]> defaultShapes(DataType dataType) {
        return List.of(new long[0], new long[] {1}, new long[] {17}, new long[] {3, 5}, new long[] {1, 31},
                new long[] {2, 3, 4}, new long[] {5, 1, 7}, new long[] {16, 33, 9}, largeShape(dataType, 1024, 1));
    }

    /**
     * A 2-d shape of {@code rows} rows whose column count is a multiple of {@code columnMultiple}
     * and that holds at least {@link #LARGE_BYTES} of {@code dataType}.
     */
    public static long[] largeShape(DataType dataType, long rows, long columnMultiple) {
        long bytesPerRow = (LARGE_BYTES + rows - 1) / rows;
        long columns = (bytesPerRow + dataType.size() - 1) / dataType.size();
        columns = (columns + columnMultiple - 1) / columnMultiple * columnMultiple;
        return new long[] {rows, columns};
    }

    /** A seed that depends only on the data type and shape, so every configuration sees the same data. */
    public static long seed(DataType dataType, long[] shape) {
        return 31L * dataType.name().hashCode() + Arrays.hashCode(shape) + 0x5eed;
    }

    /**
     * Sample data: the first eighth zero (so arrays of 16 or more elements hold a run of the
     * default fill value), then alternating stretches of 61 random elements and of a slowly
     * counting value. {@code bool} elements are 0 or 1.
     */
    public static NdArray array(DataType dataType, long[] shape, long seed) {
        NdArray a = NdArray.allocate(dataType, shape);
        a.bytes().put(bytes(dataType, shape, seed));
        return a;
    }

    /** Generated sample bytes, kept while they fit in {@link #CACHE_BYTES}: every rule uses the same samples. */
    private static byte[] bytes(DataType dataType, long[] shape, long seed) {
        String key = dataType.name() + Arrays.toString(shape) + seed;
        synchronized (CACHE) {
            byte[] b = CACHE.get(key);
            if (b != null) {
                return b;
            }
        }
        byte[] b = generate(dataType, shape, seed);
        synchronized (CACHE) {
            if (CACHE.put(key, b) == null) {
                cached += b.length;
            }
            var it = CACHE.values().iterator();
            while (cached > CACHE_BYTES && it.hasNext()) {
                cached -= it.next().length;
                it.remove();
            }
        }
        return b;
    }

    private static byte[] generate(DataType dataType, long[] shape, long seed) {
        int size = dataType.size();
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        byte[] b = new byte[Math.toIntExact(n * size)];
        SplittableRandom random = new SplittableRandom(seed);
        boolean bool = dataType.kind() == ElementKind.BOOL;
        long zeros = n >= 16 ? n / 8 : 0;
        for (long i = zeros; i < n; i++) {
            int o = (int) (i * size);
            boolean noise = (i / 61) % 2 == 0;
            if (bool) {
                b[o] = (byte) (noise ? random.nextInt(2) : (i / 5) % 2);
            } else if (noise) {
                for (int k = 0; k < size; k++) {
                    b[o + k] = (byte) random.nextInt(256);
                }
            } else {
                long v = i / 5;
                for (int k = 0; k < size; k++) {
                    b[o + k] = (byte) (v >>> (8 * (k % 8)));
                }
            }
        }
        return b;
    }

    /** A shape as text, for labels. */
    public static String shape(long[] shape) {
        return Arrays.toString(shape);
    }
}
