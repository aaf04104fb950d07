package dev.zarrj.codec.zstd.internal;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.zarrj.api.ZarrException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Supplier;

/**
 * Small bounded pools of libzstd contexts, so that coding many small chunks does not allocate and
 * free a context's native workspace (a few MiB for compression) per chunk.
 *
 * <p>zstd-jni contexts are not thread-safe: a context is used by one thread between {@code take}
 * and {@code give}. {@code give} resets it to fresh parameters and keeps it, or closes it (freeing
 * its native memory) when the pool is full or the reset fails. At most {@link #CAPACITY}
 * contexts of each kind stay alive; unlike a {@code ThreadLocal}, this stays bounded with many
 * (or virtual) threads. A pooled compression context keeps the workspace of the largest level and
 * input it served, which libzstd shrinks again after a run of smaller jobs.
 */
final class ZstdContexts {
    static final int CAPACITY = Math.max(2, Runtime.getRuntime().availableProcessors());

    private static final ArrayBlockingQueue<ZstdCompressCtx> COMPRESSORS = new ArrayBlockingQueue<>(CAPACITY);
    private static final ArrayBlockingQueue<ZstdDecompressCtx> DECOMPRESSORS = new ArrayBlockingQueue<>(CAPACITY);

    private ZstdContexts() {}

    /** A compression context with the given level and checksum flag, writing the content size. */
    static ZstdCompressCtx takeCompressor(int level, boolean checksum) {
        ZstdCompressCtx c = COMPRESSORS.poll();
        if (c == null) {
            c = loadNative(ZstdCompressCtx::new);
        }
        try {
            return c.setLevel(level).setChecksum(checksum).setContentSize(true);
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    static void give(ZstdCompressCtx c) {
        try {
            c.reset();
        } catch (RuntimeException e) {
            c.close();
            return;
        }
        if (!COMPRESSORS.offer(c)) {
            c.close();
        }
    }

    /** A decompression context with default parameters. */
    static ZstdDecompressCtx takeDecompressor() {
        ZstdDecompressCtx d = DECOMPRESSORS.poll();
        return d != null ? d : loadNative(ZstdDecompressCtx::new);
    }

    static void give(ZstdDecompressCtx d) {
        try {
            d.reset();
        } catch (RuntimeException e) {
            d.close();
            return;
        }
        if (!DECOMPRESSORS.offer(d)) {
            d.close();
        }
    }

    /**
     * Runs the first native call behind a clear error: zstd-jni loads its library for this
     * platform from its jar on first use.
     */
    static <T> T loadNative(Supplier<T> create) {
        try {
            return create.get();
        } catch (LinkageError e) {
            throw new ZarrException("ZARR-CODEC", "zstd: the zstd-jni native library is not available on "
                    + System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ": " + e, e);
        }
    }
}
