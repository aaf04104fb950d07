package dev.zarrj.benchmarks;

import dev.zarrj.bench.raw.RawCodec;
import java.nio.ByteBuffer;

/**
 * The ceiling for each codec of {@link CodecBenchmark}: the shared raw baseline of the binding
 * zarrj's codec sits on ({@link RawCodec}, the one {@code zarr bench} uses too), producing the
 * same format (so zarrj decodes what it encodes, and the other way round), over one fixed chunk.
 *
 * <p>Like zarrj's codecs, gzip, zstd and crc32c encode into a new heap buffer per call, and gzip
 * and zstd decode into one; blosc works in direct buffers allocated in advance, its best case;
 * {@code bytes} and crc32c decode to views. Not thread-safe: one per benchmark thread.
 */
final class RawBaseline implements AutoCloseable {
    private final RawCodec codec;
    private final boolean direct;
    /** Whether decoding returns a view of the value ({@code bytes}, crc32c): no output buffer. */
    private final boolean view;
    private final ByteBuffer input;
    private final int size;
    /** Direct mode only: the reused outputs. */
    private final ByteBuffer encodeOut;
    private final ByteBuffer decodeOut;
    private final ByteBuffer encoded;

    private RawBaseline(RawCodec codec, boolean direct, boolean view, ByteBuffer data) {
        this.codec = codec;
        this.direct = direct;
        this.view = view;
        this.size = data.remaining();
        this.input = copy(data, direct);
        this.encodeOut = direct ? ByteBuffer.allocateDirect(codec.bound(size)) : null;
        this.decodeOut = direct ? ByteBuffer.allocateDirect(size) : null;
        this.encoded = copy(encode(), direct);
    }

    /** The baseline of a {@link CodecBenchmark#codec} parameter over the chunk bytes {@code data}. */
    static RawBaseline of(String codec, ByteBuffer data) {
        return switch (codec) {
            case "bytes" -> new RawBaseline(RawCodec.none(), false, true, data);
            case "gzip-1" -> new RawBaseline(RawCodec.gzip(1), false, false, data);
            case "zstd-1" -> new RawBaseline(RawCodec.zstd(1), false, false, data);
            case "zstd-3" -> new RawBaseline(RawCodec.zstd(3), false, false, data);
            case "blosc-zstd-5-shuffle" -> new RawBaseline(RawCodec.blosc("zstd", 5, true, 4), true, false, data);
            case "crc32c" -> new RawBaseline(RawCodec.crc32c(), false, true, data);
            default -> throw new IllegalArgumentException("unknown codec parameter '" + codec + "'");
        };
    }

    /** Encodes the chunk; the result (position to limit) may be reused by the next call. */
    ByteBuffer encode() {
        if (codec.identity()) {
            return input.duplicate();
        }
        return codec.encode(input.duplicate(), direct ? encodeOut.clear() : ByteBuffer.allocate(codec.bound(size)));
    }

    /** Decodes the value encoded in advance; the result may be reused by the next call. */
    ByteBuffer decode() {
        return decodeValue(encoded.duplicate());
    }

    /** The value that {@link #decode()} decodes, as a heap copy. */
    ByteBuffer encoded() {
        return copy(encoded, false);
    }

    /** Decodes bytes that zarrj encoded. */
    ByteBuffer decode(ByteBuffer value) {
        return decodeValue(value.isDirect() == direct ? value.duplicate() : copy(value, direct));
    }

    private ByteBuffer decodeValue(ByteBuffer value) {
        ByteBuffer out = view ? null : direct ? decodeOut.clear() : ByteBuffer.allocate(size);
        return codec.decode(value, out, size);
    }

    private static ByteBuffer copy(ByteBuffer b, boolean direct) {
        ByteBuffer out = direct ? ByteBuffer.allocateDirect(b.remaining()) : ByteBuffer.allocate(b.remaining());
        return out.put(b.duplicate()).flip();
    }

    @Override
    public void close() {
        codec.close();
    }
}
