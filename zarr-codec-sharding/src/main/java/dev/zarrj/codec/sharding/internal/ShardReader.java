package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.codec.sharding.IndexLocation;
import dev.zarrj.codec.sharding.internal.ShardLayout.Overlap;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntConsumer;

/**
 * Reads one shard: its index, then the inner chunks a region touches, decoded straight into a
 * destination. The one place that reads an index, checks its entries and locates and decodes inner
 * chunks: {@link ShardingCodec#decode} and {@code decodeInto} read shards held in memory,
 * {@link ShardPartialDecoder} reads shards behind a {@link ByteSource}, and {@link ShardWriter}
 * reads the shard it rewrites.
 *
 * <p>A shard in memory has its whole index checked (bounds and overlaps) when it is opened. A shard
 * behind a source costs one ranged request for its index (a suffix range for an index at the end,
 * so the shard's size is never asked for), and entries are checked one by one as regions touch
 * them; then each region costs one {@link ByteSource#readAllLent} with the touched inner chunks'
 * ranges, which the source merges where they are close (the pipeline's source merges ranges up to
 * {@code Zarr.Builder.coalesceGap} apart), so a single inner chunk or a run of neighbouring ones
 * costs two requests in all. An inner chunk of more than {@value #READ_WHOLE_UP_TO} bytes that the
 * region covers in part, and whose codecs have a partial decoder (a nested shard, a
 * {@code transpose} in front of one, ...), is read through that decoder over a
 * {@link ByteSource#slice} instead.
 *
 * <p>When the shard's size is unknown (a store-backed source), an index entry that points past the
 * end of the value is caught when the ranged read fails, and reported as corrupt data naming the
 * inner chunk. Immutable and thread-safe.
 */
final class ShardReader {
    /**
     * An inner chunk of at most this many bytes is read whole, even when its codecs could read a
     * part: one more request costs more than reading this many unwanted bytes (object stores such
     * as S3 answer in tens of milliseconds; the Rust {@code object_store} crate merges ranges up
     * to this far apart).
     */
    static final long READ_WHOLE_UP_TO = 1 << 20;

    private final ShardingCodec codec;
    private final ShardLayout layout;
    private final ShardIndex index;
    /** The whole shard when it is in memory, else null. */
    private final ByteBuffer shard;
    /** Where the shard is read from when it is not in memory, else null. */
    private final ByteSource source;
    /** Where inner chunk data must end; -1 when the shard's size is unknown. */
    private final long dataEnd;

    private ShardReader(ShardingCodec codec, ShardLayout layout, ShardIndex index, ByteBuffer shard, ByteSource source,
                        long dataEnd) {
        this.codec = codec;
        this.layout = layout;
        this.index = index;
        this.shard = shard;
        this.source = source;
        this.dataEnd = dataEnd;
    }

    /**
     * A reader of a whole shard held in memory (position to limit, which must not change); reads and
     * checks every index entry.
     *
     * @throws CorruptDataException when the shard is shorter than its index, the index cannot be
     *                              decoded, or an entry is invalid or overlaps another
     */
    static ShardReader inMemory(ShardingCodec codec, ShardLayout layout, ByteBuffer encoded) {
        ByteBuffer shard = encoded.slice();
        long size = shard.remaining();
        long indexSize = layout.indexSize();
        if (size < indexSize) {
            throw shorterThanIndex(layout, size + " bytes", null);
        }
        int at = (int) (layout.location() == IndexLocation.START ? 0 : size - indexSize);
        ShardIndex index = ShardIndex.decode(shard.slice(at, (int) indexSize), layout, codec.indexCodecs());
        long dataEnd = layout.dataEnd(size);
        index.checkAll(layout, layout.dataStart(), dataEnd);
        return new ShardReader(codec, layout, index, shard, null, dataEnd);
    }

    /**
     * A reader of the shard behind {@code source}, after one ranged request for its index; entries
     * are checked as regions touch them (checking all of them here would cost a sort of the whole
     * index for every partial read of a large shard).
     *
     * @return the reader, or empty when no shard is stored
     * @throws CorruptDataException when the shard is shorter than its index or the index cannot be decoded
     * @throws StoreException       when the store fails
     */
    static Optional<ShardReader> open(ShardingCodec codec, ShardLayout layout, ByteSource source) {
        long indexSize = layout.indexSize();
        OptionalLong size = source.size();
        if (size.isPresent() && size.getAsLong() < indexSize) {
            throw shorterThanIndex(layout, size.getAsLong() + " bytes", null);
        }
        ByteRange range = layout.location() == IndexLocation.START
                ? ByteRange.of(0, indexSize)
                : ByteRange.suffix(indexSize);
        Optional<ByteBuffer> bytes;
        try {
            bytes = source.read(range);
        } catch (CorruptDataException e) {
            throw shorterThanIndex(layout, null, e);
        } catch (StoreException e) {
            if (!outsideValue(e)) {
                throw e;
            }
            throw shorterThanIndex(layout, null, e);
        }
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        if (bytes.get().remaining() != indexSize) {
            throw shorterThanIndex(layout, bytes.get().remaining() + " bytes read where the index should be", null);
        }
        ShardIndex index = ShardIndex.decode(bytes.get(), layout, codec.indexCodecs());
        return Optional.of(new ShardReader(codec, layout, index, null, source, layout.dataEnd(size.orElse(-1))));
    }

