package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.datatype.FillValue;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code scale_offset} (zarr-extensions): encodes {@code (x - offset) * scale} and decodes
 * {@code x / scale + offset}, in the arithmetic of the array's data type, as its specification
 * requires: floats round each operation to the type (to nearest, ties to even); integers compute
 * exactly. A value the type cannot hold (an overflow, a negative unsigned result, an inexact
 * integer quotient, a float operation of finite operands that overflows) is an error: refused on
 * encoding ({@link IllegalArgumentException}), corrupt data on decoding, and for the fill value,
 * which goes through the same steps, invalid metadata when the array is opened.
 *
 * <p>{@code offset} and {@code scale} are written in the fill-value form of the array's data type
 * and kept as written; absent, they are 0 and 1 (an absent configuration makes the codec a
 * no-op). A zero scale is refused (decoding could not invert it). The data type does not change.
 * Integer data round-trips exactly; float data is lossy. Immutable and thread-safe.
 *
 * @param offset the {@code offset} member as written, or null
 * @param scale  the {@code scale} member as written, or null
 */
record ScaleOffsetCodec(JsonNode offset, JsonNode scale, String pointer) implements ArrayToArrayCodec {
    static final String NAME = "scale_offset";
    private static final Cast ROUND = new Cast(Cast.Rounding.NEAREST_EVEN, null);
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        if (offset != null) {
            c.set("offset", offset.deepCopy());
        }
        if (scale != null) {
            c.set("scale", scale.deepCopy());
        }
        return c;
    }

    @Override
    public boolean lossless() {
        return false;
    }

    /** The type and the two parameters as numbers of it (Long or Double). */
    private record Params(RealType type, Number offset, Number scale) {}

    private Params params(ChunkSpec decoded) {
        RealType t = RealType.of(decoded.dataType(), pointer, NAME, "the data type");
        Number o = value(t, offset, "offset", 0);
        Number s = value(t, scale, "scale", 1);
        if (t.integer ? s.longValue() == 0 : s.doubleValue() == 0) {
            throw new InvalidMetadataException(pointer + "/configuration/scale", NAME + ": scale 0 cannot be inverted");
        }
        return new Params(t, o, s);
    }

    private Number value(RealType t, JsonNode json, String field, int absent) {
        if (json == null) {
            return t.integer ? (Number) (long) absent : (Number) (double) absent;
        }
        FillValue f = t.type.parseFillValue(json, pointer + "/configuration/" + field);
        return t.valueOf(f);
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        Params p = params(decoded);
        NdArray fill = NdArray.wrap(p.type.type, ByteBuffer.wrap(decoded.fillValue().bytes())
                .order(ByteOrder.nativeOrder()));
        try {
            return new ChunkSpec(decoded.dataType(), decoded.shape(), FillValue.ofBytes(apply(fill, p, true)
                    .toByteArray()));
        } catch (IllegalArgumentException e) {
            throw new InvalidMetadataException(pointer, NAME + ": the fill value "
                    + p.type.type.fillValueToJson(decoded.fillValue()) + " cannot be encoded: " + e.getMessage(), e);
        }
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        Params p = params(decoded);
        Shapes.checkInput(NAME, array, decoded);
        try {
            return apply(array, p, true);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(NAME + ": " + e.getMessage(), e);
        }
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        Params p = params(decoded);
        Shapes.checkEncoded(NAME, encoded, decoded.dataType(), decoded.shape());
        try {
            return apply(encoded, p, false);
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(NAME + ": " + e.getMessage(), e);
        }
    }

    private NdArray apply(NdArray array, Params p, boolean encoding) {
        RealType t = p.type;
        Elements in = new Elements(array);
        Elements out = new Elements(NdArray.allocate(t.type, array.shape()));
        int n = Math.toIntExact(array.elementCount());
        if (t.integer && !t.unsigned64()) {
            long o = p.offset.longValue();
            long s = p.scale.longValue();
            for (int i = 0; i < n; i++) {
                long x = in.getLong(i);
                long r;
                try {
                    if (encoding) {
                        r = Math.multiplyExact(Math.subtractExact(x, o), s);
                    } else {
                        if (x % s != 0) {
                            throw new IllegalArgumentException(x + " / " + s + " is not an integer of " + t);
                        }
                        r = Math.addExact(x / s, o);
                    }
                } catch (ArithmeticException e) {
                    throw new IllegalArgumentException("the result for " + x + " overflows " + t);
                }
                if (!t.holds(r, false)) {
                    throw new IllegalArgumentException("the result for " + x + ", " + r + ", is outside the range of " + t);
                }
                out.setLong(i, r);
            }
        } else if (t.integer) {
            BigInteger o = unsigned(p.offset.longValue());
            BigInteger s = unsigned(p.scale.longValue());
            for (int i = 0; i < n; i++) {
                BigInteger x = unsigned(in.getLong(i));
                BigInteger r;
                if (encoding) {
                    r = x.subtract(o).multiply(s);
                } else {
                    BigInteger[] qr = x.divideAndRemainder(s);
                    if (qr[1].signum() != 0) {
                        throw new IllegalArgumentException(x + " / " + s + " is not an integer of " + t);
                    }
                    r = qr[0].add(o);
                }
                if (r.signum() < 0 || r.compareTo(TWO_64) >= 0) {
                    throw new IllegalArgumentException("the result for " + x + ", " + r + ", is outside the range of " + t);
                }
                out.setLong(i, r.longValue());
            }
        } else {
            double o = p.offset.doubleValue();
            double s = p.scale.doubleValue();
            for (int i = 0; i < n; i++) {
                double x = in.getDouble(i);
                double r = encoding ? op(op(x, o, '-', t), s, '*', t) : op(op(x, s, '/', t), o, '+', t);
                out.setDouble(i, r);
            }
        }
        return out.array();
    }

    /** One operation of the type's arithmetic: exact in double, then rounded once to the type. */
    private static double op(double a, double b, char operator, RealType t) {
        double r = switch (operator) {
            case '-' -> a - b;
            case '+' -> a + b;
            case '*' -> a * b;
            default -> a / b;
        };
        if (Double.isInfinite(r) && Double.isFinite(a) && Double.isFinite(b)) {
            throw new IllegalArgumentException(a + " " + operator + " " + b + " overflows " + t);
        }
        try {
            return ROUND.floatToFloat(r, t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(a + " " + operator + " " + b + " overflows " + t, e);
        }
    }

    private static BigInteger unsigned(long v) {
        return v >= 0 ? BigInteger.valueOf(v) : BigInteger.valueOf(v).add(TWO_64);
    }
}
