package dev.zarrj.codec.blosc.internal;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The decoded bytes of a stored blosc frame, read by decoding only the blocks a read overlaps.
 *
 * <p>The first read fetches the header and the table of block starts (two ranged reads), checked
 * as a whole decode checks them ({@link BloscHeader#read}); each read then fetches the bytes of
 * the blocks it needs in one ranged read and decodes them as one sub-frame ({@link BloscBlocks},
 * {@link BloscCodec#decodePieces}), in the calling thread: a region read keeps every thread busy
 * with parts of chunks of its own. An uncompressed frame is read straight from its stored bytes.
 * A frame of one block, or of a layout {@link BloscBlocks#of} refuses, or a read that needs every
 * block, or one that c-blosc rejects in pieces, is read and decoded whole, so corrupt frames fail
 * as they do there. When the input does not know its size, bytes stored after the frame's
 * {@code cbytes} go unnoticed here, as with the {@code bytes} codec's partial decoder; a whole
 * decode rejects them.
 *
 * <p>Thread-safe: the header and table are read once and kept (a race reads them twice).
 */
final class BloscPartialSource implements ByteSource {
    private static final String NAME = "blosc";

    private final BloscCodec codec;
    private final ByteSource input;
    private final int size;
    /** The header and block table once read: a cache, not state. */
    private volatile Layout layout;

    /** What the first read learned: the header, and the blocks when they can be decoded apart. */
    private record Layout(BloscHeader header, BloscBlocks blocks) {}

    BloscPartialSource(BloscCodec codec, ByteSource input, int size) {
        this.codec = codec;
        this.input = input;
        this.size = size;
    }

    @Override
    public OptionalLong size() {
        return OptionalLong.of(size);
    }

    @Override
    public Optional<ByteBuffer> read(ByteRange range) {
        long[] r;
        try {
            r = range.resolve(size);
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(NAME + ": " + e.getMessage());
        }
        Layout l = layout();
        if (l == null) {
            return Optional.empty();
        }
        int start = (int) r[0];
        int end = (int) r[1];
        if (start == end) {
            return Optional.of(ByteBuffer.allocate(0));
        }
        BloscHeader h = l.header();
        if (h.memcpyed()) {
            return readExactly(BloscHeader.SIZE + start, end - start);
        }
        BloscBlocks blocks = l.blocks();
        if (blocks == null) {
            return readWhole(start, end);
        }
        int last = (int) (((long) end + h.blocksize() - 1) / h.blocksize());
        int first = blocks.decodableFirst(start / h.blocksize(), last);
        if (last - first == blocks.count()) {
            return readWhole(start, end);
        }
        int dataStart = blocks.dataStart(first, last);
        Optional<ByteBuffer> data = readExactly(dataStart, blocks.dataEnd(first, last) - dataStart);
        if (data.isEmpty()) {
            return data;
        }
        int decoded = blocks.decodedSize(first, last);
        int from = (int) (start - blocks.decodedStart(first));
        try (Scratch out = Scratch.take(BloscCodec.blockSize(h))) {
            ByteBuffer dest = out.buffer(decoded);
            if (!codec.decodePieces(codec.nativeLibrary(), blocks, first, last, data.get(), dataStart, dest, null,
                    false)) {
                return readWhole(start, end);
            }
            byte[] result = new byte[end - start];
            dest.get(from, result);
            return Optional.of(ByteBuffer.wrap(result));
        }
    }

    /** The header and block table, read on the first call; null when the value is absent. */
    private Layout layout() {
        Layout l = layout;
        if (l != null) {
            return l;
        }
        Optional<ByteBuffer> head = input.read(ByteRange.of(0, BloscHeader.SIZE));
        if (head.isEmpty()) {
            return null;
        }
        ByteBuffer hb = head.get();
        long length = input.size().orElse(hb.remaining() < BloscHeader.SIZE ? hb.remaining()
                : Integer.toUnsignedLong(hb.order(ByteOrder.LITTLE_ENDIAN).getInt(hb.position() + 12)));
        BloscHeader h = BloscHeader.read(hb, length, EncodedSize.fixed(size), codec.nativeLibrary().compressors());
        BloscBlocks blocks = null;
        long tableBytes = 4L * BloscBlocks.count(h); // within cbytes (checked), which may pass 2 GiB
        if (!h.memcpyed() && h.nbytes() > 0 && h.blocksize() > 0 && tableBytes <= Integer.MAX_VALUE - BloscHeader.SIZE) {
            int tableEnd = BloscHeader.SIZE + (int) tableBytes;
            Optional<ByteBuffer> table = readExactly(BloscHeader.SIZE, tableEnd - BloscHeader.SIZE);
            if (table.isEmpty()) {
                return null;
            }
            ByteBuffer start = ByteBuffer.allocate(tableEnd).put(0, hb, hb.position(), BloscHeader.SIZE)
                    .put(BloscHeader.SIZE, table.get(), table.get().position(), tableEnd - BloscHeader.SIZE);
            blocks = BloscBlocks.of(h, start);
        }
        l = new Layout(h, blocks);
        layout = l;
        return l;
    }

    /** The whole frame decoded as {@link BloscCodec#decode} does (errors included), then cut. */
    private Optional<ByteBuffer> readWhole(int start, int end) {
        Optional<ByteBuffer> all = input.read(ByteRange.all());
        if (all.isEmpty()) {
            return all;
        }
        ByteBuffer decoded = codec.decode(all.get(), EncodedSize.fixed(size));
        return Optional.of(decoded.slice(decoded.position() + start, end - start));
    }

    private Optional<ByteBuffer> readExactly(long offset, int length) {
        Optional<ByteBuffer> b = input.read(ByteRange.of(offset, length));
        if (b.isPresent() && b.get().remaining() != length) {
            throw new CorruptDataException(NAME + ": truncated frame: reading " + length + " bytes at " + offset
                    + " returned " + b.get().remaining());
        }
        return b;
    }
}
