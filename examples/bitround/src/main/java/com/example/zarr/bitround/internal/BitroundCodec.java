package com.example.zarr.bitround.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.datatype.DataType;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The {@code bitround} array→array codec: rounds each element to {@code keepbits} significant
 * bits so that a following compressor does better. Lossy on encode; decode is the identity.
 *
 * <p>Spec: zarr-extensions {@code codecs/bitround/README.md}. Names: {@code bitround}, replacing
 * zarrj's own (zarr-codec-registry, which rounds a signed integer's two's complement pattern as
 * zarrs does, where this one rounds its magnitude); zarrj's zarr-codec-numcodecs provides
 * {@code numcodecs.bitround}. Configuration:
 * {@code {"keepbits": 3}}.
 *
 * <ul>
 *   <li>Floats ({@code float16/32/64}, and each component of {@code complex64/128}): the mantissa
 *       is rounded to {@code keepbits} bits, to nearest with ties to even, as numcodecs does; the
 *       sign and exponent are kept; {@code keepbits} at or above the mantissa width changes nothing.
 *   <li>Integers: the value is rounded to {@code keepbits} bits counted from its most significant
 *       set bit, to nearest with ties to even; when rounding up would leave the type's range the
 *       dropped bits are cleared instead (uint8 255 with keepbits 3 gives 224, as the sample data
 *       of zarr-extensions shows). Signed values are rounded by magnitude and keep their sign.
 * </ul>
 * Other data types are refused when the array is opened. Decoding is the identity, so the
 * codec passes partial decoding through to the codecs after it.
 */
public final class BitroundCodec implements ArrayToArrayCodec {
    private final int keepbits;

    BitroundCodec(int keepbits) {
        this.keepbits = keepbits;
    }

    @Override
    public String name() {
        return "bitround";
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put("keepbits", keepbits);
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        DataType t = decoded.dataType();
        switch (t.kind()) {
            case INT, UINT, FLOAT, COMPLEX -> {
                return decoded;
            }
            default -> throw new InvalidMetadataException("/codecs", "bitround supports integer, float and complex "
                    + "data types, not " + t.name());
        }
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        encodedSpec(decoded);
        DataType t = decoded.dataType();
        NdArray out = NdArray.allocate(t, decoded.shape());
        ByteBuffer in = array.bytes();
        ByteBuffer o = out.bytes();
        int unit = t.byteOrderUnit() > 0 ? t.byteOrderUnit() : t.size();
        boolean floating = t.kind() == dev.zarrj.api.datatype.ElementKind.FLOAT
                || t.kind() == dev.zarrj.api.datatype.ElementKind.COMPLEX;
        boolean signed = t.kind() == dev.zarrj.api.datatype.ElementKind.INT;
        int n = in.remaining() / unit;
        for (int i = 0; i < n; i++) {
            int at = i * unit;
            switch (unit) {
                case 1 -> o.put(at, (byte) roundInteger(in.get(at) & 0xffL, 8, signed));
                case 2 -> o.putShort(at, (short) (floating ? roundMantissa(in.getShort(at) & 0xffffL, 10)
                        : roundInteger(in.getShort(at) & 0xffffL, 16, signed)));
                case 4 -> o.putInt(at, (int) (floating ? roundMantissa(in.getInt(at) & 0xffffffffL, 23)
                        : roundInteger(in.getInt(at) & 0xffffffffL, 32, signed)));
                default -> o.putLong(at, floating ? roundMantissa(in.getLong(at), 52)
                        : roundInteger(in.getLong(at), 64, signed));
            }
        }
        return out;
    }

    /** Rounds the low {@code mantissaBits} bits of an IEEE 754 pattern to {@code keepbits}, ties to even. */
    long roundMantissa(long bits, int mantissaBits) {
        if (keepbits >= mantissaBits) {
            return bits;
        }
        int drop = mantissaBits - keepbits;
        long halfMinusOne = (1L << (drop - 1)) - 1;
        long rounded = bits + ((bits >>> drop) & 1) + halfMinusOne;
        return rounded & (-1L << drop);
    }

    /** Rounds an integer of {@code width} bits to {@code keepbits} bits from its highest set bit. */
    long roundInteger(long value, int width, boolean signed) {
        long mask = width == 64 ? -1L : (1L << width) - 1;
        boolean negative = signed && ((value >>> (width - 1)) & 1) == 1;
        long magnitude = negative ? (-sextend(value, width)) & mask : value & mask;
        long max = signed ? (1L << (width - 1)) - (negative ? 0 : 1) : mask;
        int bitLength = 64 - Long.numberOfLeadingZeros(magnitude);
        int drop = bitLength - keepbits;
        long result = magnitude;
        if (drop > 0) {
            long truncated = magnitude & (-1L << drop);
            long rest = magnitude & ((1L << drop) - 1);
            long half = 1L << (drop - 1);
            boolean up = Long.compareUnsigned(rest, half) > 0
                    || (rest == half && ((magnitude >>> drop) & 1) == 1);
            result = truncated;
            if (up) {
                long candidate = truncated + (1L << drop);
                boolean fits = candidate != 0 && Long.compareUnsigned(candidate, max) <= 0;
                result = fits ? candidate : truncated;
            }
        }
        return negative ? (-result) & mask : result;
    }

    private static long sextend(long value, int width) {
        return width == 64 ? value : (value << (64 - width)) >> (64 - width);
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        if (!java.util.Arrays.equals(encoded.shape(), decoded.shape()) || encoded.dataType().size() != decoded.dataType().size()) {
            throw new dev.zarrj.api.CorruptDataException("bitround: an encoded array " + encoded + " does not match "
                    + decoded);
        }
        return encoded;
    }

    /**
     * Decoding is the identity, so a region of the decoded array is the same region of the
     * encoded one: a chain with {@code bitround} still reads partially. Optional; without it the
     * pipeline decodes whole chunks.
     */
    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ArrayPartialDecoder encoded, ChunkSpec decoded) {
        encodedSpec(decoded);
        return Optional.of(encoded);
    }

    /** Rounding drops bits: decode cannot restore them, and rounding a rounded value changes nothing. */
    @Override
    public boolean lossless() {
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BitroundCodec b && b.keepbits == keepbits;
    }

    @Override
    public int hashCode() {
        return keepbits;
    }

    @Override
    public String toString() {
        return "bitround(keepbits=" + keepbits + ")";
    }
}
