package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * {@code numcodecs.zlib}: one zlib stream (RFC 1950: 2-byte header, deflate, Adler-32 trailer), as
 * numcodecs' {@code Zlib} writes with Python's {@code zlib.compress(data, level)}. The JDK links
 * the same zlib, with the same window (15 bits) and memory level (8), so the bytes are the same.
 *
 * <p>Configuration: {@code level}, -1 (zlib's default, 6) to 9; numcodecs' default is 1. Decoding
 * checks the Adler-32 and refuses bytes after the stream. Immutable and thread-safe.
 *
 * @param level the compression level
 */
record ZlibCodec(int level) implements BytesToBytesCodec {
    static final String NAME = "numcodecs.zlib";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put("level", level);
    }

    /** zlib's deflateBound for the default window and memory level, plus the zlib wrapper. */
    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        return Buffers.bound(decoded, n -> n + (n >> 12) + (n >> 14) + (n >> 25) + 13 + 64);
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        Deflater d = new Deflater(level);
        try {
            d.setInput(decoded.duplicate());
            d.finish();
            Buffers.Out out = new Buffers.Out(decoded.remaining() / 2 + 64);
            byte[] chunk = new byte[(int) Math.min(1 << 16, decoded.remaining() + 64L)];
            while (!d.finished()) {
                int k = d.deflate(chunk);
                out.write(chunk, 0, k);
            }
            return out.result();
        } finally {
            d.end();
        }
    }

    /** At most 1032 times the encoded size: deflate's largest expansion. */
    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        return EncodedSize.bounded(1032L * encoded.remaining());
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        ByteBuffer in = encoded.duplicate();
        int length = in.remaining();
        long limit = Math.min(decodedSize.max(), Buffers.MAX_BUFFER);
        long first = decodedSize instanceof EncodedSize.Fixed f ? f.bytes()
                : Math.min(limit, Math.max(4L * length, 8192));
        byte[] buf = new byte[(int) Math.min(limit, first)];
        int size = 0;
        Inflater inf = new Inflater();
        try {
            inf.setInput(in);
            while (!inf.finished()) {
                if (size == buf.length) {
                    if (buf.length >= limit) {
                        if (inf.inflate(new byte[1]) > 0) {
                            throw Buffers.tooLarge(NAME, decodedSize, limit);
                        }
                    } else {
                        buf = Arrays.copyOf(buf, (int) Math.min(limit, Math.max(2L * buf.length, 8192)));
                    }
                }
                int k = size < buf.length ? inf.inflate(buf, size, buf.length - size) : 0;
                size += k;
                if (k == 0 && !inf.finished()) {
                    if (inf.needsDictionary()) {
                        throw new CorruptDataException(NAME + ": the stream asks for a preset dictionary");
                    }
                    if (inf.needsInput()) {
                        throw new CorruptDataException(NAME + ": stream truncated: the zlib stream is incomplete at"
                                + " the end of the " + length + "-byte input (after " + size + " decoded bytes)");
                    }
                }
            }
            if (inf.getRemaining() > 0) {
                throw new CorruptDataException(NAME + ": " + inf.getRemaining() + " bytes after the end of the zlib"
                        + " stream");
            }
        } catch (DataFormatException e) {
            throw new CorruptDataException(NAME + ": invalid zlib data: " + Buffers.describe(e), e);
        } finally {
            inf.end();
        }
        BytesToBytesCodec.checkDecodedSize(NAME, size, decodedSize);
        byte[] out = size < buf.length / 2 ? Arrays.copyOf(buf, size) : buf;
        return ByteBuffer.wrap(out, 0, size).slice();
    }
}
