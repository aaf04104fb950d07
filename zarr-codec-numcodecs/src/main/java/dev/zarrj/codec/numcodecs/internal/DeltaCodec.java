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
 * {@code numcodecs.delta}: numcodecs' {@code Delta} filter, array→array as zarr-python 3 runs it.
 * The chunk's elements in C order are replaced by their first value and the differences between
 * neighbours, computed in {@code dtype} (integers wrap, floats round in their own precision), then
 * converted to {@code astype} (default: {@code dtype}) as numpy's {@code astype} does. Decoding
 * converts back to {@code dtype} and takes the running sum in {@code dtype}, as
 * {@code numpy.cumsum(enc, out=dec)} does.
 *
 * <p>Configuration: {@code dtype}, the chunk's type (filled in when an array is created without
 * it, as zarr-python does); {@code astype}, optional. Both are numpy names or type strings
 * ({@code "int32"}, {@code "<i4"}). Integer and float types; not {@code bool}. Lossless for
 * integer types unless {@code astype} is narrower; on floats the running sum of rounded
 * differences need not give the values back (numcodecs' behaviour too), so float (and unconfigured)
 * types declare it lossy. Immutable and thread-safe.
 *
 * @param dtype   the decoded type, when configured
 * @param astype  the encoded type, when configured
 * @param pointer the configuration's JSON pointer
 */
record DeltaCodec(DType dtype, DType astype, String pointer) implements ArrayToArrayCodec {
    static final String NAME = "numcodecs.delta";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        DType.putTypes(node, dtype, astype);
        return node;
    }

    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        return dtype != null ? this : new DeltaCodec(DType.of(type(decoded)), astype, pointer);
    }

    @Override
    public boolean lossless() {
        if (dtype == null || dtype.type().isFloat()) {
            return false;
        }
        return astype == null || astype.type() == dtype.type()
                || astype.type().isInteger() && astype.type().size > dtype.type().size;
    }

    private NumpyType type(ChunkSpec decoded) {
        NumpyType t = DType.typeOf(decoded, NAME, pointer);
        if (t == NumpyType.BOOL) {
            throw new InvalidMetadataException(pointer, NAME + " does not work on bool data (numpy's difference of"
                    + " booleans is not inverted by its sum)");
        }
        DType.checkMatches(dtype, t, NAME, "dtype", pointer);
        return t;
    }

    private NumpyType encodedType(NumpyType t) {
        if (astype == null) {
            return t;
        }
        if (astype.type() == NumpyType.BOOL) {
            throw new InvalidMetadataException(pointer + "/astype", NAME + ": 'astype' cannot be bool");
        }
        return astype.type();
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
        ByteBuffer in = Filters.elements(array);
        int n = Filters.count(array);
        // The differences in t, as numpy's diff computes them, then converted to e.
        NdArray diff = Filters.allocate(t, array.shape());
        ByteBuffer d = Filters.writable(diff);
        for (int i = 0; i < n; i++) {
            if (t.isFloat()) {
                double v = t.getDouble(in, i);
                t.putDouble(d, i, i == 0 ? v : FloatOps.sub(t, v, t.getDouble(in, i - 1)));
            } else {
                long v = t.getLong(in, i);
                t.putLong(d, i, i == 0 ? v : v - t.getLong(in, i - 1));
            }
        }
        if (e == t) {
            return NdArray.wrap(decoded.dataType(), d, array.shape());
        }
        NdArray out = Filters.allocate(e, array.shape());
        ByteBuffer o = Filters.writable(out);
        for (int i = 0; i < n; i++) {
            e.convert(t, d, i, o, i);
        }
        return out;
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        NumpyType t = type(decoded);
        NumpyType e = encodedType(t);
        Filters.checkEncoded(NAME, encoded, DType.withType(decoded, t, e));
        ByteBuffer in = Filters.elements(encoded);
        int n = Filters.count(encoded);
        NdArray out = NdArray.allocate(decoded.dataType(), decoded.shape());
        ByteBuffer o = Filters.writable(out);
        // Each encoded value converted to t (into the output), then summed in t.
        for (int i = 0; i < n; i++) {
            t.convert(e, in, i, o, i);
        }
        if (t.isFloat()) {
            double acc = 0;
            for (int i = 0; i < n; i++) {
                double v = t.getDouble(o, i);
                acc = i == 0 ? v : FloatOps.add(t, acc, v);
                t.putDouble(o, i, acc);
            }
        } else {
            long acc = 0;
            for (int i = 0; i < n; i++) {
                acc += t.getLong(o, i);
                t.putLong(o, i, acc);
            }
        }
        return out;
    }
}
