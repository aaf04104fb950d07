package dev.zarrj.codec.blosc.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Where each block of a compressed blosc 1.x frame lies, so that runs of whole blocks can be cut
 * out as frames of their own ("sub-frames") and decoded apart: on several threads, or only the
 * blocks a read needs.
 *
 * <p>c-blosc 1.x compresses every block on its own (shuffle and compressor state start afresh in
 * each), and a frame is the 16-byte header, a table of the blocks' int32 start offsets
 * (little-endian, from the frame's start) and the blocks' bytes. A block's bytes run from its start
 * to the next larger start, or to {@code cbytes}: writers store them one after the other, in
 * index order or (with c-blosc's own threads) in the order they were finished. A sub-frame of
 * blocks {@code [first, last)} is the same header with {@code nbytes} and {@code cbytes} of the
 * sub-frame, the same block size and flags, a rebased table, and those blocks' bytes. Whether a
 * block is split into streams depends only on the flags and on whether it is the frame's last,
 * partial block, which stays the last block of a sub-frame that holds it: so a sub-frame decodes
 * to exactly its blocks' part of the whole decode.
 *
 * <p>{@link #of} refuses ({@code null}) anything but a plain layout: uncompressed frames, fewer
 * than two blocks, starts inside the header or table or at or past the end, or two blocks sharing
 * a start. Callers then decode the whole frame as before, and c-blosc reports what is wrong.
 * Immutable.
 */
final class BloscBlocks {
    private final BloscHeader header;
    /** Header bytes 0 and 1: format version and compressor format version, copied into sub-frames. */
    private final byte version;
    private final byte versionlz;
    private final int count;
    private final int[] starts;
    private final int[] ends;

    private BloscBlocks(BloscHeader header, byte version, byte versionlz, int count, int[] starts, int[] ends) {
        this.header = header;
        this.version = version;
        this.versionlz = versionlz;
        this.count = count;
        this.starts = starts;
        this.ends = ends;
    }

    /** How many blocks a checked, compressed frame with this header has (0 for a block size of 0, which c-blosc refuses). */
    static int count(BloscHeader h) {
        return h.blocksize() <= 0 ? 0 : (int) ((h.nbytes() + (long) h.blocksize() - 1) / h.blocksize());
    }

    /**
     * The blocks of a frame whose header {@code h} has passed {@link BloscHeader#read}, from the
     * frame's start ({@code start}, position to limit: at least the header and the start-offset
     * table, {@code 16 + 4 × count(h)} bytes), or
     * {@code null} when the layout is not plain (see the class comment) or {@code h} has fewer
     * than two blocks.
     */
    static BloscBlocks of(BloscHeader h, ByteBuffer start) {
        if (h.memcpyed() || h.nbytes() == 0 || h.blocksize() <= 0 || h.blocksize() >= h.nbytes()) {
            return null;
        }
        int n = count(h);
        ByteBuffer t = start.slice().order(ByteOrder.LITTLE_ENDIAN);
        long dataStart = BloscHeader.SIZE + 4L * n;
        if (t.remaining() < dataStart) {
            return null;
        }
        long[] sorted = new long[n];
        int[] starts = new int[n];
        for (int i = 0; i < n; i++) {
            int s = t.getInt(BloscHeader.SIZE + 4 * i);
            if (s < dataStart || s >= h.cbytes()) {
                return null;
            }
            starts[i] = s;
            sorted[i] = ((long) s << 32) | i;
        }
        Arrays.sort(sorted);
        int[] ends = new int[n];
        for (int k = 0; k < n; k++) {
            int s = (int) (sorted[k] >>> 32);
            int next = k + 1 < n ? (int) (sorted[k + 1] >>> 32) : h.cbytes();
            if (next == s) {
                return null;
            }
            ends[(int) sorted[k]] = next;
        }
        return new BloscBlocks(h, t.get(0), t.get(1), n, starts, ends);
    }

    BloscHeader header() {
        return header;
    }

    int count() {
        return count;
    }

    /**
     * Where a sub-frame that must hold blocks {@code [first, last)} starts: {@code first}, or the
     * block before it when the sub-frame would be the frame's partial last block alone, which
     * c-blosc refuses (a frame that decodes to less than its block size).
     */
    int decodableFirst(int first, int last) {
        return first > 0 && first == last - 1 && last == count && hasPartialLast() ? first - 1 : first;
    }

    /** Header flag bit 4: the blocks are not split into one stream per byte of the type. */
    private static final int DONT_SPLIT = 0x10;

    /**
     * Whether every stream of blocks {@code [first, last)} lies inside its block's extent (from
     * its start to the next larger start), {@code data} holding the frame's bytes from offset
     * {@code dataOffset} on, as for {@link #writeSubFrame}. A block is one stream, or with split
     * blocks (not the frame's partial last one) one per byte of the type, each an int32 length
     * and that many bytes. c-blosc reads a block's streams wherever their lengths lead, also past
     * the next block's start; in a sub-frame other bytes follow than in the whole frame, so a
     * frame whose streams overrun is decoded whole, never in pieces that could decode otherwise.
     */
    boolean streamsFit(ByteBuffer data, int dataOffset, int first, int last) {
        ByteBuffer d = data.slice().order(ByteOrder.LITTLE_ENDIAN);
        boolean dontSplit = (header.flags() & DONT_SPLIT) != 0;
        for (int i = first; i < last; i++) {
            boolean leftover = i == count - 1 && hasPartialLast();
            int streams = dontSplit || leftover ? 1 : header.typesize();
            long pos = starts[i];
            long end = ends[i];
            for (int s = 0; s < streams; s++) {
                if (pos + 4 > end || pos - dataOffset < 0 || pos + 4 - dataOffset > d.limit()) {
                    return false;
                }
                int length = d.getInt((int) (pos - dataOffset));
                if (length < 0 || pos + 4 + length > end) {
                    return false;
                }
                pos += 4L + length;
            }
        }
        return true;
    }

    /** Whether the last block is shorter than the block size. */
    boolean hasPartialLast() {
        return header.nbytes() % header.blocksize() != 0;
    }

    /** The decoded offset of block {@code i} (or the decoded size for {@code i == count()}). */
    long decodedStart(int i) {
        return Math.min((long) i * header.blocksize(), header.nbytes());
    }

    /** The decoded size of blocks {@code [first, last)}. */
    int decodedSize(int first, int last) {
        return (int) (decodedStart(last) - decodedStart(first));
    }

    /** The smallest start of blocks {@code [first, last)} in the frame. */
    int dataStart(int first, int last) {
        int min = Integer.MAX_VALUE;
        for (int i = first; i < last; i++) {
            min = Math.min(min, starts[i]);
        }
        return min;
    }

    /** The largest end of blocks {@code [first, last)} in the frame. */
    int dataEnd(int first, int last) {
        int max = 0;
        for (int i = first; i < last; i++) {
            max = Math.max(max, ends[i]);
        }
        return max;
    }

    /** The size of the sub-frame of blocks {@code [first, last)}. */
    int subFrameSize(int first, int last) {
        long size = BloscHeader.SIZE + 4L * (last - first);
        for (int i = first; i < last; i++) {
            size += ends[i] - starts[i];
        }
        return (int) size; // at most cbytes plus a header
    }

    /**
     * Writes the sub-frame of blocks {@code [first, last)} into {@code out} at index {@code at};
     * {@code data} holds the frame's bytes from offset {@code dataOffset} on (position to limit),
     * at least up to {@link #dataEnd} of those blocks.
     *
     * @return the sub-frame's size
     */
    int writeSubFrame(int first, int last, ByteBuffer data, int dataOffset, ByteBuffer out, int at) {
        int size = subFrameSize(first, last);
        ByteBuffer o = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer d = data.slice();
        o.put(at, version);
        o.put(at + 1, versionlz);
        o.put(at + 2, (byte) header.flags());
        o.put(at + 3, (byte) header.typesize());
        o.putInt(at + 4, decodedSize(first, last));
        o.putInt(at + 8, header.blocksize());
        o.putInt(at + 12, size);
        int pos = BloscHeader.SIZE + 4 * (last - first);
        for (int i = first; i < last; i++) {
            int len = ends[i] - starts[i];
            o.putInt(at + BloscHeader.SIZE + 4 * (i - first), pos);
            o.put(at + pos, d, starts[i] - dataOffset, len);
            pos += len;
        }
        return size;
    }
}
