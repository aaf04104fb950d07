package dev.zarrj.codec.blosc.internal;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * The calls the codec makes into c-blosc: the seam between the codec and the native library, so
 * that tests can stand in for a library that is missing or lacks a compressor.
 *
 * <p>Buffers are direct, start at their address (position 0), and are not retained. Both calls
 * are c-blosc's context-based ones: thread-safe, no global state.
 */
interface BloscLibrary {
    /** The c-blosc version, for example {@code "1.21.3"}. */
    String version();

    /** The compressors this c-blosc build includes, by name. */
    Set<String> compressors();

    /**
     * {@code blosc_compress_ctx} with one internal thread.
     *
     * @return the compressed size, or a negative c-blosc error code
     */
    int compress(int clevel, int doshuffle, int typesize, ByteBuffer src, int srcSize, ByteBuffer dest, int destSize,
                 String compressor, int blocksize);

    /**
     * {@code blosc_decompress_ctx} with one internal thread. c-blosc takes the input's length
     * from the frame header ({@code cbytes}), which the caller must have checked.
     *
     * @return the decompressed size, or a negative c-blosc error code
     */
    int decompress(ByteBuffer src, ByteBuffer dest, int destSize);
}
