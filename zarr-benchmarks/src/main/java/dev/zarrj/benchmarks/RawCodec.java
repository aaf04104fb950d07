package dev.zarrj.benchmarks;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.blosc.JBlosc;

/**
 * The ceiling for each codec of {@link CodecBenchmark}: the binding zarrj's codec sits on, called
 * directly, producing the same format (so zarrj decodes what it encodes, and the other way round).
 *
 * <p>Each encodes one fixed chunk and decodes one value encoded in advance. Like zarrj's codecs,
 * they return a new heap array per call where the binding's API does (gzip, zstd, crc32c encode);
 * blosc works in direct buffers allocated in advance, its best case. Not thread-safe: one per
 * benchmark thread.
 */
abstract class RawCodec implements AutoCloseable {
    final ByteBuffer data;
    final int size;

    RawCodec(ByteBuffer data) {
        this.data = data.duplicate().clear();
        this.size = this.data.remaining();
    }

    /** A raw codec for a {@link CodecBenchmark#codec} parameter over the chunk bytes {@code data}. */
    static RawCodec of(String codec, ByteBuffer data) {
        return switch (codec) {
            case "bytes" -> new Bytes(data);
            case "gzip-1" -> new Gzip(data, 1);
            case "zstd-1" -> new ZstdRaw(data, 1);
            case "zstd-3" -> new ZstdRaw(data, 3);
            case "blosc-zstd-5-shuffle" -> new Blosc(data);
            case "crc32c" -> new Crc32c(data);
            default -> throw new IllegalArgumentException("unknown codec parameter '" + codec + "'");
        };
    }

    /** Encodes the chunk; the result (position to limit) may be reused by the next call. */
    abstract ByteBuffer encode();

    /** Decodes the value encoded in advance; the result may be reused by the next call. */
    abstract ByteBuffer decode();

    /** The value that {@link #decode()} decodes, as a heap copy. */
    abstract ByteBuffer encoded();

    /** Decodes bytes that zarrj encoded. */
    abstract ByteBuffer decode(ByteBuffer encoded);

    @Override
    public void close() {}

