package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.codec.sharding.IndexLocation;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The index of one shard: for each inner chunk in C order, the {@code offset} and {@code nbytes}
 * of its encoded bytes in the shard, both 2^64 − 1 for an empty inner chunk.
 *
 * <p>Values are unsigned 64-bit integers held in Java {@code long}s, so the empty marker is
 * {@code -1}. Entries are checked before use: a corrupt entry is a {@link CorruptDataException}
 * that names the inner chunk, never an out-of-bounds read. Not thread-safe while being filled by
 * a writer; read-only afterwards.
 */
final class ShardIndex {
    /** 2^64 − 1, the spec's marker of an empty inner chunk. */
    static final long EMPTY = -1L;

    private final long[] entries;

    private ShardIndex(long[] entries) {
        this.entries = entries;
    }

    /** An index in which every inner chunk is empty. */
    static ShardIndex empty(int count) {
        long[] e = new long[2 * count];
        Arrays.fill(e, EMPTY);
        return new ShardIndex(e);
    }

    /** An index from its entries: offset and nbytes of each inner chunk in turn (copied). */
    static ShardIndex of(long... entries) {
        if (entries.length % 2 != 0) {
            throw new IllegalArgumentException("an index holds pairs of values, found " + entries.length);
        }
        return new ShardIndex(entries.clone());
    }

    /**
     * Decodes an encoded index with the index codecs.
     *
     * @throws CorruptDataException saying that the shard index is what failed (a
     *                              {@link ChecksumMismatchException} when its checksum does not match)
     */
    static ShardIndex decode(ByteBuffer encoded, ShardLayout layout, CodecChain indexCodecs) {
        NdArray array;
        try {
            array = indexCodecs.decode(encoded, layout.indexSpec());
        } catch (ChecksumMismatchException e) {
            throw new ChecksumMismatchException("the shard index is corrupt: " + e.detail());
        } catch (CorruptDataException e) {
            throw new CorruptDataException("the shard index could not be decoded: " + e.detail(), e);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptDataException("the shard index could not be decoded: " + e, e);
        }
        if (!Arrays.equals(array.shape(), layout.indexSpec().shape()) || array.byteSize() != 16L * layout.count()) {
            throw new CorruptDataException("the shard index decoded to " + array + ", expected shape "
                    + Arrays.toString(layout.indexSpec().shape()) + " of uint64");
        }
        long[] e = new long[2 * layout.count()];
        array.bytes().asLongBuffer().get(e);
        return new ShardIndex(e);
    }

    /**
     * Encodes this index with the index codecs.
     *
     * @throws IllegalStateException when the codecs break their promise of a fixed size
     */
    ByteBuffer encode(ShardLayout layout, CodecChain indexCodecs) {
        NdArray array = NdArray.allocate(IndexDataType.UINT64, layout.indexSpec().shape());
        array.bytes().asLongBuffer().put(entries);
        ByteBuffer out = indexCodecs.encode(array, layout.indexSpec());
        if (out.remaining() != layout.indexSize()) {
            throw new IllegalStateException(ShardingCodec.NAME + ": index_codecs " + indexCodecs.toJson()
                    + " declared a fixed size of " + layout.indexSize() + " bytes but encoded " + out.remaining());
        }
        return out;
    }

    /** The number of inner chunks. */
    int count() {
        return entries.length / 2;
    }

    long offset(int i) {
        return entries[2 * i];
    }

    long nbytes(int i) {
        return entries[2 * i + 1];
    }

    /** Whether both values are the empty marker (a half-empty entry is caught by {@link #check}). */
    boolean isEmpty(int i) {
        return entries[2 * i] == EMPTY && entries[2 * i + 1] == EMPTY;
    }

    void set(int i, long offset, long nbytes) {
        entries[2 * i] = offset;
        entries[2 * i + 1] = nbytes;
    }

    void setEmpty(int i) {
        set(i, EMPTY, EMPTY);
    }

    /** A copy of the raw entries. */
    long[] entries() {
        return entries.clone();
    }

    /**
     * Checks the entry of inner chunk {@code i}: not half empty, no overflow, and inside the part
     * of the shard that holds inner chunk data, {@code [dataStart, dataEnd)}.
     *
     * @param dataEnd where inner chunk data must end, or -1 when the shard's size is unknown
     * @return whether the inner chunk is present
     * @throws CorruptDataException naming the inner chunk and its entry
     */
    boolean check(int i, ShardLayout layout, long dataStart, long dataEnd) {
        long off = offset(i);
        long n = nbytes(i);
        if (off == EMPTY && n == EMPTY) {
            return false;
        }
        if (off == EMPTY || n == EMPTY) {
            throw corrupt(layout, i, "only one of offset and nbytes is the empty marker 2^64 - 1; both or neither must be");
        }
        if (off < 0 || n < 0) {
            throw corrupt(layout, i, "the range lies beyond 2^63 bytes, far past the end of any shard");
        }
        if (off > Long.MAX_VALUE - n) {
            throw corrupt(layout, i, "offset + nbytes overflows, far past the end of any shard");
        }
        if (off < dataStart) {
            throw corrupt(layout, i, "the range starts inside the shard index, which fills bytes [0, " + dataStart + ")");
        }
        if (dataEnd >= 0 && off + n > dataEnd) {
            String where = layout.location() == IndexLocation.END
                    ? "the inner chunk data, which ends at byte " + dataEnd + " where the " + layout.indexSize()
                            + "-byte index begins"
                    : "the shard, which has " + dataEnd + " bytes";
            throw corrupt(layout, i, "the range ends at byte " + (off + n) + ", past the end of " + where
                    + " (truncated shard or corrupt index)");
        }
        return true;
    }

    /**
     * Checks every entry as {@link #check} does, and that no two inner chunks' ranges overlap (two
     * entries with the same range are allowed: they decode to the same data).
     *
     * @throws CorruptDataException naming the inner chunk, or both inner chunks of an overlap
     */
    void checkAll(ShardLayout layout, long dataStart, long dataEnd) {
        int n = count();
        Integer[] present = new Integer[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (check(i, layout, dataStart, dataEnd) && nbytes(i) > 0) {
                present[k++] = i;
            }
        }
        Integer[] sorted = Arrays.copyOf(present, k);
        Arrays.sort(sorted, Comparator.comparingLong(this::offset));
        for (int j = 1; j < sorted.length; j++) {
            int a = sorted[j - 1];
            int b = sorted[j];
            boolean same = offset(a) == offset(b) && nbytes(a) == nbytes(b);
            if (!same && offset(b) < offset(a) + nbytes(a)) {
                throw new CorruptDataException(layout.describe(a) + " and " + layout.describe(b)
                        + " overlap in the shard: bytes " + range(a) + " and " + range(b) + " (corrupt shard index)");
            }
        }
    }

    private String range(int i) {
        return "[" + offset(i) + ", " + (offset(i) + nbytes(i)) + ")";
    }

    private CorruptDataException corrupt(ShardLayout layout, int i, String why) {
        return new CorruptDataException(layout.describe(i) + ": its shard index entry (offset "
                + Long.toUnsignedString(offset(i)) + ", nbytes " + Long.toUnsignedString(nbytes(i)) + ") is invalid: "
                + why);
    }
}
