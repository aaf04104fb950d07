package dev.zarrj.api;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Ranged read access to one encoded value (a chunk or shard in a store, or bytes already in
 * memory): the {@code input_handle} of the spec's {@code partial_decode}.
 *
 * <p>Implementations are thread-safe. Returned buffers are owned by the caller.
 */
public interface ByteSource {
    /**
     * Reads a range of the value.
     *
     * @throws CorruptDataException when the range lies outside the value
     * @throws StoreException       when the underlying store fails
     */
    ByteBuffer read(ByteRange range);

    /**
     * Reads several ranges; implementations may merge adjacent ranges into fewer requests.
     * The result is in the order of {@code ranges}.
     */
    default List<ByteBuffer> readAll(List<ByteRange> ranges) {
        List<ByteBuffer> out = new ArrayList<>(ranges.size());
        for (ByteRange r : ranges) {
            out.add(read(r));
        }
        return out;
    }

    /** The value's total size when known without reading it. */
    default OptionalLong size() {
        return OptionalLong.empty();
    }

    /**
     * The part {@code [offset, offset + length)} of this source as a source of its own, for a value
     * nested in another (an inner chunk inside a shard). Reads are translated, so merging of
     * adjacent ranges by {@link #readAll} still applies.
     */
    default ByteSource slice(long offset, long length) {
        ByteSource outer = this;
        return new ByteSource() {
            private ByteRange translate(ByteRange range) {
                long[] r;
                try {
                    r = range.resolve(length);
                } catch (IllegalArgumentException e) {
                    throw new CorruptDataException(e.getMessage() + " (a slice of " + length + " bytes at " + offset + ")");
                }
                return ByteRange.of(offset + r[0], r[1] - r[0]);
            }

            @Override
            public ByteBuffer read(ByteRange range) {
                return outer.read(translate(range));
            }

            @Override
            public List<ByteBuffer> readAll(List<ByteRange> ranges) {
                List<ByteRange> translated = new ArrayList<>(ranges.size());
                for (ByteRange r : ranges) {
                    translated.add(translate(r));
                }
                return outer.readAll(translated);
            }

            @Override
            public OptionalLong size() {
                return OptionalLong.of(length);
            }
        };
    }

    /** A source over bytes in memory; reads are views of {@code bytes}, which must not change. */
    static ByteSource of(ByteBuffer bytes) {
        ByteBuffer base = bytes.slice();
        return new ByteSource() {
            @Override
            public ByteBuffer read(ByteRange range) {
                long[] r;
                try {
                    r = range.resolve(base.remaining());
                } catch (IllegalArgumentException e) {
                    throw new CorruptDataException(e.getMessage());
                }
                return base.slice((int) r[0], (int) (r[1] - r[0]));
            }

            @Override
            public OptionalLong size() {
                return OptionalLong.of(base.remaining());
            }
        };
    }
}
