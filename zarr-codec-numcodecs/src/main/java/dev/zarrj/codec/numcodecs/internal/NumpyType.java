package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.Float16;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Optional;

/**
 * The numpy data types the numcodecs filters take ({@code dtype}, {@code astype},
 * {@code encode_dtype}...), with numpy's value conversions ({@code ndarray.astype}) between them.
 *
 * <p>Elements are read and written in native byte order, as {@link dev.zarrj.api.NdArray} holds
 * them. Conversions follow numpy on x86-64: integers wrap to the target width; floats convert to
 * integers by truncation toward zero, and a value outside the target's range (NaN included), which
 * numpy leaves to the C cast, gives what the x86-64 conversion instructions give (the "integer
 * indefinite" value, then wrapped); floats round to nearest, ties to even; {@code bool} is
 * "not zero".
 */
enum NumpyType {
    BOOL("bool", 'b', 1, ElementKind.BOOL),
    INT8("int8", 'i', 1, ElementKind.INT),
    INT16("int16", 'i', 2, ElementKind.INT),
    INT32("int32", 'i', 4, ElementKind.INT),
    INT64("int64", 'i', 8, ElementKind.INT),
    UINT8("uint8", 'u', 1, ElementKind.UINT),
    UINT16("uint16", 'u', 2, ElementKind.UINT),
    UINT32("uint32", 'u', 4, ElementKind.UINT),
    UINT64("uint64", 'u', 8, ElementKind.UINT),
    FLOAT16("float16", 'f', 2, ElementKind.FLOAT),
    FLOAT32("float32", 'f', 4, ElementKind.FLOAT),
    FLOAT64("float64", 'f', 8, ElementKind.FLOAT);

    private static final double TWO_63 = 0x1p63;

    /** The Zarr v3 core data type name, which is also numpy's name of the type. */
    final String zarrName;
    final char numpyKind;
    final int size;
    final ElementKind kind;
    private final DataType dataType;

    NumpyType(String zarrName, char numpyKind, int size, ElementKind kind) {
        this.zarrName = zarrName;
        this.numpyKind = numpyKind;
        this.size = size;
        this.kind = kind;
        this.dataType = new NumpyDataType(zarrName, size, kind);
    }

    boolean isFloat() {
        return kind == ElementKind.FLOAT;
    }

    boolean isInteger() {
        return kind == ElementKind.INT || kind == ElementKind.UINT;
    }

    /** numpy's {@code dtype.str} in little-endian form: {@code "<i4"}, {@code "|u1"}, {@code "|b1"}. */
    String numpyStr() {
        return (size == 1 ? "|" : "<") + numpyKind + size;
    }

    /** A Zarr data type of this type, for the encoded representation of a filter that changes the type. */
    DataType dataType() {
        return dataType;
    }

