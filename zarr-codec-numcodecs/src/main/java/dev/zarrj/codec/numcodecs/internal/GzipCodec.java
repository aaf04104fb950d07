package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;

/**
 * {@code numcodecs.gzip}: numcodecs' {@code GZip}, one gzip member as Python's {@code GzipFile}
 * writes it (no file name, XFL 2 at level 9 and 4 at level 1, OS 255), except that MTIME is 0
 * where Python writes the current time: the bytes equal numcodecs' but for those four, and a chunk
 * encodes the same way every time. Decoding accepts concatenated members, as Python does.
 *
 * <p>Configuration: {@code level}, 0 to 9 (numcodecs' default 1). Immutable and thread-safe.
 *
 * @param level the compression level
 */
record GzipCodec(int level) implements BytesToBytesCodec {
    static final String NAME = "numcodecs.gzip";
    private static final int HEADER = 10;
    private static final int TRAILER = 8;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put("level", level);
    }

    /** zlib's deflateBound for raw deflate, plus the gzip header and trailer. */
    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        return Buffers.bound(decoded, n -> n + (n >> 12) + (n >> 14) + (n >> 25) + 13 + HEADER + TRAILER + 64);
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        Buffers.Out out = new Buffers.Out(decoded.remaining() / 2 + 64);
        byte[] header = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, (byte) (level == 9 ? 2 : level == 1 ? 4 : 0), (byte) 255};
        out.write(header, 0, HEADER);
        Deflater d = new Deflater(level, true);
        try {
            d.setInput(decoded.duplicate());
            d.finish();
            byte[] chunk = new byte[(int) Math.min(1 << 16, decoded.remaining() + 64L)];
            while (!d.finished()) {
                int k = d.deflate(chunk);
                out.write(chunk, 0, k);
            }
        } finally {
            d.end();
        }
        CRC32 crc = new CRC32();
        crc.update(decoded.duplicate());
        ByteBuffer trailer = ByteBuffer.allocate(TRAILER).order(ByteOrder.LITTLE_ENDIAN);
        trailer.putInt((int) crc.getValue()).putInt(decoded.remaining());
        out.write(trailer.array(), 0, TRAILER);
        return out.result();
    }

    /** At most 1032 times the encoded size: deflate's largest expansion. */
    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        return EncodedSize.bounded(1032L * encoded.remaining());
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        if (encoded.remaining() < HEADER + TRAILER) {
            throw new CorruptDataException(NAME + ": " + encoded.remaining() + " bytes cannot hold a gzip member");
        }
        return Buffers.readAll(NAME, () -> {
            try {
                return new GZIPInputStream(Buffers.in(encoded), 8192);
            } catch (java.util.zip.ZipException e) {
                throw new IOException("not a gzip stream: " + e.getMessage(), e);
            }
        }, decodedSize, encoded.remaining());
    }
}
