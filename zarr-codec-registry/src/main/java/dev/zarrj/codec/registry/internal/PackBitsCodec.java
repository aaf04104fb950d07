package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code packbits} (zarr-extensions): each element becomes {@code k = components * b} bits, the
 * bits {@code firstBit..lastBit} of each component, least significant first; element {@code i}
 * takes bits {@code [i*k, (i+1)*k)} of a stream whose bit {@code j} is bit {@code j % 8} (least
 * significant first) of byte {@code j / 8}. The stream is padded with zero bits to whole bytes; the
 * padding count is written in a byte before ({@code first_byte}) or after ({@code last_byte}) it,
 * or not at all ({@code none}). Decoding shifts the bits back to {@code firstBit} and sign-extends
 * signed integers, zero-extends the rest.
 *
 * <p>Lossless when every bit of the type is kept; otherwise lossy, with decoded values a fixed
 * point. Immutable and thread-safe.
 *
 * @param lastBit the configured last bit, or -1 for the type's last
 */
record PackBitsCodec(Padding padding, int firstBit, int lastBit, String pointer) implements ArrayToBytesCodec {
    static final String NAME = "packbits";

    /** Where the padding count goes. */
    enum Padding {
        NONE("none"), FIRST_BYTE("first_byte"), LAST_BYTE("last_byte");

        final String json;

        Padding(String json) {
            this.json = json;
        }

        static Padding of(String json) {
            for (Padding p : values()) {
                if (p.json.equals(json)) {
                    return p;
                }
            }
            throw new IllegalArgumentException(json);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("padding_encoding", padding.json);
        if (firstBit != 0) {
            c.put("first_bit", firstBit);
        }
        if (lastBit >= 0) {
            c.put("last_bit", lastBit);
        }
        return c;
    }

    @Override
    public boolean lossless() {
        return firstBit == 0 && lastBit < 0;
    }

    /** The layout, after checking the bit range against the type's width. */
    private PackedType layout(ChunkSpec decoded) {
        PackedType t = PackedType.of(decoded.dataType(), pointer);
        if (lastBit >= t.bits() || firstBit >= t.bits()) {
            String field = lastBit >= t.bits() ? "last_bit" : "first_bit";
            throw new InvalidMetadataException(pointer + "/configuration/" + field, "packbits: " + field + " "
                    + Math.max(firstBit, lastBit) + " is beyond the " + t.bits() + " bits of " + decoded.dataType().name());
        }
        return t;
    }

    private int last(PackedType t) {
        return lastBit < 0 ? t.bits() - 1 : lastBit;
    }

    private long streamBits(ChunkSpec decoded, PackedType t) {
        int b = last(t) - firstBit + 1;
        return Math.multiplyExact(decoded.elementCount(), (long) t.components() * b);
    }

    @Override
    public void checkSupported(ChunkSpec decoded) {
        layout(decoded);
    }

    @Override
    public EncodedSize encodedSize(ChunkSpec decoded) {
        PackedType t = layout(decoded);
        return EncodedSize.fixed((streamBits(decoded, t) + 7) / 8 + (padding == Padding.NONE ? 0 : 1));
    }

    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded) {
        PackedType t = layout(decoded);
        Shapes.checkInput(NAME, array, decoded);
        long bits = streamBits(decoded, t);
        int streamBytes = Math.toIntExact((bits + 7) / 8);
        int start = padding == Padding.FIRST_BYTE ? 1 : 0;
        byte[] out = new byte[streamBytes + (padding == Padding.NONE ? 0 : 1)];
        int pad = (int) (streamBytes * 8L - bits);
        if (padding == Padding.FIRST_BYTE) {
            out[0] = (byte) pad;
        } else if (padding == Padding.LAST_BYTE) {
            out[out.length - 1] = (byte) pad;
        }
        ByteBuffer in = array.bytes().order(ByteOrder.nativeOrder());
        int b = last(t) - firstBit + 1;
        long mask = b == 64 ? -1L : (1L << b) - 1;
        int n = t.components() * Math.toIntExact(decoded.elementCount());
        long at = start * 8L;
        for (int i = 0; i < n; i++) {
            long v = (read(in, i * t.componentBytes(), t.componentBytes()) >>> firstBit) & mask;
            at = put(out, at, v, b);
        }
        return ByteBuffer.wrap(out);
    }

    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        PackedType t = layout(decoded);
        long bits = streamBits(decoded, t);
        int streamBytes = Math.toIntExact((bits + 7) / 8);
        int expected = streamBytes + (padding == Padding.NONE ? 0 : 1);
        if (encoded.remaining() != expected) {
            throw new CorruptDataException("packbits: " + encoded.remaining() + " encoded bytes, but a " + decoded
                    + " takes " + expected);
        }
        byte[] in = new byte[expected];
        encoded.duplicate().get(in);
        int pad = (int) (streamBytes * 8L - bits);
        if (padding != Padding.NONE) {
            int stored = in[padding == Padding.FIRST_BYTE ? 0 : expected - 1] & 0xff;
            if (stored != pad) {
                throw new CorruptDataException("packbits: the encoding says " + stored + " padding bits, but a "
                        + decoded + " needs " + pad);
            }
        }
        NdArray out = NdArray.allocate(decoded.dataType(), decoded.shape());
        ByteBuffer o = out.bytes().order(ByteOrder.nativeOrder());
        int b = last(t) - firstBit + 1;
        int top = last(t);
        int n = t.components() * Math.toIntExact(decoded.elementCount());
        long at = (padding == Padding.FIRST_BYTE ? 1 : 0) * 8L;
        for (int i = 0; i < n; i++) {
            long v = get(in, at, b) << firstBit;
            at += b;
            if (t.signed() && top < 63) {
                v = (v << (63 - top)) >> (63 - top);
            }
            write(o, i * t.componentBytes(), t.componentBytes(), v);
        }
        return out;
    }

    private static long read(ByteBuffer in, int offset, int bytes) {
        return switch (bytes) {
            case 1 -> in.get(offset) & 0xffL;
            case 2 -> in.getShort(offset) & 0xffffL;
            case 4 -> in.getInt(offset) & 0xffffffffL;
            default -> in.getLong(offset);
        };
    }

    private static void write(ByteBuffer out, int offset, int bytes, long v) {
        switch (bytes) {
            case 1 -> out.put(offset, (byte) v);
            case 2 -> out.putShort(offset, (short) v);
            case 4 -> out.putInt(offset, (int) v);
            default -> out.putLong(offset, v);
        }
    }

    /** Writes the low {@code n} bits of {@code v} at bit {@code at} of the stream; returns the next bit. */
    private static long put(byte[] out, long at, long v, int n) {
        while (n > 0) {
            int i = (int) (at >>> 3);
            int shift = (int) (at & 7);
            int take = Math.min(8 - shift, n);
            out[i] |= (byte) ((v & ((1 << take) - 1)) << shift);
            v >>>= take;
            n -= take;
            at += take;
        }
        return at;
    }

    /** The {@code n} bits at bit {@code at} of the stream, the first the least significant. */
    private static long get(byte[] in, long at, int n) {
        long v = 0;
        int done = 0;
        while (done < n) {
            int i = (int) (at >>> 3);
            int shift = (int) (at & 7);
            int take = Math.min(8 - shift, n - done);
            v |= (long) ((in[i] & 0xff) >>> shift & ((1 << take) - 1)) << done;
            done += take;
            at += take;
        }
        return v;
    }
}