    /** The type of a Zarr data type, when it is one of these. */
    static Optional<NumpyType> of(DataType type) {
        for (NumpyType t : values()) {
            if (t.zarrName.equals(type.name()) && t.size == type.size() && t.kind == type.kind()) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * Parses a numpy dtype string as numcodecs writes it: a name ({@code "int32"}, {@code "float64"},
     * {@code "bool"}) or a type string ({@code "<i4"}, {@code "|u1"}, {@code "f8"}, {@code "?"}).
     * Big-endian type strings are refused: the filters work on values in memory, in native order.
     *
     * @throws InvalidMetadataException naming the field and the value
     */
    static NumpyType parse(String s, String pointer, String codec, String field) {
        String name = s.trim().toLowerCase(Locale.ROOT);
        for (NumpyType t : values()) {
            if (t.zarrName.equals(name)) {
                return t;
            }
        }
        if (name.equals("?") || name.equals("|b1") || name.equals("b1") || name.equals("=?") || name.equals("|?")) {
            return BOOL;
        }
        String body = name;
        char order = '=';
        if (!body.isEmpty() && "<>|=".indexOf(body.charAt(0)) >= 0) {
            order = body.charAt(0);
            body = body.substring(1);
        }
        if (body.length() >= 2 && "iuf".indexOf(body.charAt(0)) >= 0) {
            try {
                int size = Integer.parseInt(body.substring(1));
                for (NumpyType t : values()) {
                    if (t.numpyKind == body.charAt(0) && t.size == size) {
                        if (order == '>' && size > 1) {
                            throw new InvalidMetadataException(pointer, codec + ": '" + field + "' is the big-endian"
                                    + " type \"" + s + "\"; filters work on values in memory, in native byte order:"
                                    + " use \"" + t.numpyStr() + "\" (the bytes codec chooses the stored byte order)");
                        }
                        return t;
                    }
                }
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
        }
        throw new InvalidMetadataException(pointer, codec + ": '" + field + "' is \"" + s + "\", not a numpy data type"
                + " that this codec supports (bool, int8...int64, uint8...uint64, float16, float32, float64, or their"
                + " type strings such as \"<i4\")");
    }

    // ---- elements in native byte order ----

    long getLong(ByteBuffer b, int index) {
        int o = index * size;
        return switch (this) {
            case BOOL -> b.get(o) != 0 ? 1 : 0;
            case INT8 -> b.get(o);
            case UINT8 -> b.get(o) & 0xffL;
            case INT16 -> b.getShort(o);
            case UINT16 -> b.getShort(o) & 0xffffL;
            case INT32 -> b.getInt(o);
            case UINT32 -> b.getInt(o) & 0xffffffffL;
            case INT64, UINT64 -> b.getLong(o);
            case FLOAT16, FLOAT32, FLOAT64 -> throw new IllegalStateException("getLong on " + zarrName);
        };
    }

    double getDouble(ByteBuffer b, int index) {
        int o = index * size;
        return switch (this) {
            case FLOAT16 -> Float16.toFloat(b.getShort(o));
            case FLOAT32 -> b.getFloat(o);
            case FLOAT64 -> b.getDouble(o);
            case UINT64 -> unsignedToDouble(b.getLong(o));
            default -> getLong(b, index);
        };
    }

    /** Stores an integer value, wrapped to this width (for {@code bool}, "not zero"). */
    void putLong(ByteBuffer b, int index, long v) {
        int o = index * size;
        switch (this) {
            case BOOL -> b.put(o, (byte) (v != 0 ? 1 : 0));
            case INT8, UINT8 -> b.put(o, (byte) v);
            case INT16, UINT16 -> b.putShort(o, (short) v);
            case INT32, UINT32 -> b.putInt(o, (int) v);
            case INT64, UINT64 -> b.putLong(o, v);
            case FLOAT16 -> b.putShort(o, halfOf((double) v));
            case FLOAT32 -> b.putFloat(o, (float) v);
            case FLOAT64 -> b.putDouble(o, (double) v);
            default -> throw new IllegalStateException();
        }
    }

    /** Stores a float value with numpy's cast from float64 to this type. */
    void putDouble(ByteBuffer b, int index, double v) {
        int o = index * size;
        switch (this) {
            case BOOL -> b.put(o, (byte) (v != 0 || Double.isNaN(v) ? 1 : 0));
            case INT8, UINT8 -> b.put(o, (byte) truncate32(v));
            case INT16, UINT16 -> b.putShort(o, (short) truncate32(v));
            case INT32 -> b.putInt(o, truncate32(v));
            case UINT32 -> b.putInt(o, (int) truncate64(v));
            case INT64 -> b.putLong(o, truncate64(v));
            case UINT64 -> b.putLong(o, truncateUnsigned64(v));
            case FLOAT16 -> b.putShort(o, halfOf(v));
            case FLOAT32 -> b.putFloat(o, (float) v);
            case FLOAT64 -> b.putDouble(o, v);
            default -> throw new IllegalStateException();
        }
    }

    /**
     * Copies element {@code i} of {@code from} (of type {@code src}) to element {@code j} of
     * {@code to} (of this type) with numpy's {@code astype} conversion.
     */
    void convert(NumpyType src, ByteBuffer from, int i, ByteBuffer to, int j) {
        if (src.isFloat()) {
            if (this == FLOAT32 && src == FLOAT32) {
                to.putFloat(j * 4, from.getFloat(i * 4));
            } else {
                putDouble(to, j, src.getDouble(from, i));
            }
        } else if (isFloat()) {
            if (src == UINT64) {
                long u = from.getLong(i * 8);
                if (this == FLOAT32) {
                    to.putFloat(j * 4, unsignedToFloat(u));
                } else {
                    putDouble(to, j, unsignedToDouble(u));
                }
            } else if (this == FLOAT32) {
                to.putFloat(j * 4, (float) src.getLong(from, i)); // correctly rounded from the integer
            } else {
                putDouble(to, j, src.getLong(from, i)); // exact for all but 64-bit integers (rounded once)
            }
        } else {
            putLong(to, j, src.getLong(from, i));
        }
    }

    /** x86-64 {@code cvttsd2si} to 32 bits: truncation, and 0x80000000 when out of range or NaN. */
    static int truncate32(double v) {
        if (!(v > -2147483649.0 && v < 2147483648.0)) {
            return Integer.MIN_VALUE;
        }
        return (int) v;
    }

    /** x86-64 {@code cvttsd2si} to 64 bits: truncation, and 2^63 when out of range or NaN. */
    static long truncate64(double v) {
        if (!(v >= -TWO_63 && v < TWO_63)) {
            return Long.MIN_VALUE;
        }
        return (long) v;
    }

    /** The conversion C compilers emit for double to uint64 on x86-64. */
    static long truncateUnsigned64(double v) {
        if (v >= TWO_63 && v < 2 * TWO_63) {
            return (long) (v - TWO_63) ^ Long.MIN_VALUE;
        }
        return truncate64(v);
    }

    static double unsignedToDouble(long u) {
        if (u >= 0) {
            return u;
        }
        // Halve with the lost bit kept sticky, convert (one rounding), double again.
        return ((u >>> 1) | (u & 1)) * 2.0;
    }

    static float unsignedToFloat(long u) {
        if (u >= 0) {
            return u;
        }
        return ((u >>> 1) | (u & 1)) * 2.0f;
    }

    /** The binary16 value nearest to a double, ties to even, rounded once (as numpy's npy_double_to_half). */
    static short halfOf(double v) {
        short h = Float16.fromFloat((float) v);
        if (Double.isNaN(v) || Double.isInfinite(v) || (double) (float) v == v) {
            return h; // the float conversion was exact: one rounding only
        }
        // (float) v rounded once already; check that h is still the nearest binary16 to v itself.
        double hv = Float16.toFloat(h);
        if (Double.isInfinite(hv)) {
            return h;
        }
        short best = h;
        double bestErr = Math.abs(hv - v);
        for (int d = -1; d <= 1; d += 2) {
            short n = (short) (h + d);
            double nv = Float16.toFloat(n);
            if (Double.isNaN(nv) || Double.isInfinite(nv) || Math.signum(nv) * Math.signum(hv) < 0) {
                continue;
            }
            double err = Math.abs(nv - v);
            if (err < bestErr || (err == bestErr && (n & 1) == 0)) {
                best = n;
                bestErr = err;
            }
        }
        return best;
    }
}
