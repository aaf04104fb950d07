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
    private static final java.util.LinkedHashMap<String, Object[]> CACHE = new java.util.LinkedHashMap<>(64, 0.75f, true);
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
     * counting value. {@code bool} elements are 0 or 1. A variable-length type ({@code string},
     * {@code bytes}) gets {@code String} or {@code byte[]} elements laid out the same way.
     */
    public static NdArray array(DataType dataType, long[] shape, long seed) {
        NdArray a = NdArray.allocate(dataType, shape);
        Object sample = cached(dataType, shape, seed);
        if (sample instanceof String[] strings) {
            a.copyFrom(strings);
        } else if (sample instanceof byte[][] byteStrings) {
            a.copyFrom(byteStrings);
        } else {
            a.bytes().put((byte[]) sample);
        }
        return a;
    }

    /**
     * Generated sample elements (bytes, or for a variable-length type a {@code String[]} or
     * {@code byte[][]}), kept while they fit in {@link #CACHE_BYTES}: every rule uses the same
     * samples.
     */
    private static Object cached(DataType dataType, long[] shape, long seed) {
        String key = dataType.name() + dataType.configuration() + Arrays.toString(shape) + seed;
        synchronized (CACHE) {
            Object[] b = CACHE.get(key);
            if (b != null) {
                return b[0];
            }
        }
        Object sample;
        long size;
        if (dataType.kind().isVariableLength()) {
            sample = generateElements(dataType, shape, seed);
            size = 0;
            for (Object e : (Object[]) sample) {
                size += 16 + (e instanceof String s ? 2L * s.length() : ((byte[]) e).length);
            }
        } else {
            sample = generate(dataType, shape, seed);
            size = ((byte[]) sample).length;
        }
        synchronized (CACHE) {
            if (CACHE.put(key, new Object[] {sample, size}) == null) {
                cached += size;
            }
            var it = CACHE.values().iterator();
            while (cached > CACHE_BYTES && it.hasNext()) {
                cached -= (Long) it.next()[1];
                it.remove();
            }
        }
        return sample;
    }

    /**
     * Elements of a variable-length type, laid out as {@link #generate} lays out bytes: the first
     * eighth empty (the default fill value), then alternating stretches of 61 random elements and
     * of a slowly counting one. Random strings mix ASCII, Latin, Greek, Cyrillic, CJK, controls
     * (U+0000 included) and supplementary code points (emoji; two chars each in Java); about one
     * in 16 is empty and one in 32 is long (hundreds of code points). Byte strings are random
     * bytes of the same lengths.
     */
    private static Object[] generateElements(DataType dataType, long[] shape, long seed) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        boolean text = dataType.kind() == ElementKind.STRING;
        Object[] out = text ? new String[Math.toIntExact(n)] : new byte[Math.toIntExact(n)][];
        SplittableRandom random = new SplittableRandom(seed);
        long zeros = n >= 16 ? n / 8 : 0;
        for (int i = 0; i < n; i++) {
            boolean noise = (i / 61) % 2 == 0;
            if (i < zeros) {
                out[i] = text ? "" : new byte[0];
            } else if (!noise) {
                String counting = "item " + (i / 5);
                out[i] = text ? counting : counting.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            } else {
                int r = random.nextInt(32);
                int length = r < 2 ? 0 : r == 2 ? 100 + random.nextInt(500) : 1 + random.nextInt(12);
                out[i] = text ? randomText(random, length) : randomBytes(random, length);
            }
        }
        return out;
    }

    private static String randomText(SplittableRandom random, int codePoints) {
        StringBuilder sb = new StringBuilder(codePoints * 2);
        for (int k = 0; k < codePoints; k++) {
            int kind = random.nextInt(20);
            int cp;
            if (kind < 8) {
                cp = 0x20 + random.nextInt(0x5f);               // ASCII
            } else if (kind < 10) {
                cp = 0xa0 + random.nextInt(0x250 - 0xa0);       // Latin-1 and Latin Extended
            } else if (kind < 11) {
                cp = 0x370 + random.nextInt(0x500 - 0x370);     // Greek, Cyrillic
            } else if (kind < 14) {
                cp = 0x4e00 + random.nextInt(0x9fff - 0x4e00);  // CJK
            } else if (kind < 17) {
                cp = 0x1f300 + random.nextInt(0x1fb00 - 0x1f300); // emoji: supplementary, a surrogate pair
            } else if (kind < 18) {
                cp = 0x10000 + random.nextInt(0x110000 - 0x10000); // any supplementary code point
            } else if (kind < 19) {
                cp = random.nextInt(0x20);                      // controls, U+0000 included
            } else {
                cp = 0xe000 + random.nextInt(0x10000 - 0xe000); // private use to U+FFFF, past the surrogates
            }
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    private static byte[] randomBytes(SplittableRandom random, int length) {
        byte[] b = new byte[length];
        for (int k = 0; k < length; k++) {
            b[k] = (byte) random.nextInt(256);
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
