package dev.zarrj.codec.gzip;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.zarrj.codec.gzip.internal.NativeGzip;
import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * Which deflate library the {@code gzip} codec runs on in this JVM, and direct calls into
 * libdeflate for tools that measure the codec against its library ({@code zarr bench}'s ceiling).
 *
 * <p>The codec uses the system's libdeflate when it can be loaded through JNA (Debian and Ubuntu:
 * {@code apt-get install libdeflate0}; Fedora: {@code dnf install libdeflate}; macOS:
 * {@code brew install libdeflate}), and the JDK's {@code java.util.zip} otherwise. Set the system
 * property {@value #PROPERTY} (or the environment variable {@code ZARRJ_GZIP_NATIVE}) to
 * {@code false} to use {@code java.util.zip} always. Both write standard gzip and read each
 * other's output.
 *
 * <p>For zarrj's own tools (the CLI, the benchmarks); not part of the public API.
 *
 * @since 0.1
 */
@API(status = INTERNAL, since = "0.1")
public final class GzipLibrary {
    /** The system property that, set to {@code false}, keeps the codec on {@code java.util.zip}. */
    public static final String PROPERTY = NativeGzip.PROPERTY;

    private GzipLibrary() {}

    /** Whether the codec runs on libdeflate; loads it on the first call. */
    public static boolean libdeflate() {
        return NativeGzip.available();
    }

    /**
     * One line saying what the codec runs on, for example {@code libdeflate
     * (/lib/x86_64-linux-gnu/libdeflate.so.0)} or {@code java.util.zip (libdeflate not loaded:
     * ...)}; loads libdeflate on the first call.
     */
    public static String describe() {
        return NativeGzip.describe();
    }

    /**
     * Compresses {@code src} (position to limit) into one gzip member at {@code dst}'s position
     * with libdeflate at {@code level} (0 to 12); neither buffer's position or limit changes.
     * Direct buffers are passed to libdeflate as they are, heap buffers through a copy.
     *
     * @return the member's size, or 0 when it does not fit in {@code dst}'s remaining bytes
     * @throws IllegalStateException when libdeflate is not {@linkplain #libdeflate() used}
     */
    public static int compress(int level, ByteBuffer src, ByteBuffer dst) {
        requireLibdeflate();
        if (level < 0 || level > 12) {
            throw new IllegalArgumentException("libdeflate levels are 0 to 12, not " + level);
        }
        return NativeGzip.compress(level, src, dst);
    }

    /**
     * Decompresses the one gzip member at {@code src}'s position into {@code dst} (position to
     * limit) with libdeflate, which checks its CRC-32 and size; neither buffer's position or limit
     * changes.
     *
     * @return the decoded size
     * @throws IllegalStateException when libdeflate is not used or rejects the member
     */
    public static int decompress(ByteBuffer src, ByteBuffer dst) {
        requireLibdeflate();
        return NativeGzip.decompress(src, dst);
    }

    private static void requireLibdeflate() {
        if (!NativeGzip.available()) {
            throw new IllegalStateException("libdeflate is not used: " + NativeGzip.describe());
        }
    }
}
