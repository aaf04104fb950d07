package dev.zarrj.ext.optional.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.ext.optional.OptionalType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * zarrs' {@code optional} array→bytes codec. A chunk is stored as
 * <pre>
 *   mask length (u64 LE) | data length (u64 LE) | encoded mask | encoded data
 * </pre>
 * where the mask is a {@code bool} array of the chunk's shape (true = present) encoded by
 * {@code mask_codecs}, and the data the present elements' inner values, a 1-d array in C order,
 * encoded by {@code data_codecs} (for a nested type, another {@code optional} codec). When no
 * element is present the data is empty and {@code data_codecs} are not run. Format: zarrs
 * {@code zarrs/src/array/codec/array_to_bytes/optional/optional_codec.rs}.
 */
final class OptionalCodec implements ArrayToBytesCodec {
    private static final int HEADER = 16;
    private static final FillValue FALSE = FillValue.ofBytes(new byte[] {0});

    private final String name;
    private final CodecChain maskCodecs;
    private final CodecChain dataCodecs;
    private final DataType bool;
    private final String pointer;

    OptionalCodec(String name, CodecChain maskCodecs, CodecChain dataCodecs, DataType bool, String pointer) {
        this.name = name;
        this.maskCodecs = maskCodecs;
        this.dataCodecs = dataCodecs;
        this.bool = bool;
        this.pointer = pointer;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.set("mask_codecs", maskCodecs.toJson());
        c.set("data_codecs", dataCodecs.toJson());
        return c;
    }

    /**
     * False: a present element's mask byte other than 1 comes back as 1, and a missing element's
     * inner bytes come back zero. Elements in {@link OptionalType}'s canonical form (what every
     * decode gives) come back exactly.
     */
    @Override
    public boolean lossless() {
        return false;
    }

    private OptionalType type(ChunkSpec decoded) {
        if (decoded.dataType() instanceof OptionalType t) {
            return t;
        }
        throw new InvalidMetadataException(pointer, name + ": encodes arrays of an optional data type, not "
                + decoded.dataType().name());
    }

    private ChunkSpec maskSpec(ChunkSpec decoded) {
        return new ChunkSpec(bool, decoded.shape(), FALSE);
    }

    private static ChunkSpec dataSpec(OptionalType t, long present) {
        DataType inner = t.inner();
        return new ChunkSpec(inner, new long[] {present}, FillValue.ofBytes(new byte[inner.size()]));
    }

    /**
     * @throws InvalidMetadataException when the type is not optional, a chain cannot encode its
     *     part, or the type is nested and the data chain's array→bytes codec is not {@code optional}
     *     (zarrs' layout of a nested type)
     */
    @Override
    public void checkSupported(ChunkSpec decoded) {
        OptionalType t = type(decoded);
        maskCodecs.checkSupported(maskSpec(decoded));
        dataCodecs.checkSupported(dataSpec(t, decoded.elementCount()));
        if (t.inner() instanceof OptionalType) {
            for (Codec c : dataCodecs.codecs()) {
                if (c instanceof ArrayToBytesCodec a && !(a instanceof OptionalCodec)) {
                    throw new InvalidMetadataException(pointer + "/data_codecs", name + ": the values of "
                            + t + " are optional themselves: their array→bytes codec must be " + name
                            + " (as zarrs writes them), not " + a.name());
                }
            }
        }
    }

