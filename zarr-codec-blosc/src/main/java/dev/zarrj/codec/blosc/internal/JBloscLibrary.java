package dev.zarrj.codec.blosc.internal;

import com.sun.jna.NativeLong;
import java.nio.ByteBuffer;
import java.util.Set;
import org.blosc.IBloscDll;
import org.blosc.JBlosc;

/**
 * {@link BloscLibrary} on jblosc, which binds the system c-blosc through JNA direct mapping.
 *
 * <p>Constructing one loads the native library (jblosc's {@code IBloscDll} registers its methods
 * in a static initializer) and fails with a {@link LinkageError} when it cannot be loaded.
 *
 * <p>JNA hands c-blosc a direct buffer's base address, whatever its position (and jblosc resets
 * positions to 0): callers pass slices that they own.
 */
final class JBloscLibrary implements BloscLibrary {
    /** Single-threaded contexts: zarrj parallelises over chunks, not within one. */
    private static final int INTERNAL_THREADS = 1;

    private final String version;
    private final Set<String> compressors;

    JBloscLibrary() {
        this.version = IBloscDll.blosc_get_version_string();
        this.compressors = Set.of(IBloscDll.blosc_list_compressors().split(","));
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public Set<String> compressors() {
        return compressors;
    }

    @Override
    public int compress(int clevel, int doshuffle, int typesize, ByteBuffer src, int srcSize, ByteBuffer dest,
                        int destSize, String compressor, int blocksize) {
        // The binding under JBlosc.compressCtx, called directly for c-blosc's own return code:
        // compressCtx turns 0 and -1 into a bare RuntimeException.
        return IBloscDll.blosc_compress_ctx(clevel, doshuffle, new NativeLong(typesize), new NativeLong(srcSize), src,
                dest, new NativeLong(destSize), compressor, new NativeLong(blocksize), INTERNAL_THREADS);
    }

    @Override
    public int decompress(ByteBuffer src, ByteBuffer dest, int destSize) {
        return JBlosc.decompressCtx(src, dest, destSize, INTERNAL_THREADS);
    }
}