    static byte[] toArray(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** {@code bytes} in the native order: both directions are views. */
    static final class Bytes extends RawCodec {
        Bytes(ByteBuffer data) {
            super(data);
        }

        @Override
        ByteBuffer encode() {
            return data.duplicate();
        }

        @Override
        ByteBuffer decode() {
            return decode(data);
        }

        @Override
        ByteBuffer encoded() {
            return ByteBuffer.wrap(toArray(data));
        }

        @Override
        ByteBuffer decode(ByteBuffer encoded) {
            return encoded.duplicate().order(ByteOrder.nativeOrder());
        }
    }

    /**
     * One RFC 1952 gzip member: a 10-byte header, raw deflate by {@link Deflater} (reused), the
     * CRC-32 and size; decoding with {@link Inflater} (reused) checks both.
     */
    static final class Gzip extends RawCodec {
        private static final int HEADER = 10;
        private static final int TRAILER = 8;

        private final Deflater deflater;
        private final Inflater inflater = new Inflater(true);
        private final byte[] input;
        private final byte[] encoded;
        private final int encodedLength;

        Gzip(ByteBuffer data, int level) {
            super(data);
            deflater = new Deflater(level, true);
            input = toArray(this.data);
            ByteBuffer e = encode();
            encoded = toArray(e);
            encodedLength = encoded.length;
        }

        @Override
        ByteBuffer encode() {
            // Deflate never exceeds stored blocks: 5 bytes per 64 KiB block, plus a little.
            byte[] out = new byte[size + 5 * (size / 65535 + 1) + HEADER + TRAILER + 64];
            out[0] = (byte) 0x1f;
            out[1] = (byte) 0x8b;
            out[2] = 8;
            out[9] = (byte) 255;
            deflater.reset();
            deflater.setInput(input);
            deflater.finish();
            int pos = HEADER;
            while (!deflater.finished()) {
                pos += deflater.deflate(out, pos, out.length - TRAILER - pos);
            }
            CRC32 crc = new CRC32();
            crc.update(input);
            ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(pos, (int) crc.getValue());
            b.putInt(pos + 4, size);
            return b.limit(pos + TRAILER);
        }

        @Override
        ByteBuffer decode() {
            return inflate(encoded, encodedLength);
        }

        @Override
        ByteBuffer encoded() {
            return ByteBuffer.wrap(encoded.clone());
        }

        @Override
        ByteBuffer decode(ByteBuffer value) {
            byte[] v = toArray(value);
            if (v[3] != 0) {
                throw new IllegalArgumentException("gzip header with optional fields");
            }
            return inflate(v, v.length);
        }

        private ByteBuffer inflate(byte[] in, int length) {
            byte[] out = new byte[size];
            inflater.reset();
            inflater.setInput(in, HEADER, length - HEADER - TRAILER);
            int n = 0;
            try {
                while (!inflater.finished()) {
                    int k = inflater.inflate(out, n, out.length - n);
                    if (k == 0 && (inflater.needsInput() || inflater.needsDictionary() || n == out.length)) {
                        throw new IllegalStateException("gzip: truncated or longer than " + size + " bytes");
                    }
                    n += k;
                }
            } catch (DataFormatException e) {
                throw new IllegalStateException("gzip: corrupt deflate stream", e);
            }
            CRC32 crc = new CRC32();
            crc.update(out, 0, n);
            ByteBuffer trailer = ByteBuffer.wrap(in, length - TRAILER, TRAILER).order(ByteOrder.LITTLE_ENDIAN);
            if (trailer.getInt() != (int) crc.getValue() || trailer.getInt() != n) {
                throw new IllegalStateException("gzip: CRC-32 or size mismatch");
            }
            return ByteBuffer.wrap(out, 0, n);
        }

        @Override
        public void close() {
            deflater.end();
            inflater.end();
        }
    }

    /** zstd-jni's one-shot {@code byte[]} calls (a new array per call). */
    static final class ZstdRaw extends RawCodec {
        private final int level;
        private final byte[] input;
        private final byte[] encoded;

        ZstdRaw(ByteBuffer data, int level) {
            super(data);
            this.level = level;
            input = toArray(this.data);
            encoded = Zstd.compress(input, level);
        }

        @Override
        ByteBuffer encode() {
            return ByteBuffer.wrap(Zstd.compress(input, level));
        }

        @Override
        ByteBuffer decode() {
            return ByteBuffer.wrap(Zstd.decompress(encoded, size));
        }

        @Override
        ByteBuffer encoded() {
            return ByteBuffer.wrap(encoded.clone());
        }

        @Override
        ByteBuffer decode(ByteBuffer value) {
            return ByteBuffer.wrap(Zstd.decompress(toArray(value), size));
        }
    }

    /**
     * c-blosc through jblosc's context calls (zstd, clevel 5, byte shuffle, typesize 4, automatic
     * block size, one internal thread, as zarrj calls it) on direct buffers allocated in advance.
     */
    static final class Blosc extends RawCodec {
        private static final int CLEVEL = 5;
        private static final int SHUFFLE = 1;
        private static final int TYPESIZE = 4;

        private final ByteBuffer in;
        private final ByteBuffer out;
        private final ByteBuffer encoded;
        private final ByteBuffer decodedOut;

        Blosc(ByteBuffer data) {
            super(data);
            in = ByteBuffer.allocateDirect(size).put(this.data.duplicate()).flip();
            out = ByteBuffer.allocateDirect(size + JBlosc.OVERHEAD);
            decodedOut = ByteBuffer.allocateDirect(size);
            ByteBuffer e = encode();
            encoded = ByteBuffer.allocateDirect(e.remaining()).put(e).flip();
        }

        @Override
        ByteBuffer encode() {
            int n = JBlosc.compressCtx(CLEVEL, SHUFFLE, TYPESIZE, in, size, out, out.capacity(), "zstd", 0, 1);
            return out.duplicate().clear().limit(n);
        }

        @Override
        ByteBuffer decode() {
            return decode(encoded);
        }

        @Override
        ByteBuffer encoded() {
            return ByteBuffer.wrap(toArray(encoded));
        }

        @Override
        ByteBuffer decode(ByteBuffer value) {
            ByteBuffer src = value;
            if (!src.isDirect()) {
                src = ByteBuffer.allocateDirect(value.remaining()).put(value.duplicate()).flip();
            }
            int n = JBlosc.decompressCtx(src, decodedOut, size, 1);
            if (n != size) {
                throw new IllegalStateException("blosc: decoded " + n + " bytes, expected " + size);
            }
            return decodedOut.duplicate().clear();
        }
    }

    /** The chunk and its CRC-32C, little endian; decoding checks it and returns a view. */
    static final class Crc32c extends RawCodec {
        private final ByteBuffer encoded;

        Crc32c(ByteBuffer data) {
            super(data);
            encoded = encode();
        }

        @Override
        ByteBuffer encode() {
            ByteBuffer out = ByteBuffer.allocate(size + 4).order(ByteOrder.LITTLE_ENDIAN);
            out.put(0, data, 0, size);
            CRC32C crc = new CRC32C();
            crc.update(data.duplicate());
            return out.putInt(size, (int) crc.getValue());
        }

        @Override
        ByteBuffer decode() {
            return decode(encoded);
        }

        @Override
        ByteBuffer encoded() {
            return ByteBuffer.wrap(toArray(encoded));
        }

        @Override
        ByteBuffer decode(ByteBuffer value) {
            int n = value.remaining() - 4;
            ByteBuffer payload = value.slice(value.position(), n);
            CRC32C crc = new CRC32C();
            crc.update(payload.duplicate());
            if (value.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(value.position() + n) != (int) crc.getValue()) {
                throw new IllegalStateException("crc32c: checksum mismatch");
            }
            return payload;
        }
    }
}
