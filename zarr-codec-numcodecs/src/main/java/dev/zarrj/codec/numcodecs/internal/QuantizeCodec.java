package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.Codec;
import java.nio.ByteBuffer;

/**
 * {@code numcodecs.quantize}: numcodecs' {@code Quantize}, a lossy filter that keeps about
 * {@code digits} decimal digits of float data by rounding to a multiple of a power of two:
 * {@code scale = 2^ceil(log2(10^-e))} with {@code e} the exponent of {@code 10^-digits} rounded
 * away from zero, and {@code around(scale * x) / scale} computed in {@code dtype}'s precision, then
 * converted to {@code astype}. Decoding only converts back to {@code dtype}.
 *
 * <p>Configuration: {@code digits}; {@code dtype} (filled in when an array is created) and
 * {@code astype}, float types. Immutable and thread-safe.
 *
 * @param digits  decimal digits to keep
 * @param dtype   the decoded type, when configured
 * @param astype  the encoded type, when configured (default: {@code dtype})
 * @param pointer the configuration's JSON pointer
 */
record QuantizeCodec(int digits, DType dtype, DType astype, String pointer) implements ArrayToArrayCodec {
    static final String NAME = "numcodecs.quantize";

    QuantizeCodec {
        for (DType d : new DType[] {dtype, astype}) {
            if (d != null && !d.type().isFloat()) {
                throw new InvalidMetadataException(pointer + "/" + (d == dtype ? "dtype" : "astype"), NAME
                        + ": only float types are supported, found \"" + d.spelling() + "\"");
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("digits", digits);
        DType.putTypes(node, dtype, astype);
        return node;
    }

    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        return dtype != null ? this : new QuantizeCodec(digits, DType.of(type(decoded)), astype, pointer);
    }

    @Override
    public boolean lossless() {
        return false;
    }

    /** The power of two that numcodecs multiplies by, from {@code digits} as it computes it. */
    static double scale(int digits) {
        double precision = Math.pow(10.0, -digits);
        double exp = Math.log10(precision);
        exp = exp < 0 ? Math.floor(exp) : Math.ceil(exp);
        double bits = Math.ceil(Math.log(Math.pow(10.0, -exp)) / Math.log(2.0));
        return Math.pow(2.0, bits);
    }

    private NumpyType type(ChunkSpec decoded) {
        NumpyType t = DType.typeOf(decoded, NAME, pointer);
        if (!t.isFloat()) {
            throw new InvalidMetadataException(pointer, NAME + " works on float data, not " + t.zarrName);
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
        return DType.withType(decoded, t, encodedType(t));
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
        double scale = FloatOps.round(t, scale(digits));
        int n = Filters.count(array);
        for (int i = 0; i < n; i++) {
            double v = FloatOps.div(t, FloatOps.rint(FloatOps.mul(t, scale, t.getDouble(in, i))), scale);
            e.putDouble(o, i, v);
        }
        return out;
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        NumpyType t = type(decoded);
        NumpyType e = encodedType(t);
        Filters.checkEncoded(NAME, encoded, encodedSpec(decoded));
        if (e == t) {
            return encoded;
        }
        NdArray out = NdArray.allocate(decoded.dataType(), decoded.shape());
        ByteBuffer in = Filters.elements(encoded);
        ByteBuffer o = Filters.writable(out);
        int n = Filters.count(encoded);
        for (int i = 0; i < n; i++) {
            t.convert(e, in, i, o, i);
        }
        return out;
    }
}
