package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * What a codec can say about the size of its encoded output before encoding: exactly known,
 * bounded, or unknown. Callers use it to plan reads (a fixed-size shard index can be fetched with
 * one ranged request) and to refuse decoded data of the wrong size.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public sealed interface EncodedSize {
    /** The size is known exactly. */
    record Fixed(long bytes) implements EncodedSize {
        public Fixed {
            if (bytes < 0) {
                throw new IllegalArgumentException("negative size " + bytes);
            }
        }
    }

    /** The size is at most {@code maxBytes}. */
    record Bounded(long maxBytes) implements EncodedSize {
        public Bounded {
            if (maxBytes < 0) {
                throw new IllegalArgumentException("negative size " + maxBytes);
            }
        }
    }

    /** Nothing is known about the size. */
    record Unbounded() implements EncodedSize {}

    /** Shorthand for {@code new Fixed(bytes)}. */
    static EncodedSize fixed(long bytes) {
        return new Fixed(bytes);
    }

    /** Shorthand for {@code new Bounded(maxBytes)}. */
    static EncodedSize bounded(long maxBytes) {
        return new Bounded(maxBytes);
    }

    /** The unknown size. */
    static EncodedSize unbounded() {
        return new Unbounded();
    }

    /** The most bytes this size allows; {@link Long#MAX_VALUE} when unbounded. */
    default long max() {
        if (this instanceof Fixed f) {
            return f.bytes();
        }
        if (this instanceof Bounded b) {
            return b.maxBytes();
        }
        return Long.MAX_VALUE;
    }
}
