package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.Codec;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * {@code numcodecs.astype}: numcodecs' {@code AsType}, converting the chunk's values to
 * {@code encode_dtype} as numpy's {@code astype} does (see {@link NumpyType} for the conversions),
 * and back to {@code decode_dtype} on decoding. The data type after this codec is
 * {@code encode_dtype}.
 *
 * <p>Configuration: {@code encode_dtype}, required; {@code decode_dtype}, the chunk's type (filled
 * in when an array is created without it, as zarr-python does). Lossy when the encoded type cannot
 * hold every value. Immutable and thread-safe.
 *
 * @param encodeDtype the encoded type
 * @param decodeDtype the decoded type, when configured
 * @param pointer     the configuration's JSON pointer
 */
record AsTypeCodec(DType encodeDtype, DType decodeDtype, String pointer) implements ArrayToArrayCodec {
    static final String NAME = "numcodecs.astype";

    AsTypeCodec {
        Objects.requireNonNull(encodeDtype, "encodeDtype");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("encode_dtype", encodeDtype.spelling());
        if (decodeDtype != null) {
            node.put("decode_dtype", decodeDtype.spelling());
        }
        return node;
    }

    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        return decodeDtype != null ? this : new AsTypeCodec(encodeDtype, DType.of(type(decoded)), pointer);
    }

    @Override
    public boolean lossless() {
        return decodeDtype != null && decodeDtype.type() == encodeDtype.type();
    }

    private NumpyType type(ChunkSpec decoded) {
        NumpyType t = DType.typeOf(decoded, NAME, pointer);
        DType.checkMatches(decodeDtype, t, NAME, "decode_dtype", pointer);
        return t;
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return DType.withType(decoded, type(decoded), encodeDtype.type());
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        NumpyType t = type(decoded);
        NumpyType e = encodeDtype.type();
        Filters.checkDecoded(NAME, array, decoded);
        if (t == e) {
            return array;
        }
        return convert(array, t, e, encodedSpec(decoded));
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        NumpyType t = type(decoded);
        NumpyType e = encodeDtype.type();
        Filters.checkEncoded(NAME, encoded, encodedSpec(decoded));
        if (t == e) {
            return encoded;
        }
        return convert(encoded, e, t, decoded);
    }

    private static NdArray convert(NdArray a, NumpyType from, NumpyType to, ChunkSpec target) {
        NdArray out = NdArray.allocate(target.dataType(), target.shape());
        ByteBuffer in = Filters.elements(a);
        ByteBuffer o = Filters.writable(out);
        int n = Filters.count(a);
        for (int i = 0; i < n; i++) {
            to.convert(from, in, i, o, i);
        }
        return out;
    }
}
