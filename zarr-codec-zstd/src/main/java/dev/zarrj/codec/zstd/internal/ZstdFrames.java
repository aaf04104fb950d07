package dev.zarrj.codec.zstd.internal;

import dev.zarrj.api.CorruptDataException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The frame structure of a zstd stream (RFC 8878 §3.1), read from the headers without
 * decompressing: where each frame starts and ends, the content size its header declares, and the
 * most its blocks can decode to.
 *
 * <p>Walking the block headers first lets the codec reject truncation, reserved bits, frames that
 * need a dictionary and headers that declare more than their blocks can hold before it allocates
 * any output, and delimits the frames so that each is decoded on its own.
 */
final class ZstdFrames {
    static final int MAGIC = 0xFD2FB528;
    /** Skippable frames use 0x184D2A50 to 0x184D2A5F. */
    private static final int SKIPPABLE_MAGIC = 0x184D2A50;
    /**
     * The most one compressed block of a conforming frame decodes to (RFC 8878 §3.1.1.2.4,
     * Block_Maximum_Size). libzstd does not enforce it when decoding in one pass, so it only
     * serves to reject headers that declare more than a conforming frame could hold; output is
     * bounded by the allowed size regardless.
     */
    static final int MAX_BLOCK = 128 * 1024;
    static final long UNKNOWN = -1;

    private static final int RAW = 0;
    private static final int RLE = 1;
    private static final int COMPRESSED = 2;

    private ZstdFrames() {}

    /**
     * One data frame.
     *
     * @param number      1-based position among all frames of the stream, skippable ones included
     * @param offset      where the frame starts
     * @param length      its encoded length, checksum included
     * @param contentSize the decoded size its header declares, or {@link #UNKNOWN}
     * @param maxDecoded  the most its blocks decode to if it conforms (exact without compressed blocks)
     * @param checksum    whether its header says it ends with a content checksum
     */
    record Frame(int number, int offset, int length, long contentSize, long maxDecoded, boolean checksum) {
        boolean sizeKnown() {
            return contentSize != UNKNOWN;
        }

        String where() {
            return "frame " + number + " at offset " + offset;
        }
    }

    /**
     * The data frames of {@code in} (position 0 to limit, little-endian), skippable frames left
     * out.
     *
     * @throws CorruptDataException when the input is not a complete sequence of zstd frames
     */
    static List<Frame> scan(ByteBuffer in, String codec) {
        List<Frame> frames = new ArrayList<>();
        int end = in.limit();
        int pos = 0;
        int number = 0;
        while (pos < end) {
            number++;
            if (end - pos < 4 && isMagicPrefix(in, pos)) {
                need(in, pos, 4, codec, "frame " + number + "'s magic number");
            }
            int magic = end - pos >= 4 ? in.getInt(pos) : 0;
            if ((magic & 0xFFFFFFF0) == SKIPPABLE_MAGIC) {
                need(in, pos, 8, codec, "skippable frame " + number + "'s header");
                long size = Integer.toUnsignedLong(in.getInt(pos + 4));
                need(in, pos + 8, size, codec, "skippable frame " + number + "'s content");
                pos += 8 + (int) size;
            } else if (magic == MAGIC) {
                Frame f = frame(in, pos, number, codec);
                frames.add(f);
                pos += f.length();
            } else if (number == 1) {
                throw new CorruptDataException(String.format("%s: not a zstd frame: the input starts with %s,"
                        + " expected the magic number 28 b5 2f fd", codec, hex(in, 0, 4)));
            } else {
                throw new CorruptDataException(String.format("%s: trailing garbage: %d bytes after frame %d, at"
                        + " offset %d (starting %s), are not a zstd frame", codec, end - pos, number - 1, pos,
                        hex(in, pos, 4)));
            }
        }
        return frames;
    }

