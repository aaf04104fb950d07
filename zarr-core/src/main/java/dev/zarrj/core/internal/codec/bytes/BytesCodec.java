package dev.zarrj.core.internal.codec.bytes;

import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.datatype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code bytes} codec: an array's elements in C order, each in the configured byte order.
 *
 * <p>Spec: {@code codecs-bytes.rst}
 * (<a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/bytes/">bytes codec</a>).
 * Name: {@code bytes}; no aliases. {@code endian} ({@code "little"} or {@code "big"}) is required
 * for data types with a byte order ({@link DataType#byteOrderUnit()} above 1) and ignored for the
 * others; it applies to each {@code byteOrderUnit} bytes, so {@code complex64} swaps each 4-byte
 * component. It is written back only when it was given.
 *
 * <pre>{@code
 * {"name": "bytes", "configuration": {"endian": "little"}}
 * }</pre>
 *
 * <p>The encoded size is fixed: element count times element size, and decoding refuses any other
 * length. When the stored order is the platform's, encoding returns the array's own bytes and
 * decoding wraps the encoded buffer (a read-only buffer is copied first, so the result stays
 * writable); otherwise bytes are swapped in bulk through typed buffer views.
 *
 * <p>Partial decoding is supported: a region is read as byte ranges of the stored value (see
 * {@link BytesPartialDecoder}). Immutable and thread-safe.
 */
public final class BytesCodec implements ArrayToBytesCodec {
    static final String ENDIAN = "endian";

    private final ByteOrder endian;
    private final String endianPointer;

    BytesCodec(ByteOrder endian, String endianPointer) {
        this.endian = endian;
        this.endianPointer = endianPointer;
    }

    /** A codec that stores elements in this byte order. */
    public static BytesCodec of(ByteOrder endian) {
        return new BytesCodec(Objects.requireNonNull(endian, "endian"), "/configuration/" + ENDIAN);
    }

    /** A codec without {@code endian}: usable only for data types without a byte order. */
    public static BytesCodec withoutEndian() {
        return new BytesCodec(null, "/configuration/" + ENDIAN);
    }

    /** The configured byte order, empty when {@code endian} was not given. */
    public Optional<ByteOrder> endian() {
        return Optional.ofNullable(endian);
    }

    @Override
    public String name() {
        return BytesCodecProvider.NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (endian != null) {
            node.put(ENDIAN, endian == ByteOrder.LITTLE_ENDIAN ? "little" : "big");
        }
        return node;
    }

    /** New metadata records {@code "endian": "little"} when the data type needs an order and none was given. */
    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        if (endian == null && decoded.dataType().byteOrderUnit() > 1) {
            return new BytesCodec(ByteOrder.LITTLE_ENDIAN, endianPointer);
        }
        return this;
    }

    @Override
    public void checkSupported(ChunkSpec decoded) {
        DataType type = decoded.dataType();
        Optional<ObjectNode> own = type.arrayToBytesCodec();
        if (own.isPresent() || type.kind().isVariableLength()) {
            throw new InvalidMetadataException(codecPointer(), "bytes cannot store data type '" + type.name() + "'"
                    + (type.kind().isVariableLength() ? ", whose elements vary in length" : "")
                    + own.map(c -> "; use the codec it names, " + c).orElse("; use a codec for its elements"));
        }
        if (endian == null && type.byteOrderUnit() > 1) {
            throw new InvalidMetadataException(endianPointer, "bytes: 'endian' is required for data type '"
                    + type.name() + "' (" + type.size() + "-byte elements); add \"endian\": \"little\" or \"big\"");
        }
    }

    /** The pointer of this codec's entry: the {@code endian} field's, without the field. */
    private String codecPointer() {
        return endianPointer.replaceAll("/configuration/endian$", "");
    }

    @Override
    public EncodedSize encodedSize(ChunkSpec decoded) {
        return EncodedSize.fixed(decoded.byteSize());
    }

    /** Whether stored bytes differ from the in-memory (native) order for this type. */
    public boolean swaps(DataType type) {
        return type.byteOrderUnit() > 1 && endian != ByteOrder.nativeOrder();
    }

    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded) {
        checkSupported(decoded);
        if (array.byteSize() != decoded.byteSize()) {
            throw new IllegalArgumentException("bytes: an array of shape " + Arrays.toString(array.shape())
                    + " does not match " + decoded);
        }
        DataType type = decoded.dataType();
        if (!swaps(type)) {
            return array.bytes();
        }
        ByteBuffer out = ByteBuffer.allocate(array.byteSize());
        ByteSwap.swapCopy(array.bytes(), out, type.byteOrderUnit());
        return out;
    }

    private static void checkSize(ByteBuffer encoded, ChunkSpec decoded) {
        long expected = decoded.byteSize();
        if (encoded.remaining() != expected) {
            throw new CorruptDataException("bytes: the encoded chunk has " + encoded.remaining() + " bytes, but a "
                    + decoded.dataType().name() + " chunk of shape " + Arrays.toString(decoded.shape()) + " needs "
                    + expected);
        }
    }

    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        checkSupported(decoded);
        checkSize(encoded, decoded);
        DataType type = decoded.dataType();
        if (!swaps(type)) {
            ByteBuffer data = encoded;
            if (encoded.isReadOnly()) {
                data = ByteBuffer.allocate(encoded.remaining()).put(encoded.duplicate()).flip();
            }
            return NdArray.wrap(type, data, decoded.shape());
        }
        NdArray out = NdArray.allocate(type, decoded.shape());
        ByteSwap.swapCopy(encoded, out.bytes(), type.byteOrderUnit());
        return out;
    }

    /** Copies the region straight out of the encoded bytes when they need no swapping. */
    @Override
    public void decodeInto(ByteBuffer encoded, ChunkSpec decoded, Region region, NdArray destination,
                           long[] destinationOffset) {
        checkSupported(decoded);
        DataType type = decoded.dataType();
        if (swaps(type)) {
            ArrayToBytesCodec.super.decodeInto(encoded, decoded, region, destination, destinationOffset);
            return;
        }
        checkSize(encoded, decoded);
        RegionCopy.copy(NdArray.wrap(type, encoded.duplicate(), decoded.shape()), region, destination,
                destinationOffset);
    }

    /** True when no byte swapping is needed: the encoding is the elements' memory. */
    @Override
    public boolean encodesAsInMemory(ChunkSpec decoded) {
        return !swaps(decoded.dataType());
    }

    /** Reads only the byte ranges a region covers. */
    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ByteSource input, ChunkSpec decoded) {
        checkSupported(decoded);
        return Optional.of(new BytesPartialDecoder(this, input, decoded));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BytesCodec c && Objects.equals(endian, c.endian);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(endian);
    }

    @Override
    public String toString() {
        return "bytes" + configuration();
    }
}
