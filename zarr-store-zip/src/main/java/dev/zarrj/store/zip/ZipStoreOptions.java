package dev.zarrj.store.zip;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How a writable zip store writes the entries it adds, and how long it waits for another writer.
 *
 * <p>Immutable; start from {@link #defaults()}, for example
 * {@code ZipStoreOptions.defaults().withCompression(Compression.DEFLATED).withLevel(6)}. Entries
 * are {@link Compression#STORED STORED} by default: chunks are usually compressed by their codecs
 * already, and a stored entry is read in place, range reads included.
 *
 * <p>A store open for writing holds the archive's write lock (see {@link ZipStores#update}); by
 * default a second writer fails at once, naming the archive. {@link #withLockWait} makes it wait
 * for the first to finish instead.
 *
 * @param compression how new entries are stored, never null
 * @param level       the deflate level, 0 to 9, or -1 for the default (6); used with
 *                    {@link Compression#DEFLATED} only
 * @param lockWait    how long opening for writing waits while another writer holds the archive:
 *                    {@link Duration#ZERO} (the default) not at all, {@link #FOREVER} until it is
 *                    free; never negative
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record ZipStoreOptions(Compression compression, int level, Duration lockWait) {
    /** A {@link #lockWait} that waits as long as the other writer runs. */
    public static final Duration FOREVER = Duration.ofSeconds(Long.MAX_VALUE);

    private static final ZipStoreOptions DEFAULTS = new ZipStoreOptions(Compression.STORED, -1, Duration.ZERO);

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
     * @throws IllegalArgumentException when {@code level} is not -1 to 9, or {@code lockWait} is negative
     */
    public ZipStoreOptions {
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(lockWait, "lockWait");
        if (level < -1 || level > 9) {
            throw new IllegalArgumentException("deflate level " + level + " is not allowed; use 0 to 9, or -1 for the default");
        }
        if (lockWait.isNegative()) {
            throw new IllegalArgumentException("lock wait " + lockWait + " is negative");
        }
    }

    /** Options that do not wait for another writer; see {@link #withLockWait}. */
    public ZipStoreOptions(Compression compression, int level) {
        this(compression, level, Duration.ZERO);
    }

    /** Entries stored uncompressed. */
    public static ZipStoreOptions defaults() {
        return DEFAULTS;
    }

    /** These options with {@code compression} changed. */
    public ZipStoreOptions withCompression(Compression compression) {
        return new ZipStoreOptions(compression, level, lockWait);
    }

    /** These options with {@code level} changed. */
    public ZipStoreOptions withLevel(int level) {
        return new ZipStoreOptions(compression, level, lockWait);
    }

    /**
     * These options with {@code lockWait} changed: how long opening an archive for writing waits
     * while another writer (another process, or another store of this one) holds it, before it
     * fails. {@link Duration#ZERO} fails at once; {@link #FOREVER} waits until it is free.
     */
    public ZipStoreOptions withLockWait(Duration lockWait) {
        return new ZipStoreOptions(compression, level, lockWait);
    }
}
