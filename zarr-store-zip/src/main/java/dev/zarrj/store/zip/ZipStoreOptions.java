package dev.zarrj.store.zip;

import java.util.Objects;

/**
 * How a writable zip store writes the entries it adds.
 *
 * <p>Immutable; start from {@link #defaults()}, for example
 * {@code ZipStoreOptions.defaults().withCompression(Compression.DEFLATED).withLevel(6)}. Entries
 * are {@link Compression#STORED STORED} by default: chunks are usually compressed by their codecs
 * already, and a stored entry is read in place, range reads included.
 *
 * @param compression how new entries are stored, never null
 * @param level       the deflate level, 0 to 9, or -1 for the default (6); used with
 *                    {@link Compression#DEFLATED} only
 * @since 0.1
 */
public record ZipStoreOptions(Compression compression, int level) {
    private static final ZipStoreOptions DEFAULTS = new ZipStoreOptions(Compression.STORED, -1);

    /** The zip compression method of an entry. */
    public enum Compression {
        /** Method 0: the bytes as given. Range reads read only the range. */
        STORED,
        /** Method 8: deflated. A range read inflates the entry from its start up to the range. */
        DEFLATED
    }

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException when {@code level} is not -1 to 9
     */
    public ZipStoreOptions {
        Objects.requireNonNull(compression, "compression");
        if (level < -1 || level > 9) {
            throw new IllegalArgumentException("deflate level " + level + " is not allowed; use 0 to 9, or -1 for the default");
        }
    }

    /** Entries stored uncompressed. */
    public static ZipStoreOptions defaults() {
        return DEFAULTS;
    }

    /** These options with {@code compression} changed. */
    public ZipStoreOptions withCompression(Compression compression) {
        return new ZipStoreOptions(compression, level);
    }

    /** These options with {@code level} changed. */
    public ZipStoreOptions withLevel(int level) {
        return new ZipStoreOptions(compression, level);
    }
}
