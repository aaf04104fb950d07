package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * {@code numcodecs.lz4}: numcodecs' {@code LZ4} framing, the decoded size as a 4-byte
 * little-endian integer followed by one LZ4 block (not the LZ4 frame format), on lz4-java.
 *
 * <p>Configuration: {@code acceleration} (numcodecs' default 1; values of 0 or less mean 1). At 1,
 * encoding uses liblz4 through lz4-java's native binding, which gives numcodecs' bytes; lz4-java
 * has no accelerated compressor, so other values encode as 1 does (a valid block that numcodecs
 * reads, though not its bytes). Where the native library cannot load, lz4-java's Java
 * compressor writes a valid block with other bytes. Decoding uses the bounds-checked decompressor
 * and requires the block to fill exactly the size in the header. numcodecs refuses to decode a
 * size of 0 although it writes one for empty input; zarrj reads it. Immutable and thread-safe.
 *
 * @param acceleration as configured
 */
record Lz4Codec(int acceleration) implements BytesToBytesCodec {
    static final String NAME = "numcodecs.lz4";
    private static final int HEADER = 4;

    private static final class Lib {
        static final LZ4Compressor COMPRESSOR = compressor();
        static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();

        private static LZ4Compressor compressor() {
            try {
                return LZ4Factory.nativeInstance().fastCompressor();
            } catch (Throwable t) {
                return LZ4Factory.fastestJavaInstance().fastCompressor();
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put("acceleration", acceleration);
    }

    /** LZ4_compressBound ({@code n + n / 255 + 16}) plus the header. */
    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        if (decoded instanceof EncodedSize.Unbounded || decoded.max() > Integer.MAX_VALUE) {
            return EncodedSize.unbounded();
        }
        long n = decoded.max();
        return EncodedSize.bounded(n + n / 255 + 16 + HEADER);
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        ByteBuffer in = decoded.slice();
        int n = in.remaining();
        long bound = (long) n + n / 255 + 16 + HEADER;
        if (bound > Buffers.MAX_BUFFER) {
            throw new ZarrException("ZARR-CODEC", NAME + ": " + n + " bytes are too many for one LZ4 block; use"
                    + " smaller chunks");
        }
        ByteBuffer out = ByteBuffer.allocate((int) bound).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0, n);
        int k = Lib.COMPRESSOR.compress(in, 0, n, out, HEADER, out.capacity() - HEADER);
        return out.limit(HEADER + k).position(0).slice();
    }

    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        return EncodedSize.fixed(header(encoded));
    }

    private static int header(ByteBuffer encoded) {
        if (encoded.remaining() < HEADER) {
            throw new CorruptDataException(NAME + ": " + encoded.remaining() + " bytes cannot hold the 4-byte size"
                    + " header");
        }
        int size = encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(encoded.position());
        if (size < 0) {
            throw new CorruptDataException(NAME + ": the header gives a decoded size of "
                    + Integer.toUnsignedString(size) + " bytes, more than an LZ4 block can hold");
        }
        return size;
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        int size = header(encoded);
        BytesToBytesCodec.checkDecodedSize(NAME, size, decodedSize);
        ByteBuffer in = encoded.slice();
        ByteBuffer out = ByteBuffer.allocate(size);
        int k;
        try {
            k = Lib.DECOMPRESSOR.decompress(in, HEADER, in.remaining() - HEADER, out, 0, size);
        } catch (LZ4Exception e) {
            throw new CorruptDataException(NAME + ": invalid LZ4 block: " + Buffers.describe(e), e);
        }
        if (k != size) {
            throw new CorruptDataException(NAME + ": the LZ4 block decoded to " + k + " bytes, the header says "
                    + size);
        }
        return out;
    }
}
