package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * Ranged read access to one encoded value (a chunk or shard in a store, or bytes already in
 * memory): the {@code input_handle} of the spec's {@code partial_decode}.
 *
 * <p>The value may be absent (no chunk is stored under the key): reads then return empty, a value
 * rather than an exception, so that a codec's partial decoder passes absence on to the pipeline
 * (which reads the fill value) without telling it apart from an error. A source never spends a
 * request to learn whether the value exists before the first read.
 *
 * <p>Implementations are thread-safe. Returned buffers are owned by the caller, except those of
 * {@link #readAllLent}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ByteSource {
    /**
     * Reads a range of the value.
     *
     * @return the bytes, or empty when the value is absent
     * @throws CorruptDataException when the range lies outside the value
     * @throws StoreException       when the underlying store fails
     */
    Optional<ByteBuffer> read(ByteRange range);

    /**
     * Reads several ranges; implementations may merge adjacent ranges into fewer requests.
     *
     * @return the bytes in the order of {@code ranges}, or empty when the value is absent
     */
    default Optional<List<ByteBuffer>> readAll(List<ByteRange> ranges) {
        List<ByteBuffer> out = new ArrayList<>(ranges.size());
        for (ByteRange r : ranges) {
            Optional<ByteBuffer> b = read(r);
            if (b.isEmpty()) {
                return Optional.empty();
            }
            out.add(b.get());
        }
        return Optional.of(out);
    }

    /**
     * {@link #readAll}, for a caller that is done with the bytes when the decode that asked for
     * them ends: the source may return memory it lends and reuses afterwards, so that reading
     * the ranges allocates nothing. A partial decoder that calls this copies or decodes whatever
     * must outlive its {@code decode} or {@code decodeInto} call (an index it keeps, a view it
     * returns) before that call returns, or reads those bytes with {@link #readAll} instead. The
     * default is {@link #readAll}, whose buffers belong to the caller.
     *
     * @return the bytes in the order of {@code ranges}, or empty when the value is absent
     * @since 0.1
     */
    default Optional<List<ByteBuffer>> readAllLent(List<ByteRange> ranges) {
        return readAll(ranges);
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
            public Optional<ByteBuffer> read(ByteRange range) {
                return outer.read(translate(range));
            }

            private List<ByteRange> translate(List<ByteRange> ranges) {
                List<ByteRange> translated = new ArrayList<>(ranges.size());
                for (ByteRange r : ranges) {
                    translated.add(translate(r));
                }
                return translated;
            }

            @Override
            public Optional<List<ByteBuffer>> readAll(List<ByteRange> ranges) {
                return outer.readAll(translate(ranges));
            }

            @Override
            public Optional<List<ByteBuffer>> readAllLent(List<ByteRange> ranges) {
                return outer.readAllLent(translate(ranges));
            }

            @Override
            public OptionalLong size() {
                return OptionalLong.of(length);
            }
        };
    }

    /** A source over bytes in memory, always present; reads are views of {@code bytes}, which must not change. */
    static ByteSource of(ByteBuffer bytes) {
        ByteBuffer base = bytes.slice();
        return new ByteSource() {
            @Override
            public Optional<ByteBuffer> read(ByteRange range) {
                long[] r;
                try {
                    r = range.resolve(base.remaining());
                } catch (IllegalArgumentException e) {
                    throw new CorruptDataException(e.getMessage());
                }
                return Optional.of(base.slice((int) r[0], (int) (r[1] - r[0])));
            }

            @Override
            public OptionalLong size() {
                return OptionalLong.of(base.remaining());
            }
        };
    }
}
