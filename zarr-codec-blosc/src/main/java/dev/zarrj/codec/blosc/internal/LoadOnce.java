package dev.zarrj.codec.blosc.internal;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A {@link BloscLibrary} supplier that asks its loader once, on the first {@link #get}, and keeps
 * the outcome: the library, or the exception the loader threw, which every later call throws
 * again. Thread-safe: concurrent first calls wait for the one that loads.
 *
 * <p>What lets a provider hand its codecs a library without loading it: opening an array (or
 * {@code zarr info}, {@code zarr ls}) creates codecs but never reads a chunk, and should not pay
 * for loading native code it does not use.
 */
final class LoadOnce implements Supplier<BloscLibrary> {
    private final Supplier<? extends BloscLibrary> loader;
    private volatile BloscLibrary library;
    private RuntimeException failure; // guarded by this

    LoadOnce(Supplier<? extends BloscLibrary> loader) {
        this.loader = Objects.requireNonNull(loader, "loader");
    }

    /**
     * The library, loaded on the first call.
     *
     * @throws RuntimeException what the loader threw, on this and every later call
     */
    @Override
    public BloscLibrary get() {
        BloscLibrary lib = library;
        if (lib != null) {
            return lib;
        }
        synchronized (this) {
            if (library == null && failure == null) {
                try {
                    library = Objects.requireNonNull(loader.get(), "the loader returned no library");
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
            if (library != null) {
                return library;
            }
            throw failure;
        }
    }
}
