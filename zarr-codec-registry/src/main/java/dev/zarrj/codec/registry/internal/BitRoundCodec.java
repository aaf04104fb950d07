package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bitround} (zarr-extensions): keeps {@code keepbits} bits of each number and rounds the
 * rest away, to nearest with ties to even on the bit pattern. Floats keep that many mantissa bits
 * (sign and exponent unchanged; complex numbers component by component). Integers keep that many
 * bits from their most significant set bit, the element read as an unsigned pattern of its width
 * (so a negative integer's highest set bit is its sign bit), as zarrs, the sample data's writer,
 * does. Rounding that would carry past the width saturates at all ones before the dropped bits
 * are cleared (uint8 255 with keepbits 3 gives 224, as the sample data shows). keepbits at or
 * above the available bits changes nothing. The data type does not change; decoding returns the
 * values as they are.
 *
 * <p>Lossy; decoded values are a fixed point. Immutable and thread-safe.
 */
record BitRoundCodec(int keepbits, String pointer) implements ArrayToArrayCodec {
    static final String NAME = "bitround";

    /** Component bytes, components, and mantissa bits (0 for integers, rounded from the top set bit). */
    private record Layout(int componentBytes, int components, int mantissaBits) {}

    private static final Map<String, Layout> TYPES = Map.ofEntries(
            Map.entry("float16", new Layout(2, 1, 10)),
            Map.entry("float32", new Layout(4, 1, 23)),
            Map.entry("float64", new Layout(8, 1, 52)),
            Map.entry("bfloat16", new Layout(2, 1, 7)),
            Map.entry("complex_float16", new Layout(2, 2, 10)),
            Map.entry("complex_float32", new Layout(4, 2, 23)),
            Map.entry("complex_float64", new Layout(8, 2, 52)),
            Map.entry("complex_bfloat16", new Layout(2, 2, 7)),
            Map.entry("complex64", new Layout(4, 2, 23)),
            Map.entry("complex128", new Layout(8, 2, 52)),
            Map.entry("int8", new Layout(1, 1, 0)),
            Map.entry("uint8", new Layout(1, 1, 0)),
            Map.entry("int16", new Layout(2, 1, 0)),
            Map.entry("uint16", new Layout(2, 1, 0)),
            Map.entry("int32", new Layout(4, 1, 0)),
            Map.entry("uint32", new Layout(4, 1, 0)),
            Map.entry("int64", new Layout(8, 1, 0)),
            Map.entry("uint64", new Layout(8, 1, 0)),
            Map.entry("numpy.datetime64", new Layout(8, 1, 0)),
            Map.entry("numpy.timedelta64", new Layout(8, 1, 0)));

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

    private Layout layout(ChunkSpec decoded) {
        Layout l = TYPES.get(decoded.dataType().name());
        if (l == null || l.componentBytes * l.components != decoded.dataType().size()) {
            throw new InvalidMetadataException(pointer, "bitround does not support the data type "
                    + decoded.dataType().name() + " (its specification lists the float16/32/64, bfloat16 and complex"
                    + " float types, the 8- to 64-bit integers and numpy.datetime64/timedelta64)");
        }
        return l;
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        layout(decoded);
        return decoded;
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        Layout l = layout(decoded);
        Shapes.checkInput(NAME, array, decoded);
        NdArray out = NdArray.allocate(decoded.dataType(), decoded.shape());
        ByteBuffer in = array.bytes().order(ByteOrder.nativeOrder());
        ByteBuffer o = out.bytes().order(ByteOrder.nativeOrder());
        int width = l.componentBytes * 8;
        int n = in.capacity() / l.componentBytes;
        for (int i = 0; i < n; i++) {
            int at = i * l.componentBytes;
            switch (l.componentBytes) {
                case 1 -> o.put(at, (byte) round(in.get(at) & 0xffL, width, l.mantissaBits));
                case 2 -> o.putShort(at, (short) round(in.getShort(at) & 0xffffL, width, l.mantissaBits));
                case 4 -> o.putInt(at, (int) round(in.getInt(at) & 0xffffffffL, width, l.mantissaBits));
                default -> o.putLong(at, round(in.getLong(at), width, l.mantissaBits));
            }
        }
        return out;
    }

    /**
     * Rounds an unsigned pattern of {@code width} bits: {@code mantissaBits} available bits for a
     * float, or for an integer (0) the bits up to its highest set bit.
     */
    long round(long pattern, int width, int mantissaBits) {
        int available = mantissaBits > 0 ? mantissaBits : 64 - Long.numberOfLeadingZeros(pattern);
        if (keepbits >= available) {
            return pattern;
        }
        int drop = available - keepbits;
        long all = width == 64 ? -1L : (1L << width) - 1;
        long sum = pattern + ((pattern >>> drop) & 1) + (1L << (drop - 1)) - 1;
        if (width == 64 ? Long.compareUnsigned(sum, pattern) < 0 : sum > all) {
            sum = all;
        }
        return sum & (all << drop) & all;
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        layout(decoded);
        Shapes.checkEncoded(NAME, encoded, decoded.dataType(), decoded.shape());
        return encoded;
    }

    /** Decoding is the identity, so a region of the decoded array is that region of the encoded one. */
    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ArrayPartialDecoder encoded, ChunkSpec decoded) {
        layout(decoded);
        return Optional.of(encoded);
    }
}
