package dev.zarrj.codec.zstd.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.ZstdBufferDecompressingStreamNoFinalizer;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdIOException;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import dev.zarrj.codec.zstd.internal.ZstdFrames.Frame;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The {@code zstd} bytes→bytes codec: Zstandard compression (RFC 8878) through libzstd.
 *
 * <p>Encoding writes one standard frame with the content size in its header and, when
 * configured, a content checksum: what zarr-python (numcodecs), zarrs and tensorstore write and
 * read. Output is deterministic for a given libzstd.
 *
 * <p>Decoding accepts any sequence of frames: with or without the content size (streaming writers
 * leave it out), with or without checksums (verified when present), concatenated, with skippable
 * frames between them; but when the codec is configured with {@code "checksum": true}, every frame
 * must carry its checksum, since the flag that announces it sits in the unprotected frame header
 * and a flipped bit there, with the last four bytes cut, would otherwise turn damage the checksum
 * should catch into silently different values. Frames that need a dictionary are rejected. Before any output is allocated
 * the frame headers and block headers are read: a truncated stream, or headers that declare more
 * than the allowed decoded size or more than their blocks can hold, fail at once. Output never
 * grows past the allowed size; frames without a content size decode into a buffer bounded by it
 * (single pass when the size is {@link EncodedSize.Fixed}, streaming otherwise), failing as soon
 * as the output would exceed it. So a corrupt or hostile chunk cannot exhaust memory.
 *
 * <p>Specification: <a href="https://github.com/zarr-developers/zarr-extensions/tree/main/codecs/zstd">
 * zarr-extensions codecs/zstd</a>; format: RFC 8878.
 *
 * <p>Names accepted: {@code zstd}. No aliases.
 *
 * <p>Configuration example (both fields optional: {@code level} -131072 to 22, default 0 for
 * zstd's default; {@code checksum} default false; both are always written back):
 *
 * <pre>{@code
 * {"name": "zstd", "configuration": {"level": 0, "checksum": false}}
 * }</pre>
 *
 * <p>Partial operations: no {@link #partialDecoder} (a read fetches whole values), but
 * {@link #decodePrefixInto}: a read that needs only a chunk's first bytes stops decompressing
 * there, unless the frames carry a content checksum. The encoded size is {@link EncodedSize.Bounded}
 * (libzstd's compress bound) when the decoded size is known.
 *
 * <p>A value, equal to another when their configurations are equal. Immutable and thread-safe;
 * libzstd contexts come from a small shared pool.
 *
 * @param zstdConfiguration the typed configuration
 */
public record ZstdCodec(ZstdConfiguration zstdConfiguration) implements BytesToBytesCodec {
    private static final String NAME = ZstdConfiguration.NAME;

    /** Largest byte[] the JVM reliably allocates. */
    static final int MAX_BUFFER = Integer.MAX_VALUE - 8;

    // libzstd error codes (ZSTD_ErrorCode, stable since 1.3).
    private static final long ERROR_CHECKSUM_WRONG = 22;
    private static final long ERROR_DST_SIZE_TOO_SMALL = 70;
    private static final long ERROR_WINDOW_TOO_LARGE = 16;

    /** A codec with the given configuration. */
    public ZstdCodec {
        Objects.requireNonNull(zstdConfiguration, "zstdConfiguration");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return zstdConfiguration.configurationJson();
    }

    /**
     * A fresh, equal instance, so that new metadata records both fields even when they were left
     * out (zarr-core writes a codec's full form only when this returns another instance).
     */
    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        return new ZstdCodec(zstdConfiguration);
    }

    /** Bounded by libzstd's {@code ZSTD_compressBound} when the decoded size is bounded. */
    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        if (decoded instanceof EncodedSize.Unbounded) {
            return EncodedSize.unbounded();
        }
        long bound = compressBound(decoded.max());
        return bound < 0 ? EncodedSize.unbounded() : EncodedSize.bounded(bound);
    }

    /**
     * {@code ZSTD_COMPRESSBOUND(n)} from zstd.h: the largest single frame that compressing
     * {@code n} bytes produces, header and checksum included; -1 when it overflows.
     */
    static long compressBound(long n) {
        long margin = n < ZstdFrames.MAX_BLOCK ? (ZstdFrames.MAX_BLOCK - n) >>> 11 : 0;
        long bound = n + (n >>> 8) + margin;
        return bound < n ? -1 : bound;
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        return encode(decoded, null);
    }

    /**
     * Compresses into lent memory when libzstd can write there from this input (direct to direct,
     * array to array), otherwise into new memory.
     */
    @Override
    public ByteBuffer encode(ByteBuffer decoded, BufferLender lender) {
        ByteBuffer in = decoded.slice();
        int n = in.remaining();
        long bound = compressBound(n);
        if (bound > MAX_BUFFER) {
            throw new ZarrException("ZARR-CODEC", NAME + ": " + n + " bytes may compress to " + bound
                    + " bytes, more than the largest buffer (" + MAX_BUFFER + " bytes); use smaller chunks");
        }
        ByteBuffer lent = lender == null ? null : lender.borrow((int) bound);
        ZstdCompressCtx ctx = ZstdContexts.takeCompressor(zstdConfiguration.level(), zstdConfiguration.checksum());
        try {
            boolean lentHeap = lent != null && lent.hasArray();
            if (in.isDirect() && !lentHeap) { // native memory to native memory, no copy; the result stays direct
                ByteBuffer out = lent != null && lent.isDirect() ? lent : ByteBuffer.allocateDirect((int) bound);
                int at = out.position();
                int size = ctx.compressDirectByteBuffer(out, at, (int) bound, in, 0, n);
                return out.slice(at, size);
            }
            byte[] src;
            int offset;
            if (in.hasArray()) {
                src = in.array();
                offset = in.arrayOffset();
            } else { // read-only heap buffer, or direct input with heap memory lent: copying the
                     // input costs less than a direct buffer the collector frees only later
                src = new byte[n];
                in.duplicate().get(src);
                offset = 0;
            }
            if (lentHeap) {
                int at = lent.arrayOffset() + lent.position();
                int size = ctx.compressByteArray(lent.array(), at, (int) bound, src, offset, n);
                return lent.slice(lent.position(), size);
            }
            byte[] out = new byte[(int) bound];
            int size = ctx.compressByteArray(out, 0, out.length, src, offset, n);
            return ByteBuffer.wrap(size < out.length / 2 ? Arrays.copyOf(out, size) : out, 0, size).slice();
        } catch (ZstdException e) {
            throw new ZarrException("ZARR-CODEC", NAME + ": compressing " + n + " bytes at level "
                    + zstdConfiguration.level() + " failed: " + e.getMessage(), e);
        } finally {
            ZstdContexts.give(ctx);
        }
    }

    /**
     * From the frame headers: exactly the sum of the declared content sizes when every frame
     * declares one, else at most that plus what the blocks of the other frames can hold.
     */
    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (!in.hasRemaining()) {
            throw new CorruptDataException(NAME + ": empty input, expected a zstd frame");
        }
        Sizes sizes = Sizes.of(ZstdFrames.scan(in, NAME));
        return sizes.allDeclared() ? EncodedSize.fixed(sizes.declared())
                : EncodedSize.bounded(sizes.declared() + sizes.undeclaredBound());
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        Objects.requireNonNull(decodedSize, "decodedSize");
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (!in.hasRemaining()) {
            throw new CorruptDataException(NAME + ": empty input, expected a zstd frame");
        }
        List<Frame> frames = checksummed(ZstdFrames.scan(in, NAME));
        Sizes sizes = Sizes.of(frames);
        long declared = sizes.declared();
        long undeclaredBound = sizes.undeclaredBound();
        if (declared > decodedSize.max()) {
            throw new CorruptDataException(String.format("%s: the frame headers declare %d decoded bytes, more than"
                    + " %s; nothing decoded (corrupt data or a decompression bomb)", NAME, declared,
                    allowed(decodedSize)));
        }
        if (!in.hasArray() && !in.isDirect()) { // read-only heap buffer: libzstd needs an array or an address
            byte[] copy = new byte[in.remaining()];
            in.duplicate().get(copy);
            in = ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN);
        }
        Output out;
        if (decodedSize instanceof EncodedSize.Fixed fixed) {
            long expected = fixed.bytes();
            if (declared + undeclaredBound < expected) {
                throw new CorruptDataException(String.format("%s: the frames can decode to at most %d bytes,"
                        + " expected %d", NAME, declared + undeclaredBound, expected));
            }
            out = Output.exactly(expected, decodedSize);
        } else {
            // Frames without a declared size get a first guess; the buffer grows while they decode.
            long first = declared + Math.min(undeclaredBound, Math.max(4L * in.remaining(), 8192));
            out = Output.growable(first, decodedSize);
        }
        ZstdDecompressCtx ctx = null;
        try {
            for (Frame f : frames) {
                if (f.sizeKnown() || decodedSize instanceof EncodedSize.Fixed) {
                    if (ctx == null) {
                        ctx = ZstdContexts.takeDecompressor();
                    }
                    decodeWhole(ctx, in, f, out);
                } else {
                    decodeStreaming(in, f, out);
                }
            }
        } finally {
            if (ctx != null) {
                ZstdContexts.give(ctx);
            }
        }
        BytesToBytesCodec.checkDecodedSize(NAME, out.size, decodedSize);
        return out.result();
    }

    /**
     * Decodes frames that all declare their content size straight into the destination, heap or
     * direct, each in one libzstd call; the declared sizes must add up to the destination's size
     * before anything is decoded. Frames without a declared size take the general path.
     */
    @Override
    public void decodeInto(ByteBuffer encoded, ByteBuffer destination) {
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        int size = destination.remaining();
        if (!in.hasRemaining()) {
            throw new CorruptDataException(NAME + ": empty input, expected a zstd frame");
        }
        List<Frame> frames = checksummed(ZstdFrames.scan(in, NAME));
        long declared = 0;
        for (Frame f : frames) {
            if (!f.sizeKnown()) {
                BytesToBytesCodec.super.decodeInto(encoded, destination);
                return;
            }
            declared += f.contentSize();
        }
        if (declared != size) {
            throw new CorruptDataException(String.format("%s: the frame headers declare %d decoded bytes, expected"
                    + " %d; nothing decoded", NAME, declared, size));
        }
        if (!in.hasArray() && !in.isDirect() || !destination.hasArray() && !destination.isDirect()) {
            BytesToBytesCodec.super.decodeInto(encoded, destination); // read-only heap buffers
            return;
        }
        ZstdDecompressCtx ctx = ZstdContexts.takeDecompressor();
        try {
            int at = destination.position();
            for (Frame f : frames) {
                decodeFrame(ctx, in, f, destination, at, (int) f.contentSize(), () -> new CorruptDataException(
                        NAME + ": " + f.where() + " decodes to more than the " + size + " bytes expected"));
                at += (int) f.contentSize();
            }
        } finally {
            ZstdContexts.give(ctx);
        }
    }

    /**
     * Decompresses the frames up to the prefix, the frame it ends in as a stream that stops there
     * (direct buffers only: libzstd's streaming calls take no heap memory). Not for frames with a
     * content checksum, which only the whole frame can verify, nor frames without a declared size.
     */
    @Override
    public boolean decodePrefixInto(ByteBuffer encoded, ByteBuffer destination, int decodedSize) {
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        int prefix = destination.remaining();
        if (!in.isDirect() || !destination.isDirect() || prefix > decodedSize || !in.hasRemaining()) {
            return false;
        }
        List<Frame> frames = checksummed(ZstdFrames.scan(in, NAME));
        long declared = 0;
        for (Frame f : frames) {
            if (!f.sizeKnown() || f.checksum()) {
                return false;
            }
            declared += f.contentSize();
        }
        if (declared != decodedSize) {
            return false; // decodeInto reports it
        }
        ZstdDecompressCtx ctx = ZstdContexts.takeDecompressor();
        try {
            int at = 0;
            for (Frame f : frames) {
                if (at >= prefix) {
                    break;
                }
                int size = (int) f.contentSize();
                if (at + size <= prefix) {
                    decodeFrame(ctx, in, f, destination, destination.position() + at, size,
                            () -> new CorruptDataException(NAME + ": " + f.where() + " decodes to more than declared"));
                } else if (!streamPrefix(ctx, in.slice(f.offset(), f.length()),
                        destination.slice(destination.position() + at, prefix - at), f)) {
                    return false;
                }
                at += size;
            }
            return true;
        } finally {
            ZstdContexts.give(ctx); // resets it, whether a stream stopped part-way or not
        }
    }

    /**
     * Decompresses the start of frame {@code f} until {@code out} (direct, position 0) is full.
     *
     * @return false when the frame's window is larger than libzstd streams by default (128 MiB),
     *         which a whole decode still reads
     */
    private static boolean streamPrefix(ZstdDecompressCtx ctx, ByteBuffer frame, ByteBuffer out, Frame f) {
        ctx.reset();
        try {
            while (out.hasRemaining()) {
                int in = frame.position();
                int produced = out.position();
                boolean ended = ctx.decompressDirectByteBufferStream(out, frame);
                if (out.hasRemaining() && (ended || frame.position() == in && out.position() == produced)) {
                    throw new CorruptDataException(String.format("%s: %s ended after %d decoded bytes, short of the"
                            + " %d its header declares", NAME, f.where(), out.position(), f.contentSize()));
                }
            }
            return true;
        } catch (ZstdException e) {
            if (e.getErrorCode() == ERROR_WINDOW_TOO_LARGE) {
                return false;
            }
            throw failure(e.getErrorCode(), e.getMessage(), f, e);
        }
    }

    /**
     * The frames, checked to carry a content checksum each when the codec is configured with one.
     *
     * @throws CorruptDataException naming the first frame without one
     */
    private List<Frame> checksummed(List<Frame> frames) {
        if (zstdConfiguration.checksum()) {
            for (Frame f : frames) {
                if (!f.checksum()) {
                    throw new CorruptDataException(String.format("%s: %s has no content checksum, but the codec is"
                            + " configured with \"checksum\": true (a damaged frame header, or a writer that"
                            + " ignored the configuration); nothing decoded", NAME, f.where()));
                }
            }
        }
        return frames;
    }

    /**
     * Decodes one frame in a single libzstd call into {@code out} (heap or direct) at {@code at},
     * with {@code room} bytes of space: exactly its declared size, or (without one) whatever room
     * the allowed size leaves, so libzstd stops at the first block past it.
     *
     * @param tooLarge the error for a frame without a declared size that needs more than {@code room}
     * @return the bytes produced
     */
    private static int decodeFrame(ZstdDecompressCtx ctx, ByteBuffer in, Frame f, ByteBuffer out, int at, int room,
                                   Supplier<CorruptDataException> tooLarge) {
        int produced;
        try {
            if (out.isDirect()) {
                // zstd-jni addresses direct buffers from their start, ignoring position.
                produced = in.isDirect()
                        ? ctx.decompressDirectByteBuffer(out, at, room, in, f.offset(), f.length())
                        : ctx.decompressByteArrayToDirectByteBuffer(out, at, room, in.array(),
                                in.arrayOffset() + f.offset(), f.length());
            } else {
                byte[] dst = out.array();
                int dstAt = out.arrayOffset() + at;
                produced = in.isDirect()
                        ? ctx.decompressDirectByteBufferToByteArray(dst, dstAt, room, in, f.offset(), f.length())
                        : ctx.decompressByteArray(dst, dstAt, room, in.array(), in.arrayOffset() + f.offset(),
                                f.length());
            }
        } catch (ZstdException e) {
            if (e.getErrorCode() == ERROR_DST_SIZE_TOO_SMALL) {
                throw f.sizeKnown()
                        ? new CorruptDataException(String.format("%s: %s decodes to more than the %d bytes its"
                                + " header declares", NAME, f.where(), f.contentSize()))
                        : tooLarge.get();
            }
            throw failure(e.getErrorCode(), e.getMessage(), f, e);
        }
        if (f.sizeKnown() && produced != f.contentSize()) {
            throw new CorruptDataException(String.format("%s: %s decoded to %d bytes, but its header declares %d",
                    NAME, f.where(), produced, f.contentSize()));
        }
        return produced;
    }

    /** Decodes one frame in a single pass at the end of the output, growing it to a declared size. */
    private static void decodeWhole(ZstdDecompressCtx ctx, ByteBuffer in, Frame f, Output out) {
        int room;
        if (f.sizeKnown()) {
            out.ensure(out.size + f.contentSize());
            room = (int) f.contentSize();
        } else {
            room = out.buf.length - out.size;
        }
        out.size += decodeFrame(ctx, in, f, ByteBuffer.wrap(out.buf), out.size, room, out::tooLarge);
    }

    /**
     * Decodes one frame without a declared size with libzstd's streaming decoder, growing the
     * output as needed up to the allowed size and failing as soon as it would pass it.
     */
    private static void decodeStreaming(ByteBuffer in, Frame f, Output out) {
        byte[] src;
        int from;
        if (in.hasArray()) {
            src = in.array();
            from = in.arrayOffset() + f.offset();
        } else {
            src = new byte[f.length()];
            in.get(f.offset(), src);
            from = 0;
        }
        // zstd-jni indexes the arrays by position and ignores arrayOffset: wrap, never slice.
        ByteBuffer source = ByteBuffer.wrap(src, from, f.length());
        try (ZstdBufferDecompressingStreamNoFinalizer stream =
                     ZstdContexts.loadNative(() -> new ZstdBufferDecompressingStreamNoFinalizer(source))) {
            while (stream.hasRemaining()) {
                int consumedBefore = source.position();
                int produced;
                if (out.size < out.buf.length || out.grow()) {
                    produced = stream.read(ByteBuffer.wrap(out.buf, out.size, out.buf.length - out.size));
                    out.size += produced;
                } else {
                    // The output is at the limit: one more byte means the data is too large.
                    produced = stream.read(ByteBuffer.allocate(1));
                    if (produced > 0) {
                        throw out.tooLarge();
                    }
                }
                if (produced == 0 && source.position() == consumedBefore && stream.hasRemaining()) {
                    throw new CorruptDataException(String.format("%s: %s ends before its last block is complete",
                            NAME, f.where()));
                }
            }
        } catch (ZstdIOException e) {
            throw failure(e.getErrorCode(), e.getMessage(), f, e);
        } catch (java.io.IOException e) {
            throw new CorruptDataException(NAME + ": " + f.where() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The content sizes the frames declare, added up, and what the frames that declare none can
     * decode to at most (from their block headers).
     */
    private record Sizes(long declared, long undeclaredBound, boolean allDeclared) {
        static Sizes of(List<Frame> frames) {
            long declared = 0;
            long undeclaredBound = 0;
            boolean allDeclared = true;
            for (Frame f : frames) {
                if (f.sizeKnown()) {
                    declared += f.contentSize(); // each is at most its maxDecoded, below 2^50: no overflow
                } else {
                    allDeclared = false;
                    undeclaredBound += f.maxDecoded();
                }
            }
            return new Sizes(declared, undeclaredBound, allDeclared);
        }
    }

    private static CorruptDataException failure(long code, String message, Frame f, Exception cause) {
        // ChecksumMismatchException takes no cause; the libzstd message goes into its text.
        if (code == ERROR_CHECKSUM_WRONG) {
            return new ChecksumMismatchException(String.format("%s: content checksum mismatch in %s: the decoded"
                    + " data does not match the frame's stored XXH64 checksum (%s)", NAME, f.where(), message));
        }
        return new CorruptDataException(String.format("%s: invalid data in %s: %s (libzstd error %d)", NAME,
                f.where(), message, code), cause);
    }

    private static String allowed(EncodedSize size) {
        return size instanceof EncodedSize.Fixed f ? "the expected " + f.bytes() : "the allowed " + size.max();
    }

    /** The decoded bytes so far, in a buffer that never grows past the allowed decoded size. */
    private static final class Output {
        private final EncodedSize expected;
        private final long limit;
        byte[] buf;
        int size;

        private Output(byte[] buf, long limit, EncodedSize expected) {
            this.buf = buf;
            this.limit = limit;
            this.expected = expected;
        }

        static Output exactly(long bytes, EncodedSize expected) {
            if (bytes > MAX_BUFFER) {
                throw tooLargeForJava(bytes);
            }
            return new Output(new byte[(int) bytes], bytes, expected);
        }

        static Output growable(long first, EncodedSize expected) {
            long limit = Math.min(expected.max(), MAX_BUFFER);
            return new Output(new byte[(int) Math.min(first, limit)], limit, expected);
        }

        /** Makes room for {@code total} bytes; fails when that exceeds the limit. */
        void ensure(long total) {
            if (total > buf.length) {
                if (total > limit) {
                    throw total > MAX_BUFFER ? tooLargeForJava(total) : tooLarge();
                }
                buf = Arrays.copyOf(buf, (int) Math.max(total, Math.min(limit, 2L * buf.length)));
            }
        }

        /** Enlarges the buffer; false when it is already at the limit. */
        boolean grow() {
            if (buf.length >= limit) {
                return false;
            }
            buf = Arrays.copyOf(buf, (int) Math.min(limit, Math.max(2L * buf.length, 8192)));
            return true;
        }

        CorruptDataException tooLarge() {
            String allowed = expected instanceof EncodedSize.Fixed f
                    ? "the expected " + f.bytes() + " bytes"
                    : limit < expected.max()
                            ? MAX_BUFFER + " bytes, the largest buffer Java can allocate"
                            : "the allowed " + limit + " bytes";
            return new CorruptDataException(NAME + ": decoded data is larger than " + allowed
                    + "; stopped decompressing (corrupt data or a decompression bomb)");
        }

        private static CorruptDataException tooLargeForJava(long bytes) {
            return new CorruptDataException(NAME + ": " + bytes + " decoded bytes do not fit in one Java buffer"
                    + " (at most " + MAX_BUFFER + " bytes); use smaller chunks");
        }

        ByteBuffer result() {
            byte[] b = size < buf.length / 2 ? Arrays.copyOf(buf, size) : buf;
            return ByteBuffer.wrap(b, 0, size).slice();
        }
    }

    @Override
    public String toString() {
        return "ZstdCodec[level=" + zstdConfiguration.level() + ", checksum=" + zstdConfiguration.checksum() + "]";
    }
}
