package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import java.nio.ByteBuffer;

/**
 * {@code numcodecs.bitround}: numcodecs' {@code BitRound}, keeping {@code keepbits} bits of the
 * mantissa of float16, float32 and float64 data, rounded to nearest with ties to even on the bit
 * pattern (Klöwer et al. 2021): with {@code m} the bits dropped, the integer view {@code b}
 * becomes {@code (b + ((b >> m) & 1) + 2^(m-1) - 1) & (-1 << m)}, in the integer type of the
 * float's width (wrapping). The type does not change; decoding returns the values as they are.
 *
 * <p>Configuration: {@code keepbits}, 0 to the type's mantissa width (10, 23, 52); the full width
 * changes nothing. Lossy below it. Immutable and thread-safe.
 *
 * @param keepbits mantissa bits to keep
 * @param pointer  the configuration's JSON pointer
 */
record BitRoundCodec(int keepbits, String pointer) implements ArrayToArrayCodec {
    static final String NAME = "numcodecs.bitround";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put("keepbits", keepbits);
    }

    @Override
    public boolean lossless() {
        return false;
    }

    static int mantissaBits(NumpyType t) {
        return switch (t) {
            case FLOAT16 -> 10;
            case FLOAT32 -> 23;
            default -> 52;
        };
    }

    private NumpyType type(ChunkSpec decoded) {
        NumpyType t = DType.typeOf(decoded, NAME, pointer);
        if (!t.isFloat()) {
            throw new InvalidMetadataException(pointer, NAME + " works on float16, float32 and float64 data, not "
                    + t.zarrName);
        }
        if (keepbits > mantissaBits(t)) {
            throw new InvalidMetadataException(pointer + "/keepbits", NAME + ": 'keepbits' " + keepbits + " is more"
                    + " than the " + mantissaBits(t) + " mantissa bits of " + t.zarrName);
        }
        return t;
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        type(decoded);
        return decoded;
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        NumpyType t = type(decoded);
        Filters.checkDecoded(NAME, array, decoded);
        int m = mantissaBits(t) - keepbits;
        if (m == 0) {
            return array;
        }
        NdArray out = NdArray.allocate(decoded.dataType(), decoded.shape());
        ByteBuffer in = Filters.elements(array);
        ByteBuffer o = Filters.writable(out);
        int n = Filters.count(array);
        long mask = -1L << m;
        long half = (1L << (m - 1)) - 1;
        for (int i = 0; i < n; i++) {
            switch (t) {
                case FLOAT16 -> {
                    short b = in.getShort(i * 2);
                    o.putShort(i * 2, (short) ((short) (b + ((b >> m) & 1) + half) & mask));
                }
                case FLOAT32 -> {
                    int b = in.getInt(i * 4);
                    o.putInt(i * 4, (int) ((b + ((b >> m) & 1) + (int) half) & mask));
                }
                default -> {
                    long b = in.getLong(i * 8);
                    o.putLong(i * 8, (b + ((b >> m) & 1) + half) & mask);
                }
            }
        }
        return out;
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        type(decoded);
        Filters.checkEncoded(NAME, encoded, decoded);
        return encoded;
    }
}
