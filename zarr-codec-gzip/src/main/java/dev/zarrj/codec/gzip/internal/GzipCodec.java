package dev.zarrj.codec.gzip.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.codec.gzip.GzipConfiguration;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The {@code gzip} bytes→bytes codec: deflate compression in the gzip file format.
 *
 * <p>Deflate runs on the system's libdeflate when it can be loaded (through JNA, on the first
 * chunk encoded or decoded, never when a codec is created) and on {@code java.util.zip} (the JDK's
 * zlib) otherwise, or when the system property {@code zarrj.gzip.native} (environment variable
 * {@code ZARRJ_GZIP_NATIVE}) is {@code false}: see {@link NativeGzip}. Both write standard gzip
 * that every reader accepts; the bytes differ (level N is libdeflate's level N), and each decodes
 * what the other writes.
 *
 * <p>Encoding writes one RFC 1952 member (10-byte header with MTIME 0, raw deflate at the
 * configured level, CRC-32 and ISIZE trailer), readable by zlib, {@code gzip(1)} and Python's
 * {@code gzip}. Output is deterministic for a given library. Whenever deflate would not beat
 * stored blocks (always at level 0) the data is written as stored blocks, which bounds the encoded
 * size (see {@link #encodedSize}).
 *
 * <p>Decoding accepts any RFC 1952 stream: optional header fields (FEXTRA, FNAME, FCOMMENT, and
 * FHCRC, which is verified), several concatenated members, and trailing zero padding. Every
 * member's CRC-32 and ISIZE are verified. Inflation stops as soon as the output exceeds the
 * allowed decoded size, and the output buffer is never larger than that size, so a corrupt or
 * hostile chunk cannot exhaust memory. libdeflate decodes one whole member at a time into the
 * space allowed; whenever it rejects one (corrupt data, a wrong CRC-32 or ISIZE, output larger
 * than allowed), the chunk is decoded again with {@code java.util.zip}, which names the problem, so
 * that both paths fail alike.
 *
 * <p>Specification: <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/gzip/">
 * codecs-gzip.rst</a>; formats: RFC 1951 (deflate), RFC 1952 (gzip).
 *
 * <p>Names accepted: {@code gzip}. No aliases.
 *
 * <p>Configuration example ({@code level} is required, 0 to 9):
 *
 * <pre>{@code
 * {"name": "gzip", "configuration": {"level": 1}}
 * }</pre>
 *
 * <p>Partial operations: none (no {@link #partialDecoder}: a read decodes whole values). The encoded
 * size is {@link EncodedSize.Bounded} when the decoded size is known.
 *
 * <p>A value, equal to another when their configurations (and implementations) are equal.
 * Immutable and thread-safe; zlib streams and libdeflate contexts come from small shared pools.
 *
 * @param gzipConfiguration the typed configuration
 * @param implementation    which deflate library runs: {@link Implementation#AUTO} but in tests
 */
public record GzipCodec(GzipConfiguration gzipConfiguration, Implementation implementation)
        implements BytesToBytesCodec {
    private static final String NAME = GzipConfiguration.NAME;

    private static final int HEADER = 10;
    private static final int TRAILER = 8;
    /** Largest byte[] the JVM reliably allocates. */
    static final int MAX_BUFFER = Integer.MAX_VALUE - 8;
    /** Largest stored block (RFC 1951 §3.2.4: LEN is 16 bits); each costs 5 bytes of framing. */
    static final int STORED_BLOCK = 65535;
    private static final int STORED_BLOCK_OVERHEAD = 5;
    /**
     * Deflate expands at most 1032:1: the longest match (258 bytes) costs at least a 1-bit length
     * code and a 1-bit distance code. Sizes the first output buffer and bounds
     * {@link #decodedSize(ByteBuffer)}.
     */
    private static final long MAX_INFLATE_RATIO = 1032;
    /** The largest decoded/encoded ratio for which a trailer's ISIZE sizes the first output buffer. */
    private static final long TRUSTED_ISIZE_RATIO = 32;

    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int FRESERVED = 0xE0;

    /** A codec with the given configuration, on libdeflate when it loads. */
    public GzipCodec(GzipConfiguration gzipConfiguration) {
        this(gzipConfiguration, Implementation.AUTO);
    }

    /** A codec with the given configuration and implementation. */
    public GzipCodec {
        Objects.requireNonNull(gzipConfiguration, "gzipConfiguration");
        Objects.requireNonNull(implementation, "implementation");
    }

    /** Which library deflates and inflates. */
    public enum Implementation {
        /** libdeflate when {@link NativeGzip#available()}, else {@code java.util.zip}. */
        AUTO,
        /** {@code java.util.zip} always. */
        JAVA_UTIL_ZIP,
        /** libdeflate always; fails when it is not available (for tests). */
        LIBDEFLATE;

        boolean usesLibdeflate() {
            return switch (this) {
                case AUTO -> NativeGzip.available();
                case JAVA_UTIL_ZIP -> false;
                case LIBDEFLATE -> {
                    if (!NativeGzip.available()) {
                        throw new IllegalStateException("libdeflate is not available: " + NativeGzip.describe());
                    }
                    yield true;
                }
            };
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return gzipConfiguration.configurationJson();
    }

    /**
     * Bounded by the stored-block encoding when the decoded size is bounded:
     * {@code n + 5 * max(1, ceil(n / 65535)) + 18}. Encoding falls back to stored blocks whenever
     * deflate would produce more, so the bound holds whatever zlib the JVM links.
     */
    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        if (decoded instanceof EncodedSize.Unbounded) {
            return EncodedSize.unbounded();
        }
        long size = storedSize(decoded.max());
        return size < 0 ? EncodedSize.unbounded() : EncodedSize.bounded(size);
    }

    /** The size of the stored-block gzip encoding of {@code n} bytes, or -1 when it overflows. */
    static long storedSize(long n) {
        long blocks = n == 0 ? 1 : (n - 1) / STORED_BLOCK + 1;
        try {
            return Math.addExact(n, STORED_BLOCK_OVERHEAD * blocks + HEADER + TRAILER);
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        return encode(decoded, BufferLender.allocating());
    }

    /** On libdeflate, the member lands in one buffer of its exact size that {@code lender} lends. */
    @Override
    public ByteBuffer encode(ByteBuffer decoded, BufferLender lender) {
        ByteBuffer in = decoded.slice();
        int n = in.remaining();
        long stored = storedSize(n);
        int level = gzipConfiguration.level();
        if (level > 0 && stored <= MAX_BUFFER && implementation.usesLibdeflate()) {
            ByteBuffer out = NativeGzip.compress(level, in, (int) stored, lender::borrow);
            if (out != null) {
                return out;
            }
            // Deflate would not beat stored blocks: write them as the java.util.zip path does.
            byte[] b = new byte[(int) stored];
            writeHeader(b);
            return finish(b, writeStored(in.duplicate(), b, HEADER), in);
        }
        // One allocation at the worst case: no copies while deflating, trimmed below if mostly empty.
        byte[] out = new byte[(int) Math.min(stored, MAX_BUFFER)];
        writeHeader(out);
        int end = gzipConfiguration.level() == 0 ? -1 : deflate(in.duplicate(), out);
        if (end < 0) {
            if (stored > MAX_BUFFER) {
                throw new ZarrException("ZARR-CODEC", NAME + ": " + n + " bytes do not compress, and stored they"
                        + " would exceed the largest buffer (" + MAX_BUFFER + " bytes); use smaller chunks");
            }
            end = writeStored(in.duplicate(), out, HEADER);
        }
        return finish(out, end, in);
    }

    /** Writes the trailer of {@code in}'s member at {@code end} of {@code out}; trims a mostly empty buffer. */
    private static ByteBuffer finish(byte[] out, int end, ByteBuffer in) {
        int n = in.remaining();
        CRC32 crc = new CRC32();
        crc.update(in.duplicate());
        putIntLE(out, end, (int) crc.getValue());
        putIntLE(out, end + 4, n);
        int size = end + TRAILER;
        if (size < out.length / 2) {
            out = Arrays.copyOf(out, size);
        }
        return ByteBuffer.wrap(out, 0, size).slice();
    }

    private void writeHeader(byte[] out) {
        out[0] = (byte) 0x1f;
        out[1] = (byte) 0x8b;
        out[2] = 8; // CM = deflate; FLG and MTIME stay 0
        int level = gzipConfiguration.level();
        out[8] = (byte) (level == 9 ? 2 : level == 1 ? 4 : 0); // XFL: slowest / fastest
        out[9] = (byte) 255; // OS: unknown
    }

    /** Deflates {@code in} after the header; the end offset, or -1 when it would not fit stored size. */
    private int deflate(ByteBuffer in, byte[] out) {
        int level = gzipConfiguration.level();
        Deflater deflater = ZlibPool.takeDeflater(level);
        try {
            deflater.setInput(in);
            deflater.finish();
            int pos = HEADER;
            int limit = out.length - TRAILER;
            while (!deflater.finished()) {
                if (pos == limit) {
                    return -1;
                }
                pos += deflater.deflate(out, pos, limit - pos);
            }
            return pos;
        } finally {
            ZlibPool.give(level, deflater);
        }
    }

    private static int writeStored(ByteBuffer in, byte[] out, int pos) {
        int remaining = in.remaining();
        do {
            int len = Math.min(remaining, STORED_BLOCK);
            remaining -= len;
            out[pos++] = (byte) (remaining == 0 ? 1 : 0); // BFINAL, BTYPE 00, padding to the byte boundary
            out[pos++] = (byte) len;
            out[pos++] = (byte) (len >>> 8);
            out[pos++] = (byte) ~len;
            out[pos++] = (byte) (~len >>> 8);
            in.get(out, pos, len);
            pos += len;
        } while (remaining > 0);
        return pos;
    }

    private static void putIntLE(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }

    /**
     * At most 1032 times the encoded size: deflate's largest expansion. The trailer's ISIZE is not
     * used: it holds only the last member's size, modulo 2^32, and a stream may have several.
     */
    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        return EncodedSize.bounded(MAX_INFLATE_RATIO * encoded.remaining());
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        Objects.requireNonNull(decodedSize, "decodedSize");
        Output out = Output.allocate(decodedSize, encoded);
        inflateAll(encoded, out, implementation);
        return out.result();
    }

    /** Inflates straight into the destination, heap or direct. */
    @Override
    public void decodeInto(ByteBuffer encoded, ByteBuffer destination) {
        if (destination.isReadOnly()) {
            throw new IllegalArgumentException(NAME + ": cannot decode into a read-only buffer");
        }
        inflateAll(encoded, Output.into(destination), implementation);
    }

    /** Inflates every member of the stream into {@code out} and checks the decoded size. */
    private static void inflateAll(ByteBuffer encoded, Output out, Implementation implementation) {
        if (encoded.remaining() == 0) {
            throw new CorruptDataException(NAME + ": empty input, expected a gzip stream");
        }
        if (!implementation.usesLibdeflate() || !inflateNative(encoded, out)) {
            out.size = 0;
            inflateZlib(encoded, out);
        }
        BytesToBytesCodec.checkDecodedSize(NAME, out.size, out.expected);
    }

    /**
     * Inflates every member with libdeflate, member by member (each header is checked here first,
     * as the zlib path does, since libdeflate skips a header CRC unchecked); false when libdeflate
     * rejects a member, which the zlib path then diagnoses.
     */
    private static boolean inflateNative(ByteBuffer encoded, Output out) {
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        int len = in.remaining();
        try (NativeGzip.Inflation inflation = NativeGzip.inflation(in)) {
            int pos = 0;
            int member = 0;
            do {
                member++;
                readHeader(in, pos, member);
                int status;
                while ((status = inflation.member(pos, out.buf, out.size, out.buf.limit() - out.size))
                        == LibDeflate.INSUFFICIENT_SPACE && out.grow()) {
                    // retry the member in the larger buffer
                }
                if (status != LibDeflate.SUCCESS) {
                    return false;
                }
                pos += (int) inflation.consumed();
                out.size += inflation.produced();
            } while (pos < len && !zerosFrom(in, pos));
        }
        return true;
    }

    /** Inflates every member of the stream into {@code out} with {@code java.util.zip}. */
    private static void inflateZlib(ByteBuffer encoded, Output out) {
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        int len = in.remaining();
        Inflater inflater = ZlibPool.takeInflater();
        try {
            int pos = 0;
            int member = 0;
            do {
                member++;
                int data = readHeader(in, pos, member);
                inflater.reset();
                inflater.setInput(in.duplicate().position(data));
                int memberStart = out.size;
                inflate(inflater, out, member, len);
                pos = checkTrailer(in, len - inflater.getRemaining(), member, out, memberStart);
            } while (pos < len && !zerosFrom(in, pos));
        } finally {
            ZlibPool.give(inflater);
        }
    }

    /** Parses the member header at {@code pos}; returns the offset of its deflate data. */
    private static int readHeader(ByteBuffer in, int pos, int member) {
        int len = in.limit();
        boolean magic = in.get(pos) == (byte) 0x1f && (len - pos < 2 || in.get(pos + 1) == (byte) 0x8b);
        if (!magic) {
            if (member == 1) {
                throw new CorruptDataException(String.format(
                        "%s: not a gzip stream: starts with %s, expected magic 1f 8b", NAME, hex(in, pos, 2)));
            }
            throw new CorruptDataException(String.format("%s: trailing garbage: %d bytes after member %d at offset %d"
                    + " (starting %s) are not a gzip member", NAME, len - pos, member - 1, pos, hex(in, pos, 4)));
        }
        need(in, pos, HEADER, member, "header");
        int method = in.get(pos + 2) & 0xff;
        if (method != 8) {
            throw new CorruptDataException(String.format("%s: member %d at offset %d: compression method %d is not"
                    + " supported, only 8 (deflate)", NAME, member, pos, method));
        }
        int flags = in.get(pos + 3) & 0xff;
        if ((flags & FRESERVED) != 0) {
            throw new CorruptDataException(String.format("%s: member %d at offset %d: reserved header flags set"
                    + " (FLG 0x%02x)", NAME, member, pos, flags));
        }
        int p = pos + HEADER;
        if ((flags & FEXTRA) != 0) {
            need(in, p, 2, member, "FEXTRA length");
            int extra = in.getShort(p) & 0xffff;
            p += 2;
            need(in, p, extra, member, "FEXTRA field");
            p += extra;
        }
        if ((flags & FNAME) != 0) {
            p = skipZeroTerminated(in, p, member, "FNAME");
        }
        if ((flags & FCOMMENT) != 0) {
            p = skipZeroTerminated(in, p, member, "FCOMMENT");
        }
        if ((flags & FHCRC) != 0) {
            need(in, p, 2, member, "FHCRC");
            CRC32 crc = new CRC32();
            crc.update(in.duplicate().position(pos).limit(p));
            int stored = in.getShort(p) & 0xffff;
            int computed = (int) crc.getValue() & 0xffff;
            if (stored != computed) {
                throw new ChecksumMismatchException(String.format("%s: header CRC16 mismatch in member %d:"
                        + " stored 0x%04x, computed 0x%04x", NAME, member, stored, computed));
            }
            p += 2;
        }
        return p;
    }

    private static int skipZeroTerminated(ByteBuffer in, int p, int member, String field) {
        for (int i = p; i < in.limit(); i++) {
            if (in.get(i) == 0) {
                return i + 1;
            }
        }
        throw new CorruptDataException(String.format("%s: stream truncated: member %d's %s starting at offset %d"
                + " has no terminating zero byte before the end of the %d-byte input", NAME, member, field, p,
                in.limit()));
    }

    private static void need(ByteBuffer in, int at, int bytes, int member, String what) {
        if (in.limit() - at < bytes) {
            throw new CorruptDataException(String.format("%s: stream truncated: member %d's %s needs %d bytes at"
                    + " offset %d, but the input ends at %d", NAME, member, what, bytes, at, in.limit()));
        }
    }

    private static void inflate(Inflater inflater, Output out, int member, int len) {
        try {
            while (!inflater.finished()) {
                int k;
                if (out.size < out.buf.limit() || out.grow()) {
                    k = inflater.inflate(out.buf.slice(out.size, out.buf.limit() - out.size));
                    out.size += k;
                } else {
                    // The output is at its limit: one more byte means the data is too large.
                    k = inflater.inflate(new byte[1], 0, 1);
                    if (k > 0) {
                        throw out.tooLarge();
                    }
                }
                if (k == 0 && !inflater.finished()) {
                    if (inflater.needsDictionary()) {
                        throw new CorruptDataException(NAME + ": invalid deflate data in member " + member
                                + ": it asks for a preset dictionary");
                    }
                    if (inflater.needsInput()) {
                        throw new CorruptDataException(String.format("%s: stream truncated: member %d's deflate data"
                                + " is incomplete at the end of the %d-byte input (after %d decoded bytes)",
                                NAME, member, len, out.size));
                    }
                }
            }
        } catch (DataFormatException e) {
            throw new CorruptDataException(String.format("%s: invalid deflate data in member %d at input offset %d:"
                    + " %s", NAME, member, len - inflater.getRemaining(), e.getMessage()), e);
        }
    }

    /** Verifies the member's CRC-32 and ISIZE at {@code at}; returns the offset after the trailer. */
    private static int checkTrailer(ByteBuffer in, int at, int member, Output out, int memberStart) {
        need(in, at, TRAILER, member, "trailer (CRC32, ISIZE)");
        int decoded = out.size - memberStart;
        CRC32 crc = new CRC32();
        crc.update(out.buf.slice(memberStart, decoded));
        int storedCrc = in.getInt(at);
        if (storedCrc != (int) crc.getValue()) {
            throw new ChecksumMismatchException(String.format("%s: CRC32 mismatch in member %d: stored 0x%08x,"
                    + " computed 0x%08x", NAME, member, storedCrc, (int) crc.getValue()));
        }
        int storedSize = in.getInt(at + 4);
        if (storedSize != decoded) {
            throw new CorruptDataException(String.format("%s: ISIZE mismatch in member %d: the trailer says %d bytes"
                    + " (mod 2^32), decoded %d", NAME, member, Integer.toUnsignedLong(storedSize), decoded));
        }
        return at + TRAILER;
    }

    /** Whether everything from {@code pos} on is zero: padding that gzip(1) and Python accept. */
    private static boolean zerosFrom(ByteBuffer in, int pos) {
        for (int i = pos; i < in.limit(); i++) {
            if (in.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static String hex(ByteBuffer in, int pos, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = pos; i < Math.min(in.limit(), pos + max); i++) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format("%02x", in.get(i) & 0xff));
        }
        return sb.toString();
    }

    /**
     * The decoded bytes so far, {@code [0, size)} of {@code buf}: either a heap buffer that grows
     * up to the allowed decoded size, or a given destination of exactly the expected size.
     */
    private static final class Output {
        final EncodedSize expected;
        private final long limit;
        private final boolean growable;
        ByteBuffer buf;
        int size;

        private Output(ByteBuffer buf, EncodedSize expected, long limit, boolean growable) {
            this.buf = buf;
            this.expected = expected;
            this.limit = limit;
            this.growable = growable;
        }

        static Output allocate(EncodedSize expected, ByteBuffer encoded) {
            int encodedLength = encoded.remaining();
            long limit = Math.min(expected.max(), MAX_BUFFER);
            long plausible = MAX_INFLATE_RATIO * encodedLength + 64;
            // The last member's ISIZE, the size of a one-member stream, sizes the first buffer, but
            // only up to a ratio that real data reaches: a lying trailer costs no large allocation.
            long isize = encodedLength < 4 ? 0
                    : Integer.toUnsignedLong(encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(encoded.limit() - 4));
            long hint = Math.min(isize, TRUSTED_ISIZE_RATIO * encodedLength);
            long first = expected instanceof EncodedSize.Fixed
                    ? plausible
                    : Math.min(plausible, Math.max(hint, Math.max(4L * encodedLength, 8192)));
            return new Output(ByteBuffer.allocate((int) Math.min(limit, first)), expected, limit, true);
        }

        static Output into(ByteBuffer destination) {
            int size = destination.remaining();
            return new Output(destination.slice(), EncodedSize.fixed(size), size, false);
        }

        /** Enlarges the buffer; false when it is already at the limit. */
        boolean grow() {
            if (!growable || buf.limit() >= limit) {
                return false;
            }
            buf = ByteBuffer.wrap(Arrays.copyOf(buf.array(), (int) Math.min(limit, Math.max(2L * buf.limit(), 8192))));
            return true;
        }

        CorruptDataException tooLarge() {
            String allowed = expected instanceof EncodedSize.Fixed f
                    ? "the expected " + f.bytes() + " bytes"
                    : limit < expected.max() || expected instanceof EncodedSize.Unbounded
                            ? MAX_BUFFER + " bytes, the largest buffer Java can allocate"
                            : "the allowed " + limit + " bytes";
            return new CorruptDataException(NAME + ": decoded data is larger than " + allowed
                    + "; stopped inflating (corrupt data or a decompression bomb)");
        }

        ByteBuffer result() {
            byte[] b = size < buf.limit() / 2 ? Arrays.copyOf(buf.array(), size) : buf.array();
            return ByteBuffer.wrap(b, 0, size).slice();
        }
    }

    @Override
    public String toString() {
        return "GzipCodec[level=" + gzipConfiguration.level()
                + (implementation == Implementation.AUTO ? "" : ", " + implementation) + "]";
    }
}