    private static Frame frame(ByteBuffer in, int start, int number, String codec) {
        String frame = "frame " + number;
        need(in, start, 5, codec, frame + "'s header");
        int descriptor = in.get(start + 4) & 0xff;
        int fcsFlag = descriptor >>> 6;
        boolean singleSegment = (descriptor & 0x20) != 0;
        boolean checksum = (descriptor & 0x04) != 0;
        int dictFlag = descriptor & 0x03;
        if ((descriptor & 0x08) != 0) {
            throw new CorruptDataException(String.format("%s: %s at offset %d: the reserved bit of the frame header"
                    + " descriptor is set (0x%02x)", codec, frame, start, descriptor));
        }
        int dictBytes = dictFlag == 3 ? 4 : dictFlag;
        int fcsBytes = fcsFlag == 0 ? (singleSegment ? 1 : 0) : 1 << fcsFlag;
        int headerBytes = 5 + (singleSegment ? 0 : 1) + dictBytes + fcsBytes;
        need(in, start, headerBytes, codec, frame + "'s header");
        int p = start + 5;
        long windowSize = 0;
        if (!singleSegment) {
            int wd = in.get(p++) & 0xff;
            long base = 1L << (10 + (wd >>> 3));
            windowSize = base + (base >>> 3) * (wd & 7);
        }
        long dictId = littleEndian(in, p, dictBytes);
        p += dictBytes;
        if (dictId != 0) {
            throw new CorruptDataException(String.format("%s: %s at offset %d needs dictionary %d; the Zarr zstd"
                    + " codec does not use dictionaries", codec, frame, start, dictId));
        }
        long contentSize = fcsBytes == 0 ? UNKNOWN : littleEndian(in, p, fcsBytes) + (fcsBytes == 2 ? 256 : 0);
        p += fcsBytes;
        // Each block header (3 bytes) declares at most 2^21 bytes, so maxDecoded stays below 2^50.
        long maxDecoded = 0;
        int block = 0;
        boolean last = false;
        while (!last) {
            block++;
            need(in, p, 3, codec, "block " + block + " of " + frame);
            int header = (in.get(p) & 0xff) | (in.get(p + 1) & 0xff) << 8 | (in.get(p + 2) & 0xff) << 16;
            p += 3;
            last = (header & 1) != 0;
            int type = (header >>> 1) & 3;
            int size = header >>> 3;
            switch (type) {
                case RAW -> {
                    need(in, p, size, codec, "block " + block + " of " + frame);
                    p += size;
                    maxDecoded += size;
                }
                case RLE -> {
                    need(in, p, 1, codec, "block " + block + " of " + frame);
                    p += 1;
                    maxDecoded += size;
                }
                case COMPRESSED -> {
                    need(in, p, size, codec, "block " + block + " of " + frame);
                    p += size;
                    maxDecoded += MAX_BLOCK;
                }
                default -> throw new CorruptDataException(String.format("%s: %s at offset %d: block %d has the"
                        + " reserved block type 3", codec, frame, start, block));
            }
        }
        if (checksum) {
            need(in, p, 4, codec, frame + "'s content checksum");
            p += 4;
        }
        // libzstd would fail this frame after decoding it; failing now spares the output allocation.
        if (contentSize != UNKNOWN && Long.compareUnsigned(contentSize, maxDecoded) > 0) {
            throw new CorruptDataException(String.format("%s: %s at offset %d declares %s decoded bytes, but its"
                    + " blocks can hold at most %d (corrupt data or a decompression bomb)", codec, frame, start,
                    Long.toUnsignedString(contentSize), maxDecoded));
        }
        return new Frame(number, start, p - start, contentSize, maxDecoded, checksum);
    }

    private static boolean isMagicPrefix(ByteBuffer in, int pos) {
        for (int i = pos; i < in.limit(); i++) {
            if (in.get(i) != (byte) (MAGIC >>> (8 * (i - pos)))) {
                return false;
            }
        }
        return true;
    }

    private static void need(ByteBuffer in, int at, long bytes, String codec, String what) {
        if (in.limit() - at < bytes) {
            throw new CorruptDataException(String.format("%s: truncated: %s needs %d bytes at offset %d, but the"
                    + " input ends at %d", codec, what, bytes, at, in.limit()));
        }
    }

    private static long littleEndian(ByteBuffer in, int at, int bytes) {
        long v = 0;
        for (int i = bytes - 1; i >= 0; i--) {
            v = v << 8 | (in.get(at + i) & 0xff);
        }
        return v;
    }

    static String hex(ByteBuffer in, int pos, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = pos; i < Math.min(in.limit(), pos + max); i++) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format("%02x", in.get(i) & 0xff));
        }
        return sb.length() == 0 ? "nothing" : sb.toString();
    }
}
