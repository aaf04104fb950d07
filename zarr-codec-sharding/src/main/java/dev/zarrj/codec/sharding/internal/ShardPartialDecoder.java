package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.codec.sharding.IndexLocation;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * Decodes regions of a shard behind a {@link ByteSource}, reading only the index and the inner
 * chunks a region touches.
 *
 * <p>Requests: the index once per decoder (one ranged read of its fixed size: the first bytes, or a
 * suffix range for an index at the end, so the shard's size is never asked for); then, per region,
 * one {@link ByteSource#readAll} call with the touched inner chunks' ranges, sorted, and merged where
 * they are less than {@value #MAX_GAP} bytes apart (a store-backed source sends one request per
 * merged range). A single inner chunk therefore costs two requests in all, and so does a run of
 * inner chunks stored next to each other. An inner chunk that is itself a shard and that the region
 * covers only in part is decoded through its own partial decoder over a {@link ByteSource#slice}.
 *
 * <p>When the shard's size is unknown (a store-backed source), an index entry that points past the
 * end of the value is caught when the ranged read fails, and reported as corrupt data naming the
 * inner chunk. Thread-safe.
 */
final class ShardPartialDecoder implements ArrayPartialDecoder {
    /**
     * Ranges closer than this are read as one: one more request costs more than reading up to this
     * many unwanted bytes (object stores such as S3 answer in tens of milliseconds). The same
     * threshold as the Rust {@code object_store} crate's range coalescing.
     */
    static final long MAX_GAP = 1 << 20;

    private final ShardingCodec codec;
    private final ShardLayout layout;
    private final ByteSource input;
    private volatile ShardIndex index;

    ShardPartialDecoder(ShardingCodec codec, ShardLayout layout, ByteSource input) {
        this.codec = codec;
        this.layout = layout;
        this.input = input;
    }

    @Override
    public NdArray decode(long[] offset, long[] shape) {
        var spec = layout.innerSpec();
        NdArray out = NdArray.filled(spec.dataType(), spec.fillValue(), shape);
        decodeInto(offset, shape, out, new long[shape.length], true);
        return out;
    }

    /** Decodes each touched inner chunk straight into the destination. */
    @Override
    public void decodeInto(long[] offset, long[] shape, NdArray destination, long[] destinationOffset) {
        decodeInto(offset, shape, destination, destinationOffset, false);
    }

    /** @param filled whether the destination's region already holds the fill value */
    private void decodeInto(long[] offset, long[] shape, NdArray out, long[] at, boolean filled) {
        layout.checkRegion(offset, shape);
        int[] touched = layout.touched(offset, shape);
        if (touched.length == 0) {
            return;
        }
        ShardIndex idx = index();
        long dataEnd = layout.dataEnd(input.size().orElse(-1));
        boolean nestedPartial = codec.innerReadsPartially();
        List<Integer> whole = new ArrayList<>();
        List<Integer> nested = new ArrayList<>();
        List<Integer> empty = new ArrayList<>();
        for (int i : touched) {
            if (!idx.check(i, layout, layout.dataStart(), dataEnd)) {
                if (!filled) {
                    empty.add(i);
                }
            } else if (nestedPartial && !layout.isWhole(layout.overlap(i, offset, shape)[2])) {
                nested.add(i);
            } else {
                whole.add(i);
            }
        }
        ByteBuffer[] bytes = fetch(idx, whole);
        int parts = whole.size() + nested.size();
        codec.tasks().forEach(parts + empty.size(), k -> {
            int i = k < whole.size() ? whole.get(k) : k < parts ? nested.get(k - whole.size()) : empty.get(k - parts);
            long[][] o = layout.overlap(i, offset, shape);
            long[] to = o[1];
            for (int d = 0; d < to.length; d++) {
                to[d] += at[d];
            }
            if (k < whole.size()) {
                codec.decodeInnerInto(bytes[k], layout, idx, i, o[0], out, to, o[2]);
            } else if (k < parts) {
                NdArray piece = decodeNested(idx, i, o[0], o[2]);
                RegionCopy.copy(piece, Region.of(new long[o[2].length], o[2]), out, to);
            } else {
                out.fill(layout.innerSpec().fillValue(), Region.of(to, o[2]));
            }
        });
    }

    /** The index, read on first use with one ranged request. */
    private ShardIndex index() {
        ShardIndex i = index;
        if (i == null) {
            synchronized (this) {
                i = index;
                if (i == null) {
                    i = readIndex();
                    index = i;
                }
            }
        }
        return i;
    }

    private ShardIndex readIndex() {
        long indexSize = layout.indexSize();
        OptionalLong size = input.size();
        if (size.isPresent() && size.getAsLong() < indexSize) {
            throw shorterThanIndex(size.getAsLong() + " bytes", null);
        }
        ByteRange range = layout.location() == IndexLocation.START
                ? ByteRange.of(0, indexSize)
                : ByteRange.suffix(indexSize);
        ByteBuffer bytes;
        try {
            bytes = input.read(range);
        } catch (CorruptDataException e) {
            throw shorterThanIndex(null, e);
        } catch (StoreException e) {
            if (!outsideValue(e)) {
                throw e;
            }
            throw shorterThanIndex(null, e);
        }
        if (bytes.remaining() != indexSize) {
            throw shorterThanIndex(bytes.remaining() + " bytes read where the index should be", null);
        }
        // Entries are checked one by one as regions touch them: checking all of them here would
        // cost a sort of the whole index for every partial read of a large shard.
        return ShardIndex.decode(bytes, layout, codec.indexCodecs());
    }

    /** @param found what was found, or null when the cause says it */
    private CorruptDataException shorterThanIndex(String found, RuntimeException cause) {
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

    /** Reads the encoded bytes of the given inner chunks with one {@link ByteSource#readAll} call. */
    private ByteBuffer[] fetch(ShardIndex idx, List<Integer> chunks) {
        ByteBuffer[] out = new ByteBuffer[chunks.size()];
        if (chunks.isEmpty()) {
            return out;
        }
        Integer[] order = new Integer[chunks.size()];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, Comparator.comparingLong(k -> idx.offset(chunks.get(k))));
        // Groups of chunks read as one range: [start, end) and the members (positions in `chunks`).
        List<long[]> groups = new ArrayList<>();
        List<List<Integer>> members = new ArrayList<>();
        for (int k : order) {
            int i = chunks.get(k);
            long start = idx.offset(i);
            long end = start + idx.nbytes(i);
            long[] last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            if (last != null && start - last[1] <= MAX_GAP) {
                last[1] = Math.max(last[1], end);
                members.get(members.size() - 1).add(k);
            } else {
                groups.add(new long[] {start, end});
                members.add(new ArrayList<>(List.of(k)));
            }
        }
        List<ByteRange> ranges = new ArrayList<>(groups.size());
        for (long[] g : groups) {
            ranges.add(ByteRange.of(g[0], g[1] - g[0]));
        }
        List<ByteBuffer> read;
        try {
            read = input.readAll(ranges);
        } catch (CorruptDataException e) {
            throw pastTheEnd(idx, chunks, e);
        } catch (StoreException e) {
            if (!outsideValue(e)) {
                throw e;
            }
            throw pastTheEnd(idx, chunks, e);
        }
        for (int g = 0; g < groups.size(); g++) {
            ByteBuffer b = read.get(g);
            long want = groups.get(g)[1] - groups.get(g)[0];
            if (b.remaining() != want) {
                throw pastTheEnd(idx, members.get(g).stream().map(chunks::get).toList(),
                        new CorruptDataException("reading " + ranges.get(g) + " returned " + b.remaining() + " bytes"));
            }
            for (int k : members.get(g)) {
                int i = chunks.get(k);
                out[k] = b.slice(b.position() + (int) (idx.offset(i) - groups.get(g)[0]), (int) idx.nbytes(i));
            }
        }
        return out;
    }

    /** A failed ranged read, blamed on the inner chunk whose range reaches furthest. */
    private CorruptDataException pastTheEnd(ShardIndex idx, List<Integer> chunks, RuntimeException cause) {
        int worst = chunks.get(0);
        for (int i : chunks) {
            if (idx.offset(i) + idx.nbytes(i) > idx.offset(worst) + idx.nbytes(worst)) {
                worst = i;
            }
        }
        String detail = cause instanceof ZarrException z ? z.detail() : cause.toString();
        return new CorruptDataException(layout.describe(worst) + ": its shard index entry (offset " + idx.offset(worst)
                + ", nbytes " + idx.nbytes(worst) + ") points past the end of the shard (truncated shard or corrupt "
                + "index): " + detail, cause);
    }

    /** Part of an inner chunk that is itself a shard, through a partial decoder over its bytes. */
    private NdArray decodeNested(ShardIndex idx, int i, long[] inChunk, long[] extent) {
        ByteSource slice = input.slice(idx.offset(i), idx.nbytes(i));
        try {
            return codec.innerCodecs().partialDecoder(slice, layout.innerSpec()).decode(inChunk, extent);
        } catch (CorruptDataException | IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
            throw ShardingCodec.inInnerChunk(layout, idx, i, e);
        } catch (StoreException e) {
            if (!outsideValue(e)) {
                throw e;
            }
            throw ShardingCodec.inInnerChunk(layout, idx, i, new CorruptDataException(
                    "its bytes lie past the end of the shard: " + e.detail(), e));
        }
    }
}
