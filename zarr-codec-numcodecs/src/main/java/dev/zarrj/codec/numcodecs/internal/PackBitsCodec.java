package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;

/**
 * {@code numcodecs.packbits}: numcodecs' {@code PackBits}, packing a {@code bool} chunk into a 1-d
 * {@code uint8} array of {@code 1 + ceil(n / 8)} elements, the shape zarr-python 3 gives it: the
 * first holds the number of padding bits in the last byte (0 to 7), the others the elements in C
 * order, eight per byte, the first in the most significant bit (numpy's {@code packbits}).
 *
 * <p>No configuration. Decoding checks the padding count against the chunk's size. Lossless;
 * immutable and thread-safe.
 */
record PackBitsCodec(String pointer) implements ArrayToArrayCodec {
    static final String NAME = "numcodecs.packbits";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        NumpyType t = DType.typeOf(decoded, NAME, pointer);
        if (t != NumpyType.BOOL) {
            throw new InvalidMetadataException(pointer, NAME + " works on bool data, not " + t.zarrName);
        }
        long n = decoded.elementCount();
        return new ChunkSpec(NumpyType.UINT8.dataType(), new long[] {1 + (n + 7) / 8},
                FillValue.ofBytes(new byte[1]));
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        ChunkSpec spec = encodedSpec(decoded);
        Filters.checkDecoded(NAME, array, decoded);
        int n = Filters.count(array);
        NdArray out = NdArray.allocate(spec.dataType(), spec.shape());
        ByteBuffer in = Filters.elements(array);
        ByteBuffer o = Filters.writable(out);
        o.put(0, (byte) ((8 - n % 8) % 8));
        for (int i = 0; i < n; i++) {
            if (in.get(i) != 0) {
                int at = 1 + i / 8;
                o.put(at, (byte) (o.get(at) | (0x80 >>> (i % 8))));
            }
        }
        return out;
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        ChunkSpec spec = encodedSpec(decoded);
        Filters.checkEncoded(NAME, encoded, spec);
        int n = (int) decoded.elementCount();
        ByteBuffer in = Filters.elements(encoded);
        int padding = in.get(0) & 0xff;
        if (padding != (8 - n % 8) % 8) {
            throw new CorruptDataException(NAME + ": the encoded array says " + padding + " padding bits, but "
                    + n + " elements need " + (8 - n % 8) % 8);
        }
        NdArray out = NdArray.allocate(decoded.dataType(), decoded.shape());
        ByteBuffer o = Filters.writable(out);
        for (int i = 0; i < n; i++) {
            o.put(i, (byte) ((in.get(1 + i / 8) >>> (7 - i % 8)) & 1));
        }
        return out;
    }
}
