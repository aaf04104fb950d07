package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * {@code numcodecs.fixedscaleoffset}: numcodecs' {@code FixedScaleOffset}, array→array as zarr-python
 * 3 runs it: encoding computes {@code around((x - offset) * scale)} and converts it to
 * {@code astype}, decoding computes {@code enc / scale + offset} and converts it to {@code dtype};
 * the data type after this codec is {@code astype}.
 *
 * <p>Arithmetic follows numpy's type rules with Python numbers: on float data it runs in the
 * data's precision; on integer data it runs in the data's integer type when {@code offset} and
 * {@code scale} are both JSON integers (wrapping), else in float64; decoding divides in float64
 * for integer {@code astype}, in {@code astype}'s precision for a float one. Rounding is half to
 * even; conversions are numpy's {@code astype} (float to integer truncates). Lossy. Immutable and
 * thread-safe.
 *
 * @param offset  the JSON number subtracted
 * @param scale   the JSON number multiplied by
 * @param dtype   the decoded type, when configured (filled in when an array is created)
 * @param astype  the encoded type, when configured (default: {@code dtype})
 * @param pointer the configuration's JSON pointer
 */
record FixedScaleOffsetCodec(JsonNode offset, JsonNode scale, DType dtype, DType astype, String pointer)
        implements ArrayToArrayCodec {
    static final String NAME = "numcodecs.fixedscaleoffset";

    FixedScaleOffsetCodec {
        Objects.requireNonNull(offset, "offset");
        Objects.requireNonNull(scale, "scale");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.set("offset", offset.deepCopy());
        node.set("scale", scale.deepCopy());
        DType.putTypes(node, dtype, astype);
        return node;
    }

    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        return dtype != null ? this : new FixedScaleOffsetCodec(offset, scale, DType.of(type(decoded)), astype, pointer);
    }

    @Override
    public boolean lossless() {
        return false;
    }

    private NumpyType type(ChunkSpec decoded) {
        NumpyType t = DType.typeOf(decoded, NAME, pointer);
        if (t == NumpyType.BOOL) {
            throw new InvalidMetadataException(pointer, NAME + " works on integer and float data, not bool");
        }
        DType.checkMatches(dtype, t, NAME, "dtype", pointer);
        return t;
    }

    private NumpyType encodedType(NumpyType t) {
        return astype == null ? t : astype.type();
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        NumpyType t = type(decoded);
        NumpyType e = encodedType(t);
        if (e == t) {
            return decoded;
        }
        return new ChunkSpec(e.dataType(), decoded.shape(), encodeFill(decoded.fillValue(), t, e));
    }

    private FillValue encodeFill(FillValue fill, NumpyType t, NumpyType e) {
        ByteBuffer in = ByteBuffer.wrap(fill.bytes()).order(ByteOrder.nativeOrder());
        ByteBuffer out = ByteBuffer.allocate(e.size).order(ByteOrder.nativeOrder());
        encodeOne(in, 0, t, out, e);
        return FillValue.ofBytes(out.array());
    }

    private boolean integerArithmetic(NumpyType t) {
        return t.isInteger() && offset.isIntegralNumber() && scale.isIntegralNumber();
    }

    private void encodeOne(ByteBuffer in, int i, NumpyType t, ByteBuffer out, NumpyType e) {
        if (integerArithmetic(t)) {
            long v = (t.getLong(in, i) - offset.longValue()) * scale.longValue();
            // Wrapped to t as numpy's integer loops do, then converted.
            ByteBuffer tmp = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            t.putLong(tmp, 0, v);
            e.convert(t, tmp, 0, out, i);
            return;
        }
        double v;
        if (t.isFloat()) {
            v = FloatOps.mul(t, FloatOps.sub(t, t.getDouble(in, i), FloatOps.round(t, offset.doubleValue())),
                    FloatOps.round(t, scale.doubleValue()));
        } else if (offset.isIntegralNumber()) {
            // numpy: the integer array minus a Python int stays in the integer type (wrapping), then
            // times a Python float is float64.
            ByteBuffer tmp = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            t.putLong(tmp, 0, t.getLong(in, i) - offset.longValue());
            v = t.getDouble(tmp, 0) * scale.doubleValue();
        } else {
            v = (t.getDouble(in, i) - offset.doubleValue()) * scale.doubleValue();
        }
        e.putDouble(out, i, FloatOps.rint(v)); // v is exact in its precision: one conversion, as numpy's astype
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        NumpyType t = type(decoded);
        NumpyType e = encodedType(t);
        Filters.checkDecoded(NAME, array, decoded);
        ChunkSpec spec = encodedSpec(decoded);
        NdArray out = NdArray.allocate(spec.dataType(), decoded.shape());
        ByteBuffer in = Filters.elements(array);
        ByteBuffer o = Filters.writable(out);
        int n = Filters.count(array);
        for (int i = 0; i < n; i++) {
            encodeOne(in, i, t, o, e);
        }
        return out;
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        NumpyType t = type(decoded);
        NumpyType e = encodedType(t);
        Filters.checkEncoded(NAME, encoded, encodedSpec(decoded));
        ByteBuffer in = Filters.elements(encoded);
        NdArray out = NdArray.allocate(decoded.dataType(), decoded.shape());
        ByteBuffer o = Filters.writable(out);
        int n = Filters.count(encoded);
        NumpyType calc = e.isFloat() ? e : NumpyType.FLOAT64;
        double sc = FloatOps.round(calc, scale.doubleValue());
        double off = FloatOps.round(calc, offset.doubleValue());
        for (int i = 0; i < n; i++) {
            double v = FloatOps.add(calc, FloatOps.div(calc, e.getDouble(in, i), sc), off);
            t.putDouble(o, i, v);
        }
        return out;
    }
}
