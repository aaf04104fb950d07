package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A part of a stored value: a range with an end, an open-ended range from an offset, or the last
 * {@code n} bytes (a suffix range, used to read a shard index stored at the end).
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public sealed interface ByteRange {
    /** {@code length} bytes starting at {@code start}. */
    record Bounded(long start, long length) implements ByteRange {
        public Bounded {
            if (start < 0 || length < 0) {
                throw new IllegalArgumentException("invalid byte range start=" + start + " length=" + length);
            }
        }

        @Override
        public String toString() {
            return "[" + start + ", " + (start + length) + ")";
        }
    }

    /** Everything from {@code start} to the end of the value. */
    record From(long start) implements ByteRange {
        public From {
            if (start < 0) {
                throw new IllegalArgumentException("invalid byte range start=" + start);
            }
        }

        @Override
        public String toString() {
            return "[" + start + ", end)";
        }
    }

    /** The last {@code length} bytes of the value. */
    record Suffix(long length) implements ByteRange {
        public Suffix {
            if (length < 0) {
                throw new IllegalArgumentException("invalid suffix length " + length);
            }
        }

        @Override
        public String toString() {
            return "[last " + length + " bytes]";
        }
    }

    /** The whole value. */
    static ByteRange all() {
        return new From(0);
    }

    /** {@code length} bytes starting at {@code start}. */
    static ByteRange of(long start, long length) {
        return new Bounded(start, length);
    }

    /** From {@code start} to the end. */
    static ByteRange from(long start) {
        return new From(start);
    }

    /** The last {@code length} bytes. */
    static ByteRange suffix(long length) {
        return new Suffix(length);
    }

    /**
     * The absolute start offset of this range within a value of {@code size} bytes.
     *
     * @throws IllegalArgumentException when the range does not lie within the value
     */
    default long startIn(long size) {
        return resolve(size)[0];
    }

    /**
     * Resolves this range against a value of {@code size} bytes into {@code [start, end)}.
     *
     * @throws IllegalArgumentException when the range does not lie within the value
     */
    default long[] resolve(long size) {
        long start;
        long end;
        if (this instanceof Bounded b) {
            start = b.start();
            end = b.start() + b.length();
        } else if (this instanceof From f) {
            start = f.start();
            end = size;
        } else {
            Suffix s = (Suffix) this;
            start = size - s.length();
            end = size;
        }
        if (start < 0 || end > size || start > end) {
            throw new IllegalArgumentException("byte range " + this + " lies outside a value of " + size + " bytes");
        }
        return new long[] {start, end};
    }
}
