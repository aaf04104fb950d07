package dev.zarrj.codec.registry.internal;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A data type that models real numbers, as {@code cast_value} and {@code scale_offset} see it:
 * an integer type of {@code bits} bits ({@code int2} to {@code int64}, {@code uint2} to
 * {@code uint64}, and {@code numpy.datetime64}/{@code timedelta64} as the int64 counts they
 * hold), or a binary floating-point format of {@code precision} significant bits whose
 * finite values, infinities and NaN are known. Elements are read and written through
 * {@link NdArray}'s accessors; a float is written only with a value the format holds exactly.
 */
final class RealType {
    private static final Map<String, Integer> INTEGERS = Map.ofEntries(Map.entry("int2", -2), Map.entry("int4", -4),
            Map.entry("int8", -8), Map.entry("int16", -16), Map.entry("int32", -32), Map.entry("int64", -64),
            Map.entry("uint2", 2), Map.entry("uint4", 4), Map.entry("uint8", 8), Map.entry("uint16", 16),
            Map.entry("uint32", 32), Map.entry("uint64", 64),
            // Their elements are int64 counts (NaT the least); zarr-python's fixtures name one as a target.
            Map.entry("numpy.datetime64", -64), Map.entry("numpy.timedelta64", -64));

    /** Significant bits (the implicit one included) of each float format. */
    private static final Map<String, Integer> FLOATS = Map.ofEntries(Map.entry("float4_e2m1fn", 2),
            Map.entry("float6_e2m3fn", 4), Map.entry("float6_e3m2fn", 3), Map.entry("float8_e3m4", 5),
            Map.entry("float8_e4m3", 4), Map.entry("float8_e4m3b11fnuz", 4), Map.entry("float8_e4m3fnuz", 4),
            Map.entry("float8_e5m2", 3), Map.entry("float8_e5m2fnuz", 3), Map.entry("float8_e8m0fnu", 1),
            Map.entry("bfloat16", 8), Map.entry("float16", 11), Map.entry("float32", 24), Map.entry("float64", 53));

    private static final Map<String, RealType> CACHE = new ConcurrentHashMap<>();

    final DataType type;
    final boolean integer;
    /** Integers: the width and signedness. */
    final int bits;
    final boolean signed;
    /** Floats: significant bits, largest finite value, infinities and NaN. */
    final int precision;
    final double maxFinite;
    final boolean hasInfinity;
    final boolean hasNaN;
    /** Floats of at most 16 bits: every finite value, ascending, and whether its bit pattern is even. */
    private final double[] grid;
    private final boolean[] evenPattern;

    private RealType(DataType type, int integerBits, int precision) {
        this.type = type;
        this.integer = integerBits != 0;
        this.bits = Math.abs(integerBits);
        this.signed = integerBits < 0;
        this.precision = precision;
        if (integer || type.size() > 2) {
            grid = null;
            evenPattern = null;
            maxFinite = precision == 24 ? Float.MAX_VALUE : Double.MAX_VALUE;
            hasInfinity = !integer;
            hasNaN = !integer;
        } else {
            int patterns = 1 << (8 * type.size());
            ByteBuffer all = ByteBuffer.allocate(patterns * type.size()).order(java.nio.ByteOrder.nativeOrder());
            for (int p = 0; p < patterns; p++) {
                if (type.size() == 1) {
                    all.put(p, (byte) p);
                } else {
                    all.putShort(2 * p, (short) p);
                }
            }
            NdArray values = NdArray.wrap(type, all, patterns);
            TreeMap<Double, Boolean> finite = new TreeMap<>();
            boolean inf = false;
            boolean nan = false;
            for (int p = 0; p < patterns; p++) {
                double v = values.getDouble(p);
                if (Double.isNaN(v)) {
                    nan = true;
                } else if (Double.isInfinite(v)) {
                    inf = true;
                } else {
                    finite.putIfAbsent(v == 0 ? 0.0 : v, (p & 1) == 0); // the first pattern of a value is its canonical one
                }
            }
            grid = finite.keySet().stream().mapToDouble(Double::doubleValue).toArray();
            evenPattern = new boolean[grid.length];
            int i = 0;
            for (boolean even : finite.values()) {
                evenPattern[i++] = even;
            }
            maxFinite = grid[grid.length - 1];
            hasInfinity = inf;
            hasNaN = nan;
        }
    }

