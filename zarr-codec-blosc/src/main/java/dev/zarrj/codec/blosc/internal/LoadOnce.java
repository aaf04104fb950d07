package dev.zarrj.codec.blosc.internal;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A {@link BloscLibrary} supplier that asks its loader on the first {@link #get} and keeps the
 * library it returns. Thread-safe: concurrent first calls wait for the one that loads.
 *
 * <p>What lets a provider hand its codecs a library without loading it: opening an array (or
 * {@code zarr info}, {@code zarr ls}) creates codecs but never reads a chunk, and should not pay
 * for loading native code it does not use.
 *
 * <p>A failure is not kept here but by the loader ({@link NativeBlosc} tries once and keeps the
 * outcome), which throws a new exception on every call: one exception thrown to several callers
 * would reach code that adds one chunk's failure to another's as suppressed, and an exception
 * cannot suppress itself.
 */
final class LoadOnce implements Supplier<BloscLibrary> {
    private final Supplier<? extends BloscLibrary> loader;
    private volatile BloscLibrary library;

    LoadOnce(Supplier<? extends BloscLibrary> loader) {
        this.loader = Objects.requireNonNull(loader, "loader");
    }

    /**
     * The library, loaded on the first successful call.
     *
     * @throws RuntimeException what the loader throws while it has not returned a library
     */
    @Override
    public BloscLibrary get() {
        BloscLibrary lib = library;
        if (lib != null) {
            return lib;
        }
        synchronized (this) {
            if (library == null) {
                library = Objects.requireNonNull(loader.get(), "the loader returned no library");
            }
            return library;
        }
    }
}