    /** @param found what was found, or null when the cause says it */
    private static CorruptDataException shorterThanIndex(ShardLayout layout, String found, RuntimeException cause) {
        String detail = cause == null ? "" : ": " + (cause instanceof ZarrException z ? z.detail() : cause);
        return new CorruptDataException("the shard is shorter than its " + layout.indexSize() + "-byte index ("
                + (found == null ? "" : found + "; ") + "truncated shard)" + detail, cause);
    }

    /**
     * Whether a store failure is a range that lies outside the value (the stores report it as a
     * {@link StoreException} caused by {@link ByteRange#resolve}'s {@link IllegalArgumentException}),
     * rather than an I/O failure, which is passed on unchanged.
     */
    private static boolean outsideValue(StoreException e) {
        return e.getCause() instanceof IllegalArgumentException;
    }

    /**
     * Whether inner chunk {@code i} is stored, after checking its entry.
     *
     * @throws CorruptDataException naming the inner chunk when its entry is invalid
     */
    boolean isPresent(int i) {
        return index.check(i, layout, layout.dataStart(), dataEnd);
    }

    /** The encoded bytes of a present inner chunk of a shard in memory. */
    ByteBuffer innerBytes(int i) {
        return shard.slice((int) index.offset(i), (int) index.nbytes(i));
    }

    /**
     * Decodes {@code region} of the shard into {@code destination} at {@code destinationOffset},
     * each touched inner chunk straight into it, in parallel on the codec's tasks. The parts of
     * inner chunks that are not stored get the fill value unless {@code filled} says they hold it.
     *
     * @param filled whether the destination's region already holds the fill value
     * @return false when the shard turned out not to be stored (removed after its index was read);
     *         the destination is then unchanged
     * @throws IllegalArgumentException when the region lies outside the shard
     * @throws CorruptDataException     naming the inner chunk (or the index) that cannot be decoded
     */
    boolean decodeInto(Region region, NdArray destination, long[] destinationOffset, boolean filled) {
        layout.checkRegion(region);
        int[] touched = layout.touched(region);
        List<Integer> whole = new ArrayList<>();
        List<Integer> inPart = new ArrayList<>();
        List<ArrayPartialDecoder> partDecoders = new ArrayList<>();
        List<Integer> empty = new ArrayList<>();
        for (int i : touched) {
            if (!isPresent(i)) {
                if (!filled) {
                    empty.add(i);
                }
                continue;
            }
            Optional<ArrayPartialDecoder> d = partDecoder(i, region);
            if (d.isPresent()) {
                inPart.add(i);
                partDecoders.add(d.get());
            } else {
                whole.add(i);
            }
        }
        Optional<ByteBuffer[]> bytes = fetch(whole);
        if (bytes.isEmpty()) {
            return false;
        }
        // Parts read through their own decoders come first: the shard may turn out to be gone, and
        // the destination must then be left as it was.
        NdArray[] parts = new NdArray[inPart.size()];
        forEach(parts.length, k -> {
            int i = inPart.get(k);
            parts[k] = decodePart(i, partDecoders.get(k), layout.overlap(i, region).inChunk()).orElse(null);
        });
        if (Arrays.asList(parts).contains(null)) {
            return false;
        }
        int n = whole.size() + parts.length;
        forEach(n + empty.size(), k -> {
            int i = k < whole.size() ? whole.get(k) : k < n ? inPart.get(k - whole.size()) : empty.get(k - n);
            Overlap o = layout.overlap(i, region);
            long[] at = o.at(destinationOffset);
            if (k < whole.size()) {
                decodeInnerInto(i, bytes.get()[k], o.inChunk(), destination, at);
            } else if (k < n) {
                RegionCopy.copy(parts[k - whole.size()], Region.whole(o.inChunk().shape()), destination, at);
            } else {
                destination.fill(layout.innerSpec().fillValue(), o.inChunk().at(at));
            }
        });
        return true;
    }

    private void forEach(int n, IntConsumer task) {
        if (n > 0) {
            codec.tasks().forEach(n, task);
        }
    }