    /**
     * The real-number view of a data type.
     *
     * @param what names the role in messages ("cast_value's data_type", "the array's data type")
     * @throws InvalidMetadataException naming the type when it is not one of the registry's real-number types
     */
    static RealType of(DataType type, String pointer, String codec, String what) {
        String name = type.name();
        Integer ib = INTEGERS.get(name);
        Integer p = FLOATS.get(name);
        if (ib == null && p == null) {
            throw new InvalidMetadataException(pointer, codec + " does not support " + what + " " + name
                    + " (it supports the integer types int2 to int64 and uint2 to uint64, numpy.datetime64 and"
                    + " numpy.timedelta64 as int64 counts, and the float types float4_e2m1fn to float64)");
        }
        // By the whole metadata form: types with a configuration (a datetime's unit) differ under one name.
        return CACHE.computeIfAbsent(type.toJson().toString(),
                n -> new RealType(type, ib == null ? 0 : ib, p == null ? 0 : p));
    }

    /** Integers: the smallest value (as a signed long; 0 for unsigned types). */
    long min() {
        return signed ? (bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1))) : 0;
    }

    /** Integers: the largest value (for uint64 the unsigned pattern -1). */
    long max() {
        return signed ? (bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1) : (bits == 64 ? -1L : (1L << bits) - 1);
    }

    /** Integers: whether a value of {@code v} exactly (unsigned when {@code unsigned64}) lies in the range. */
    boolean holds(long v, boolean unsigned64) {
        if (unsigned64 && v < 0) {
            return !signed && bits == 64;
        }
        if (!signed && bits == 64) {
            return v >= 0 || unsigned64;
        }
        return v >= min() && v <= max();
    }

    /** Integers: {@code v} reduced modulo 2^bits into the range (two's complement for signed types). */
    long wrap(long v) {
        if (bits == 64) {
            return v;
        }
        long low = v & ((1L << bits) - 1);
        return signed && (low >>> (bits - 1)) == 1 ? low - (1L << bits) : low;
    }

    /** Whether element values are read as unsigned 64-bit patterns. */
    boolean unsigned64() {
        return integer && !signed && bits == 64;
    }

    /**
     * Floats: the finite value of this format at or below {@code x} (a finite double) and the one
     * at or above it, as {@code {lo, hi}}; beyond the largest finite value the missing neighbour
     * is the next value the exponent would give, marked out of range by exceeding {@link #maxFinite}.
     */
    double[] neighbours(double x) {
        if (grid == null) {
            if (precision == 53) {
                return new double[] {x, x};
            }
            float f = (float) x;
            if (f == x) {
                return new double[] {x, x};
            }
            if (Float.isInfinite(f)) {
                double beyond = 0x1p128;
                return x > 0 ? new double[] {Float.MAX_VALUE, beyond} : new double[] {-beyond, -Float.MAX_VALUE};
            }
            return f < x ? new double[] {f, Math.nextUp(f)} : new double[] {Math.nextDown(f), f};
        }
        int i = Arrays.binarySearch(grid, x == 0 ? 0.0 : x);
        if (i >= 0) {
            return new double[] {x, x};
        }
        int above = -i - 1;
        double step = grid.length > 1 ? grid[grid.length - 1] - grid[grid.length - 2] : maxFinite;
        double lo = above == 0 ? grid[0] - step : grid[above - 1];
        double hi = above == grid.length ? maxFinite + step : grid[above];
        return new double[] {lo, hi};
    }

    /** Floats: whether {@code v}, one of {@link #neighbours}, has an even bit pattern (beyond the range: even). */
    boolean even(double v) {
        if (v > maxFinite || v < minFinite()) {
            return true;
        }
        if (grid == null) {
            return precision == 24 ? (Float.floatToRawIntBits((float) v) & 1) == 0
                    : (Double.doubleToRawLongBits(v) & 1) == 0;
        }
        int i = Arrays.binarySearch(grid, v == 0 ? 0.0 : v);
        return i < 0 || evenPattern[i];
    }

    /** Floats: whether {@code v} (finite) is a value of this format. */
    boolean holds(double v) {
        if (!(v <= maxFinite && v >= minFinite())) {
            return false;
        }
        if (grid == null) {
            return precision == 53 || (float) v == v;
        }
        return Arrays.binarySearch(grid, v == 0 ? 0.0 : v) >= 0;
    }

    /** Floats: the smallest finite value (the negative of the largest, or the least of an unsigned format). */
    double minFinite() {
        return grid == null ? -maxFinite : grid[0];
    }

    /** The value of a fill value of this type: a double for floats, the long pattern for integers. */
    Number valueOf(FillValue f) {
        NdArray one = NdArray.wrap(type, ByteBuffer.wrap(f.bytes()).order(java.nio.ByteOrder.nativeOrder()));
        return integer ? (Number) one.getLong(0) : (Number) one.getDouble(0);
    }

    @Override
    public String toString() {
        return type.name();
    }
}
