package dev.zarrj.codec.blosc.internal;

import dev.zarrj.api.ZarrException;
import java.util.function.Supplier;

/**
 * Loads c-blosc once, on first use, and turns a failure to load it into a {@link ZarrException}
 * that says how to install it.
 *
 * <p>The library is loaded by {@link Holder}'s static initializer, so nothing is loaded until a
 * blosc codec first encodes or decodes: discovering the provider, creating codecs and opening
 * arrays never touch native code. A failure is kept and reported again (with its original cause)
 * on every later attempt.
 */
final class NativeBlosc {
    /** The stable error code of a missing or unloadable c-blosc. */
    static final String MISSING_CODE = "ZARR-NATIVE";

    private NativeBlosc() {}

    private static final class Holder {
        static final Loaded SYSTEM = Loaded.attempt(JBloscLibrary::new);
    }

    /**
     * The system c-blosc, loaded on the first call.
     *
     * @throws ZarrException when it cannot be loaded, saying how to install it
     */
    static BloscLibrary library() {
        return Holder.SYSTEM.orThrow();
    }

    /** The outcome of loading the library: exactly one of {@code library} and {@code failure}. */
    record Loaded(BloscLibrary library, Throwable failure) {
        /** Runs {@code loader}, keeping what it returns or the error it throws. */
        static Loaded attempt(Supplier<? extends BloscLibrary> loader) {
            try {
                return new Loaded(loader.get(), null);
            } catch (LinkageError | RuntimeException e) {
                // UnsatisfiedLinkError the first time; NoClassDefFoundError if jblosc or JNA is absent.
                return new Loaded(null, e);
            }
        }

        /**
         * The library.
         *
         * @throws ZarrException when loading failed: what is missing and how to install it
         */
        BloscLibrary orThrow() {
            if (library != null) {
                return library;
            }
            throw new ZarrException(MISSING_CODE, "blosc: the native c-blosc library (libblosc) could not be"
                    + " loaded, so the chunks of arrays that use the 'blosc' codec cannot be read or written."
                    + " Install it:"
                    + " 'apt-get install libblosc1' on Debian/Ubuntu, 'dnf install blosc' on Fedora,"
                    + " 'brew install c-blosc' on macOS; if it is in a directory the loader does not search, name"
                    + " that directory with -Djna.library.path=<dir>. Cause: " + summary(failure), failure);
        }

        /** The cause's type and the first two lines of its message (JNA's third lists the class path). */
        private static String summary(Throwable t) {
            String message = t.getMessage() == null ? "" : t.getMessage();
            String lines = message.lines().map(String::strip).filter(l -> !l.isEmpty()).limit(2)
                    .collect(java.util.stream.Collectors.joining(" "));
            return t.getClass().getSimpleName() + (lines.isEmpty() ? "" : ": " + lines);
        }
    }
}