    /**
     * The decoder through which a present inner chunk behind a source is read in part: when it is
     * larger than {@link #READ_WHOLE_UP_TO}, the region covers only part of it, and its codecs have one.
     */
    private Optional<ArrayPartialDecoder> partDecoder(int i, Region region) {
        if (source == null || index.nbytes(i) <= READ_WHOLE_UP_TO || layout.isWhole(layout.overlap(i, region))) {
            return Optional.empty();
        }
        return codec.innerCodecs().partialDecoder(source.slice(index.offset(i), index.nbytes(i)), layout.innerSpec());
    }

    /**
     * Decodes part of an inner chunk through its own partial decoder.
     *
     * @return the part, or empty when the shard is no longer stored
     */
    private Optional<NdArray> decodePart(int i, ArrayPartialDecoder decoder, Region inChunk) {
        try {
            return decoder.decode(inChunk);
        } catch (CorruptDataException | IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
            throw inInnerChunk(i, e);
        } catch (StoreException e) {
            if (!outsideValue(e)) {
                throw e;
            }
            throw inInnerChunk(i, new CorruptDataException("its bytes lie past the end of the shard: " + e.detail(), e));
        }
    }

    /**
     * Decodes {@code inChunk} of present inner chunk {@code i}, whose encoded bytes are given, into
     * {@code destination} at {@code at}.
     *
     * @throws CorruptDataException naming the inner chunk and where it lies in the shard
     */
    void decodeInnerInto(int i, ByteBuffer bytes, Region inChunk, NdArray destination, long[] at) {
        try {
            codec.innerCodecs().decodeInto(bytes, layout.innerSpec(), inChunk, destination, at);
        } catch (CorruptDataException | IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
            throw inInnerChunk(i, e);
        }
    }

    /**
     * The encoded bytes of the given present inner chunks: slices of a shard in memory, or one
     * {@link ByteSource#readAllLent} call with each chunk's range, which the source merges into
     * fewer requests as it is configured. The bytes are decoded before the partial decode that
     * asked for them returns, so they may be the source's lent memory.
     *
     * @return the bytes in the order of {@code chunks}, or empty when the shard is no longer stored
     */
    private Optional<ByteBuffer[]> fetch(List<Integer> chunks) {
        ByteBuffer[] out = new ByteBuffer[chunks.size()];
        if (shard != null || chunks.isEmpty()) {
            for (int k = 0; k < out.length; k++) {
                out[k] = innerBytes(chunks.get(k));
            }
            return Optional.of(out);
        }
        List<ByteRange> ranges = new ArrayList<>(chunks.size());
        for (int i : chunks) {
            ranges.add(ByteRange.of(index.offset(i), index.nbytes(i)));
        }
        Optional<List<ByteBuffer>> read;
        try {
            read = source.readAllLent(ranges);
        } catch (CorruptDataException e) {
            throw pastTheEnd(chunks, e);
        } catch (StoreException e) {
            if (!outsideValue(e)) {
                throw e;
            }
            throw pastTheEnd(chunks, e);
        }
        if (read.isEmpty()) {
            return Optional.empty();
        }
        for (int k = 0; k < out.length; k++) {
            ByteBuffer b = read.get().get(k);
            if (b.remaining() != index.nbytes(chunks.get(k))) {
                throw pastTheEnd(List.of(chunks.get(k)),
                        new CorruptDataException("reading " + ranges.get(k) + " returned " + b.remaining() + " bytes"));
            }
            out[k] = b;
        }
        return Optional.of(out);
    }

    /** A failed ranged read, blamed on the inner chunk whose range reaches furthest. */
    private CorruptDataException pastTheEnd(List<Integer> chunks, RuntimeException cause) {
        int worst = chunks.get(0);
        for (int i : chunks) {
            if (index.offset(i) + index.nbytes(i) > index.offset(worst) + index.nbytes(worst)) {
                worst = i;
            }
        }
        String detail = cause instanceof ZarrException z ? z.detail() : cause.toString();
        return new CorruptDataException(layout.describe(worst) + ": its shard index entry (offset "
                + index.offset(worst) + ", nbytes " + index.nbytes(worst) + ") points past the end of the shard "
                + "(truncated shard or corrupt index): " + detail, cause);
    }

    /** The error for an inner chunk, naming it and its bytes; a checksum mismatch stays one. */
    private CorruptDataException inInnerChunk(int i, RuntimeException e) {
        String detail = e instanceof ZarrException z ? z.detail() : e.toString();
        String message = layout.describe(i) + " (bytes [" + index.offset(i) + ", " + (index.offset(i) + index.nbytes(i))
                + ") of the shard): " + detail;
        if (e instanceof ChecksumMismatchException) {
            return new ChecksumMismatchException(message);
        }
        return new CorruptDataException(message, e);
    }
}
