package dev.zarrj.codec.blosc.internal;

import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;

/**
 * The 16-byte header of a blosc 1.x frame, read and checked before any byte reaches c-blosc.
 *
 * <pre>
 * byte 0  version (2)      byte 1  versionlz      byte 2  flags      byte 3  typesize
 * bytes 4-7   nbytes    (decoded size, little-endian)
 * bytes 8-11  blocksize
 * bytes 12-15 cbytes    (frame size, header included)
 * </pre>
 *
 * <p>Flags: bit 0 byte shuffle, bit 1 stored uncompressed ("memcpyed"), bit 2 bit shuffle, bit 3
 * reserved (0), bit 4 blocks not split, bits 5-7 the compressor's format code. See
 * <a href="https://github.com/Blosc/c-blosc/blob/main/README_CHUNK_FORMAT.rst">README_CHUNK_FORMAT</a>.
 *
 * <p>c-blosc's {@code blosc_decompress_ctx} takes no input length: it trusts {@code cbytes} and
 * checks every offset in the frame against it. {@link #read} therefore requires {@code cbytes} to
 * be the input's length, and {@code nbytes} to be what the caller allows before anything is
 * allocated for the output.
 *
 * @param flags     the flags byte
 * @param typesize  the shuffle stride, 1 to 255
 * @param nbytes    the decoded size
 * @param blocksize the block size
 * @param cbytes    the frame's size, header included
 */
record BloscHeader(int flags, int typesize, int nbytes, int blocksize, int cbytes) {
    /** Header size, and c-blosc's {@code BLOSC_MAX_OVERHEAD}: the most compression ever adds. */
    static final int SIZE = 16;
    /** c-blosc 1.x's {@code BLOSC_MAX_BUFFERSIZE}: the largest buffer it compresses. */
    static final int MAX_BUFFER = Integer.MAX_VALUE - SIZE;
    /** The only frame format c-blosc 1.x reads and writes ({@code BLOSC_VERSION_FORMAT}). */
    static final int VERSION = 2;

    static final int BYTE_SHUFFLE = 0x01;
    static final int MEMCPYED = 0x02;
    static final int BIT_SHUFFLE = 0x04;
    private static final int RESERVED = 0x08;

    /** c-blosc's format codes (bits 5-7 of the flags), by index. */
    private static final String[] FORMATS = {"blosclz", "lz4", "snappy", "zlib", "zstd"};

    private static final String NAME = "blosc";

    /** Whether the blocks are stored as they are, uncompressed and unshuffled. */
    boolean memcpyed() {
        return (flags & MEMCPYED) != 0;
    }

    /** The compressor format code: 0 blosclz, 1 lz4 (and lz4hc), 2 snappy, 3 zlib, 4 zstd. */
    int formatCode() {
        return flags >>> 5;
    }

    /** The c-blosc library name of {@link #formatCode()} ({@code "lz4"} for lz4hc too). */
    String formatName() {
        return formatCode() < FORMATS.length ? FORMATS[formatCode()] : "unknown (" + formatCode() + ")";
    }

    /**
     * Reads and checks the header of the frame that is the whole of {@code frame} (position to
     * limit).
     *
     * @param expected    the decoded size the caller allows
     * @param compressors the compressors the installed c-blosc includes
     * @throws CorruptDataException when the frame is truncated, inconsistent, too large for
     *                              {@code expected}, or needs a compressor that is not installed
     */
    static BloscHeader read(ByteBuffer frame, EncodedSize expected, Set<String> compressors) {
        return read(frame, frame.remaining(), expected, compressors);
    }

    /**
     * Reads and checks the header at the start of {@code start} (at least its first {@link #SIZE}
     * bytes, position to limit), the frame being {@code length} bytes long: the checks of
     * {@link #read(ByteBuffer, EncodedSize, Set)}, for a frame read in parts.
     */
    static BloscHeader read(ByteBuffer start, long length, EncodedSize expected, Set<String> compressors) {
        ByteBuffer in = start.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (length < SIZE || in.remaining() < SIZE) {
            throw corrupt(length == 0 ? "empty input, expected a blosc frame (at least a " + SIZE + "-byte header)"
                    : "truncated: " + length + " bytes, shorter than the " + SIZE + "-byte blosc header");
        }
        int version = in.get(0) & 0xff;
        int flags = in.get(2) & 0xff;
        int typesize = in.get(3) & 0xff;
        long nbytes = Integer.toUnsignedLong(in.getInt(4));
        long blocksize = Integer.toUnsignedLong(in.getInt(8));
        long cbytes = Integer.toUnsignedLong(in.getInt(12));
        if (version != VERSION) {
            throw corrupt("not a blosc 1.x frame: format version " + version + ", expected " + VERSION
                    + (version > VERSION ? " (frames of c-blosc2's newer formats are not supported)" : ""));
        }
        if (cbytes != length) {
            throw corrupt(cbytes > length
                    ? "truncated: the header says the frame has " + cbytes + " bytes, but only " + length + " are present"
                    : "the header says the frame has " + cbytes + " bytes, but the input has " + length
                            + " (" + (length - cbytes) + " trailing bytes)");
        }
        if ((flags & RESERVED) != 0) {
            throw corrupt(String.format("reserved flag bit 3 is set (flags 0x%02x)", flags));
        }
        if (typesize == 0) {
            throw corrupt("typesize 0 in the header; it must be 1 to 255");
        }
        if (nbytes > MAX_BUFFER) {
            throw corrupt("the header claims " + nbytes + " decoded bytes, more than c-blosc's maximum of " + MAX_BUFFER);
        }
        BloscHeader h = new BloscHeader(flags, typesize, (int) nbytes, (int) Math.min(blocksize, Integer.MAX_VALUE),
                (int) cbytes);
        if (expected instanceof EncodedSize.Fixed f && nbytes != f.bytes()) {
            throw corrupt("the header says the frame decodes to " + nbytes + " bytes, expected " + f.bytes());
        }
        if (nbytes > expected.max()) {
            throw corrupt("the header says the frame decodes to " + nbytes + " bytes, more than the " + expected.max()
                    + " allowed");
        }
        if (nbytes == 0) {
            return h;
        }
        if (h.memcpyed()) {
            if (cbytes != nbytes + SIZE) {
                throw corrupt("an uncompressed frame of " + nbytes + " decoded bytes must have " + (nbytes + SIZE)
                        + " bytes, but has " + cbytes);
            }
            return h;
        }
        if (blocksize == 0 || blocksize > nbytes) {
            throw corrupt("block size " + blocksize + " in the header is not in [1, " + nbytes + "] (the decoded size)");
        }
        long blocks = (nbytes + blocksize - 1) / blocksize;
        if (SIZE + 4 * blocks > cbytes) {
            throw corrupt("truncated: " + blocks + " blocks need a " + (4 * blocks) + "-byte table of offsets after"
                    + " the header, but the frame has only " + cbytes + " bytes");
        }
        if (!compressors.contains(h.formatName())) {
            throw new CorruptDataException(NAME + ": the frame was compressed with " + h.formatName()
                    + ", which the installed c-blosc does not include (it has " + String.join(", ", sorted(compressors))
                    + ")");
        }
        return h;
    }

    private static java.util.List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }

    private static CorruptDataException corrupt(String message) {
        return new CorruptDataException(NAME + ": " + message);
    }
}
