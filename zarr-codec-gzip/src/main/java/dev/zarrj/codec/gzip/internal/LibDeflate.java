package dev.zarrj.codec.gzip.internal;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.io.File;

/**
 * The calls into the system libdeflate (Eric Biggers' whole-buffer DEFLATE library) that the codec
 * makes, bound through JNA direct mapping: one JNI call each, with no per-call reflection.
 *
 * <p>Loading this class loads the library ({@link #register}) and fails with a
 * {@link LinkageError} when it cannot be found or lacks a function. Only {@link NativeGzip} loads
 * it, on the first gzip encode or decode, never when a codec is created.
 *
 * <p>{@code size_t} is mapped to {@code long}: the binding is used on 64-bit platforms only
 * ({@link NativeGzip} checks {@link Native#SIZE_T_SIZE}). Compressors and decompressors are not
 * thread-safe; {@link NativeGzip} lends each to one thread at a time.
 */
final class LibDeflate {
    /** {@code LIBDEFLATE_SUCCESS}. */
    static final int SUCCESS = 0;
    /** {@code LIBDEFLATE_BAD_DATA}: invalid or corrupt data, a wrong CRC-32 or ISIZE included. */
    static final int BAD_DATA = 1;
    /** {@code LIBDEFLATE_SHORT_OUTPUT}: not returned when the actual output size is asked for. */
    static final int SHORT_OUTPUT = 2;
    /** {@code LIBDEFLATE_INSUFFICIENT_SPACE}: the output would exceed the space given. */
    static final int INSUFFICIENT_SPACE = 3;

    /** The library file JNA loaded, when it says. */
    static final File FILE;

    static {
        NativeLibrary lib = load();
        Native.register(LibDeflate.class, lib);
        FILE = lib.getFile();
    }

    private LibDeflate() {}

    /**
     * The library the system property {@value NativeGzip#LIBRARY_PROPERTY} names (a name or a path),
     * else {@code deflate} (the unversioned name, which development packages provide, or a versioned
     * file in JNA's search path), else the runtime library {@code libdeflate.so.0} by its soname.
     */
    private static NativeLibrary load() {
        String named = System.getProperty(NativeGzip.LIBRARY_PROPERTY);
        if (named != null && !named.isBlank()) {
            return NativeLibrary.getInstance(named.strip());
        }
        try {
            return NativeLibrary.getInstance("deflate");
        } catch (UnsatisfiedLinkError first) {
            try {
                return NativeLibrary.getInstance("libdeflate.so.0");
            } catch (UnsatisfiedLinkError second) {
                first.addSuppressed(second);
                throw first;
            }
        }
    }

    /** Forces the class's initialisation: loads the library or throws a {@link LinkageError}. */
    static void register() {
        // the static initializer did the work
    }

    static native Pointer libdeflate_alloc_compressor(int level);

    static native long libdeflate_gzip_compress(Pointer compressor, Pointer in, long inNbytes, Pointer out,
                                                long outNbytesAvail);

    static native long libdeflate_gzip_compress_bound(Pointer compressor, long inNbytes);

    static native void libdeflate_free_compressor(Pointer compressor);

    static native Pointer libdeflate_alloc_decompressor();

    static native int libdeflate_gzip_decompress_ex(Pointer decompressor, Pointer in, long inNbytes, Pointer out,
                                                    long outNbytesAvail, Pointer actualInNbytesRet,
                                                    Pointer actualOutNbytesRet);

    static native void libdeflate_free_decompressor(Pointer decompressor);
}