    /** Bounded: the header, the mask's bound and the bound of every element present. */
    @Override
    public EncodedSize encodedSize(ChunkSpec decoded) {
        OptionalType t = type(decoded);
        long mask = maskCodecs.encodedSize(maskSpec(decoded)).max();
        long data = dataCodecs.encodedSize(dataSpec(t, decoded.elementCount())).max();
        if (mask > Long.MAX_VALUE - HEADER || data > Long.MAX_VALUE - HEADER - mask) {
            return EncodedSize.unbounded();
        }
        return EncodedSize.bounded(HEADER + mask + data);
    }

    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded) {
        checkSupported(decoded);
        OptionalType t = type(decoded);
        if (!Arrays.equals(array.shape(), decoded.shape()) || !array.dataType().equals(t)) {
            throw new IllegalArgumentException(name + ": an array of " + array + " does not match " + decoded);
        }
        int size = t.size();
        int innerSize = size - 1;
        int n = Math.toIntExact(decoded.elementCount());
        ByteBuffer src = array.bytes();
        NdArray mask = NdArray.allocate(bool, decoded.shape());
        ByteBuffer m = mask.bytes();
        int present = 0;
        for (int i = 0; i < n; i++) {
            if (src.get(i * size + innerSize) != 0) {
                m.put(i, (byte) 1);
                present++;
            }
        }
        NdArray values = NdArray.allocate(t.inner(), present);
        ByteBuffer v = values.bytes();
        for (int i = 0, j = 0; j < present; i++) {
            if (m.get(i) != 0) {
                v.put(j++ * innerSize, src, i * size, innerSize);
            }
        }
        ByteBuffer encodedMask = maskCodecs.encode(mask, maskSpec(decoded));
        ByteBuffer encodedData = present > 0 ? dataCodecs.encode(values, dataSpec(t, present)) : ByteBuffer.allocate(0);
        ByteBuffer out = ByteBuffer.allocate(Math.addExact(HEADER, Math.addExact(encodedMask.remaining(),
                encodedData.remaining()))).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(encodedMask.remaining()).putLong(encodedData.remaining());
        out.put(encodedMask).put(encodedData);
        return out.flip();
    }

    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        checkSupported(decoded);
        OptionalType t = type(decoded);
        int start = encoded.position();
        int length = encoded.remaining();
        if (length < HEADER) {
            throw new CorruptDataException(name + ": an encoded chunk starts with a 16-byte header (mask and data"
                    + " lengths), but it has " + length + " bytes");
        }
        ByteBuffer le = encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        long maskLength = le.getLong(start);
        long dataLength = le.getLong(start + 8);
        if (maskLength < 0 || dataLength < 0 || maskLength > length - HEADER
                || dataLength != length - HEADER - maskLength) {
            throw new CorruptDataException(name + ": the header gives a mask of " + Long.toUnsignedString(maskLength)
                    + " bytes and data of " + Long.toUnsignedString(dataLength) + " bytes, but " + (length - HEADER)
                    + " bytes follow it");
        }
        ChunkSpec maskSpec = maskSpec(decoded);
        NdArray mask = maskCodecs.decode(encoded.slice(start + HEADER, (int) maskLength), maskSpec);
        CodecChain.checkDecodedShape(name + " mask_codecs", mask, maskSpec);
        int n = Math.toIntExact(decoded.elementCount());
        ByteBuffer m = mask.bytes();
        int present = 0;
        for (int i = 0; i < n; i++) {
            if (m.get(i) != 0) {
                present++;
            }
        }
        NdArray out = NdArray.allocate(t, decoded.shape());
        if (present == 0) {
            if (dataLength != 0) {
                throw new CorruptDataException(name + ": the mask says no element is present, but " + dataLength
                        + " bytes of data follow it");
            }
            return out;
        }
        ChunkSpec dataSpec = dataSpec(t, present);
        NdArray values = dataCodecs.decode(encoded.slice(start + HEADER + (int) maskLength, (int) dataLength), dataSpec);
        CodecChain.checkDecodedShape(name + " data_codecs", values, dataSpec);
        int size = t.size();
        int innerSize = size - 1;
        ByteBuffer v = values.bytes();
        ByteBuffer dst = out.bytes();
        for (int i = 0, j = 0; j < present; i++) {
            if (m.get(i) != 0) {
                dst.put(i * size, v, j++ * innerSize, innerSize);
                dst.put(i * size + innerSize, (byte) 1);
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OptionalCodec c && name.equals(c.name) && configuration().equals(c.configuration());
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + configuration().hashCode();
    }

    @Override
    public String toString() {
        return name + configuration();
    }
}
