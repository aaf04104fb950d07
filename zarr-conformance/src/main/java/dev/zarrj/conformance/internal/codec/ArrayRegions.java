package dev.zarrj.conformance.internal.codec;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * Regions of a chunk, destinations with a border around them, and the checks the array rules
 * share: that a partial decoder gives the right regions, and that it answers "absent" for a value
 * that is not stored.
 */
public final class ArrayRegions {
    /** What the border of a destination and lent memory are filled with. */
    public static final byte SENTINEL = (byte) 0xA5;

    /** The partial decoder of an array that is not stored. */
    public static final ArrayPartialDecoder ABSENT_ARRAY = region -> Optional.empty();

    /** A call that decodes a region into {@code destination} at {@code at}; false when the value is absent. */
    @FunctionalInterface
    public interface IntoCall {
        boolean decodeInto(NdArray destination, long[] at);
    }

    private ArrayRegions() {}

    /** The whole chunk, its first and last element, and {@code random} random regions. */
    public static List<Region> regions(ChunkSpec spec, int random, long seed) {
        long[] shape = spec.shape();
        int rank = shape.length;
        List<Region> out = new ArrayList<>();
        out.add(Region.whole(shape));
        if (spec.elementCount() == 0) {
            return out;
        }
        long[] last = new long[rank];
        for (int d = 0; d < rank; d++) {
            last[d] = shape[d] - 1;
        }
        out.add(Region.of(new long[rank], ones(rank)));
        out.add(Region.of(last, ones(rank)));
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < random; i++) {
            long[] offset = new long[rank];
            long[] size = new long[rank];
            for (int d = 0; d < rank; d++) {
                offset[d] = r.nextLong(shape[d]);
                size[d] = 1 + r.nextLong(shape[d] - offset[d]);
            }
            out.add(Region.of(offset, size));
        }
        return out;
    }

    /** {@code rank} ones: the offset of the region inside a {@link #bordered} array. */
    public static long[] ones(int rank) {
        long[] out = new long[rank];
        Arrays.fill(out, 1);
        return out;
    }

    /**
     * An array one element larger than {@code shape} on every side, every byte {@link #SENTINEL}
     * (for a variable-length type, every element {@link #sentinel}).
     */
    public static NdArray bordered(dev.zarrj.api.datatype.DataType dataType, long[] shape) {
        long[] larger = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            larger[d] = shape[d] + 2;
        }
        NdArray out = NdArray.allocate(dataType, larger);
        if (out.holdsObjects()) {
            out.fill(sentinel(dataType));
            return out;
        }
        ByteBuffer bytes = out.bytes();
        for (int i = 0; i < bytes.limit(); i++) {
            bytes.put(i, SENTINEL);
        }
        return out;
    }

    /**
     * The element a variable-length destination's border holds: text no sample has, or the
     * byte string {@code A5 A5 A5}.
     */
    public static dev.zarrj.api.datatype.FillValue sentinel(dev.zarrj.api.datatype.DataType dataType) {
        return dev.zarrj.api.datatype.FillValue.ofBytes(dataType.kind() == dev.zarrj.api.datatype.ElementKind.STRING
                ? "\u00a5sentinel\u00a5".getBytes(java.nio.charset.StandardCharsets.UTF_8)
                : new byte[] {SENTINEL, SENTINEL, SENTINEL});
    }

    /** A copy of an array. */
    public static NdArray copyOf(NdArray a) {
        NdArray out = NdArray.allocate(a.dataType(), a.shape());
        if (a.holdsObjects()) {
            RegionCopy.copy(a, Region.whole(a.shape()), out, new long[a.rank()]);
            return out;
        }
        out.bytes().put(a.bytes());
        return out;
    }

    /**
     * The elements of an array of objects as a view of the same shape whose elements start at
     * index {@code before} of a larger array's storage, with {@code after} more behind them; the
     * elements around it are {@link #sentinel}s.
     */
    public static NdArray viewInsideLarger(NdArray a, int before, int after) {
        long n = a.elementCount();
        NdArray larger = NdArray.allocate(a.dataType(), before + n + after);
        larger.fill(sentinel(a.dataType()));
        RegionCopy.copy(a.reshape(n), Region.whole(new long[] {n}), larger, new long[] {before});
        return larger.slice(before, before + n).reshape(a.shape());
    }

    /**
     * Runs {@code call} on a {@link #bordered} destination for {@code region} and returns how it
     * differs from {@code region} of {@code x} at offset 1 inside the untouched border; empty
     * when it does not.
     */
    public static String intoBordered(NdArray x, Region region, IntoCall call) {
        NdArray dst = bordered(x.dataType(), region.shape());
        long[] at = ones(region.rank());
        NdArray expected = copyOf(dst);
        RegionCopy.copy(x, region, expected, at);
        if (!call.decodeInto(dst, at)) {
            return "it answered that the value is absent";
        }
        return Buffers.difference(expected, dst);
    }

    /**
     * Throws unless the partial decoder of a stored value gives each region of {@code x}, through
     * {@code decode} and through {@code decodeInto} into a bordered destination.
     */
    public static void checkPartialDecoder(NdArray x, ChunkSpec spec, ArrayPartialDecoder decoder, int random,
                                           long seed) {
        for (Region region : regions(spec, random, seed)) {
            NdArray got = decoder.decode(region).orElseThrow(() -> Failures.violation("region " + region
                    + ": decode answered that the stored value is absent"));
            String d = Buffers.difference(x.region(region), got);
            if (!d.isEmpty()) {
                throw Failures.violation("region " + region + ": " + d);
            }
            d = intoBordered(x, region, (dst, at) -> decoder.decodeInto(region, dst, at));
            if (!d.isEmpty()) {
                throw Failures.violation("region " + region + " decoded by decodeInto at offset 1: " + d);
            }
        }
    }

    /**
     * Throws unless the decoder's {@code innerChunkShape}, when present, has the chunk's rank with
     * each entry positive and dividing the chunk's shape, and decoding exactly one inner chunk's
     * region (the first, the last and random ones), through {@code decode} and through
     * {@code decodeInto} into a bordered destination, gives that part of {@code x}.
     */
    public static void checkInnerChunkShape(NdArray x, ChunkSpec spec, ArrayPartialDecoder decoder, int random,
                                            long seed) {
        Optional<long[]> declared = decoder.innerChunkShape();
        if (declared == null) {
            throw Failures.violation("innerChunkShape() returned null, not an Optional");
        }
        if (declared.isEmpty()) {
            return;
        }
        long[] inner = declared.get();
        long[] shape = spec.shape();
        if (inner.length != shape.length) {
            throw Failures.violation("innerChunkShape() " + java.util.Arrays.toString(inner) + " has rank "
                    + inner.length + ", the chunk " + shape.length);
        }
        long[] per = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            if (inner[d] <= 0 || shape[d] % inner[d] != 0) {
                throw Failures.violation("innerChunkShape() " + java.util.Arrays.toString(inner)
                        + " does not divide the chunk shape " + java.util.Arrays.toString(shape) + " in dimension " + d);
            }
            per[d] = shape[d] / inner[d];
        }
        long count = 1;
        for (long p : per) {
            count *= p;
        }
        if (count == 0) {
            return;
        }
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        List<Long> picks = new java.util.ArrayList<>(List.of(0L, count - 1));
        for (int i = 0; i < random; i++) {
            picks.add(rnd.nextLong(count));
        }
        for (long pick : picks) {
            long[] offset = new long[shape.length];
            long rest = pick;
            for (int d = shape.length - 1; d >= 0; d--) {
                offset[d] = rest % per[d] * inner[d];
                rest /= per[d];
            }
            Region region = Region.of(offset, inner.clone());
            NdArray got = decoder.decode(region).orElseThrow(() -> Failures.violation("inner chunk " + region
                    + ": decode answered that the stored value is absent"));
            String d = Buffers.difference(x.region(region), got);
            if (!d.isEmpty()) {
                throw Failures.violation("inner chunk " + region + " of innerChunkShape() " + java.util.Arrays.toString(inner)
                        + ": " + d);
            }
            d = intoBordered(x, region, (dst, at) -> decoder.decodeInto(region, dst, at));
            if (!d.isEmpty()) {
                throw Failures.violation("inner chunk " + region + " decoded by decodeInto at offset 1: " + d);
            }
        }
    }

    /**
     * Throws unless the partial decoder of a value that is not stored answers absent for each
     * region: {@code decode} returns empty, {@code decodeInto} returns false and leaves its
     * destination as it was, and neither throws.
     */
    public static void checkAbsent(ChunkSpec spec, ArrayPartialDecoder decoder, long seed) {
        for (Region region : regions(spec, 2, seed)) {
            expectAbsent("decode(" + region + ")", () -> decoder.decode(region));
            NdArray dst = bordered(spec.dataType(), region.shape());
            NdArray before = copyOf(dst);
            boolean stored = answerOfAbsent("decodeInto(" + region + ")", "false",
                    () -> decoder.decodeInto(region, dst, ones(region.rank())));
            if (stored) {
                throw Failures.violation("decodeInto(" + region + ") of an absent value returned true");
            }
            String d = Buffers.difference(before, dst);
            if (!d.isEmpty()) {
                throw Failures.violation("decodeInto(" + region + ") of an absent value changed its destination: "
                        + d);
            }
        }
    }

    /** Throws unless {@code read}, a read of an absent value, returns empty without throwing. */
    public static void expectAbsent(String call, Callable<Optional<?>> read) {
        Optional<?> got = answerOfAbsent(call, "empty", read);
        if (got == null || got.isPresent()) {
            throw Failures.violation(call + " of an absent value returned " + got + ", not empty");
        }
    }

    /** What {@code call}, made on an absent value, returns; a violation when it throws instead of answering. */
    private static <T> T answerOfAbsent(String call, String answer, Callable<T> read) {
        try {
            return read.call();
        } catch (Throwable t) {
            throw Failures.violation(call + " of an absent value threw " + Failures.describe(t)
                    + "; absence is an answer: return " + answer);
        }
    }
}
