package dev.zarrj.codec.gzip.internal;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.IntFunction;

/**
 * gzip members through the system libdeflate ({@link LibDeflate}), when it is there and not
 * turned off; the codec uses {@code java.util.zip} otherwise.
 *
 * <p>libdeflate is loaded on the first call that needs it ({@link #available()}), never when the
 * class is loaded, and the outcome is kept for the life of the JVM. Setting the system property
 * {@value #PROPERTY} (or the environment variable {@value #ENV}) to {@code false} keeps it from
 * being loaded at all; {@value #LIBRARY_PROPERTY} names a libdeflate elsewhere (a file name or
 * path) instead of {@code deflate} and {@code libdeflate.so.0} in the system's library path.
 *
 * <p>Public for {@link dev.zarrj.codec.gzip.GzipLibrary}, which the benchmark harness and the CLI
 * use; the package is not exported.
 */
public final class NativeGzip {
    /** The system property that, set to {@code false}, makes the codec use {@code java.util.zip}. */
    public static final String PROPERTY = "zarrj.gzip.native";
    /** The environment variable with the same effect as {@link #PROPERTY} (the property wins). */
    public static final String ENV = "ZARRJ_GZIP_NATIVE";
    /** The system property naming the libdeflate to load, by name or path, instead of the usual names. */
    public static final String LIBRARY_PROPERTY = "zarrj.gzip.library";

    /** Compressors per level and decompressors kept for reuse; more are made (and freed) as needed. */
    static final int CAPACITY = Math.max(2, Runtime.getRuntime().availableProcessors());
    /** Scratch memory above this (chunks larger than usual) is freed when its context returns to the pool. */
    static final long KEEP_SCRATCH = 16L << 20;

    private static final List<ArrayBlockingQueue<Context>> COMPRESSORS = new ArrayList<>();
    private static final ArrayBlockingQueue<Context> DECOMPRESSORS = new ArrayBlockingQueue<>(CAPACITY);

    static {
        for (int level = 0; level <= 12; level++) {
            COMPRESSORS.add(new ArrayBlockingQueue<>(CAPACITY));
        }
    }

    private NativeGzip() {}

    private static final class Holder {
        static final State STATE = State.load();
    }

    /** Whether libdeflate runs, and a one-line description of what runs and why. */
    private record State(boolean available, String description) {
        static State load() {
            String setting = System.getProperty(PROPERTY);
            String from = "-D" + PROPERTY;
            if (setting == null) {
                setting = System.getenv(ENV);
                from = ENV;
            }
            if (setting != null && setting.strip().toLowerCase(Locale.ROOT).equals("false")) {
                return new State(false, "java.util.zip (libdeflate turned off by " + from + "=false)");
            }
            try {
                // Inside the try: JNA's own native part may fail to load (a noexec temporary directory).
                if (Native.SIZE_T_SIZE != 8) {
                    return new State(false, "java.util.zip (libdeflate is used on 64-bit platforms only)");
                }
                LibDeflate.register();
                Pointer probe = LibDeflate.libdeflate_alloc_decompressor();
                if (probe == null) {
                    return new State(false, "java.util.zip (libdeflate could not allocate a decompressor)");
                }
                LibDeflate.libdeflate_free_decompressor(probe);
                return new State(true, "libdeflate" + (LibDeflate.FILE == null ? "" : " (" + LibDeflate.FILE + ")"));
            } catch (LinkageError | RuntimeException e) {
                // UnsatisfiedLinkError without the library, NoClassDefFoundError without JNA.
                String message = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
                return new State(false, "java.util.zip (libdeflate not loaded: " + e.getClass().getSimpleName()
                        + (message.isEmpty() ? "" : ": " + message) + ")");
            }
        }
    }

    /** Whether libdeflate is loaded and used; loads it on the first call. */
    public static boolean available() {
        return Holder.STATE.available();
    }

    /**
     * What the gzip codec runs on in this JVM, for example {@code libdeflate
     * (/lib/x86_64-linux-gnu/libdeflate.so.0)} or {@code java.util.zip (libdeflate not loaded:
     * ...)}; loads libdeflate on the first call.
     */
    public static String describe() {
        return Holder.STATE.description();
    }

    /**
     * Compresses {@code src} (position to limit) into one gzip member at {@code dst}'s position,
     * with libdeflate at {@code level} (0 to 12). Neither buffer's position or limit changes.
     *
     * @return the member's size, or 0 when it does not fit in {@code dst}'s remaining bytes
     */
    public static int compress(int level, ByteBuffer src, ByteBuffer dst) {
        Context c = takeCompressor(level);
        try {
            Pointer in = c.input(src);
            int avail = dst.remaining();
            if (dst.isDirect()) {
                return (int) LibDeflate.libdeflate_gzip_compress(c.handle, in, src.remaining(), address(dst), avail);
            }
            int n = (int) LibDeflate.libdeflate_gzip_compress(c.handle, in, src.remaining(), c.output(avail), avail);
            c.out.read(0, dst.array(), dst.arrayOffset() + dst.position(), n);
            return n;
        } finally {
            // Native code read and wrote the buffers by address: they must not be freed before it returned.
            Reference.reachabilityFence(src);
            Reference.reachabilityFence(dst);
            give(COMPRESSORS.get(level), c);
        }
    }

    /**
     * Compresses {@code src} (position to limit, unchanged) into one gzip member of at most
     * {@code maxSize} bytes, in a buffer of exactly its size from {@code allocate}.
     *
     * @return the member (position 0, limit its size), or null when it would exceed {@code maxSize}
     */
    static ByteBuffer compress(int level, ByteBuffer src, int maxSize, IntFunction<ByteBuffer> allocate) {
        Context c = takeCompressor(level);
        try {
            Pointer in = c.input(src);
            int n = (int) LibDeflate.libdeflate_gzip_compress(c.handle, in, src.remaining(), c.output(maxSize), maxSize);
            if (n == 0) {
                return null;
            }
            ByteBuffer out = allocate.apply(n);
            if (out.hasArray()) {
                c.out.read(0, out.array(), out.arrayOffset() + out.position(), n);
            } else {
                out.put(out.position(), c.out.getByteBuffer(0, n), 0, n);
            }
            return out.limit(out.position() + n).slice();
        } finally {
            Reference.reachabilityFence(src);
            give(COMPRESSORS.get(level), c);
        }
    }

    /**
     * Decompresses the one gzip member at the start of {@code src} (position to limit) into
     * {@code dst} (position to limit); neither buffer's position or limit changes. libdeflate checks
     * the member's CRC-32 and ISIZE.
     *
     * @return the decoded size
     * @throws IllegalStateException when libdeflate rejects the member (the codec names the
     *                               problem; this is for tools that only measure)
     */
    public static int decompress(ByteBuffer src, ByteBuffer dst) {
        try (Inflation inf = inflation(src)) {
            int status = inf.member(0, dst, 0, dst.remaining());
            if (status != LibDeflate.SUCCESS) {
                throw new IllegalStateException("libdeflate rejected the gzip member (status " + status + ")");
            }
            return inf.produced();
        }
    }

    /** A decompression of the members of {@code src} (position to limit, unchanged), member by member. */
    static Inflation inflation(ByteBuffer src) {
        Context c = DECOMPRESSORS.poll();
        if (c == null) {
            c = new Context(LibDeflate.libdeflate_alloc_decompressor(), false);
            if (c.handle == null) {
                throw new OutOfMemoryError("libdeflate could not allocate a decompressor");
            }
        }
        try {
            return new Inflation(c, src);
        } catch (RuntimeException | Error e) {
            give(DECOMPRESSORS, c); // its scratch could not be had: the context itself is fine
            throw e;
        }
    }

    /**
     * One thread's use of a decompressor on one input: {@link #member} decodes the member at an
     * offset and reports what it consumed and produced.
     */
    static final class Inflation implements AutoCloseable {
        private final Context c;
        /** Kept reachable while native code reads it by address ({@link #member}). */
        private final ByteBuffer source;
        private final Pointer in;
        private final long length;

        private Inflation(Context c, ByteBuffer src) {
            this.c = c;
            this.source = src;
            this.in = c.input(src);
            this.length = src.remaining();
        }

        /**
         * Decodes the member at {@code inOffset} into {@code out} from index {@code outOffset}, at
         * most {@code outAvail} bytes.
         *
         * @return {@link LibDeflate#SUCCESS}, {@link LibDeflate#BAD_DATA} or
         *         {@link LibDeflate#INSUFFICIENT_SPACE}
         */
        int member(long inOffset, ByteBuffer out, int outOffset, int outAvail) {
            Pointer dst = out.isDirect() ? address(out).share(outOffset) : c.output(outAvail);
            int status = LibDeflate.libdeflate_gzip_decompress_ex(c.handle, in.share(inOffset), length - inOffset, dst,
                    outAvail, c.results, c.results.share(8));
            Reference.reachabilityFence(source);
            Reference.reachabilityFence(out);
            if (status == LibDeflate.SUCCESS && !out.isDirect()) {
                c.out.read(0, out.array(), out.arrayOffset() + out.position() + outOffset, produced());
            }
            return status;
        }

        /** The input bytes the last successful {@link #member} consumed, its trailer included. */
        long consumed() {
            return c.results.getLong(0);
        }

        /** The bytes the last successful {@link #member} decoded. */
        int produced() {
            return (int) c.results.getLong(8);
        }

        @Override
        public void close() {
            give(DECOMPRESSORS, c);
        }
    }

    private static Context takeCompressor(int level) {
        Context c = COMPRESSORS.get(level).poll();
        if (c == null) {
            c = new Context(LibDeflate.libdeflate_alloc_compressor(level), true);
            if (c.handle == null) {
                throw new OutOfMemoryError("libdeflate could not allocate a compressor at level " + level);
            }
        }
        return c;
    }

    private static void give(ArrayBlockingQueue<Context> pool, Context c) {
        c.trim();
        if (!pool.offer(c)) {
            c.free();
        }
    }

    /** The address of a direct buffer's position. */
    private static Pointer address(ByteBuffer direct) {
        return Native.getDirectBufferPointer(direct).share(direct.position());
    }

    /**
     * A libdeflate compressor or decompressor with the native scratch memory it copies heap
     * buffers through (native code cannot address the Java heap), used by one thread at a time.
     */
    private static final class Context {
        final Pointer handle;
        final boolean compressor;
        /** {@code actual_in_nbytes_ret}, {@code actual_out_nbytes_ret}. */
        final Memory results = new Memory(16);
        Memory in;
        Memory out;

        Context(Pointer handle, boolean compressor) {
            this.handle = handle;
            this.compressor = compressor;
        }

        /** The address of {@code src}'s position: its own memory if direct, else a copy in scratch. */
        Pointer input(ByteBuffer src) {
            if (src.isDirect()) {
                return address(src);
            }
            int n = src.remaining();
            in = ensure(in, n);
            if (src.hasArray()) {
                in.write(0, src.array(), src.arrayOffset() + src.position(), n);
            } else {
                in.getByteBuffer(0, n).put(src.duplicate()); // a read-only heap buffer
            }
            return in;
        }

        /** Scratch for at least {@code n} output bytes. */
        Pointer output(int n) {
            out = ensure(out, n);
            return out;
        }

        private static Memory ensure(Memory m, long n) {
            if (m != null && m.size() >= Math.max(1, n)) {
                return m;
            }
            if (m != null) {
                m.close();
            }
            return new Memory(Math.max(1, n));
        }

        void trim() {
            if (in != null && in.size() > KEEP_SCRATCH) {
                in.close();
                in = null;
            }
            if (out != null && out.size() > KEEP_SCRATCH) {
                out.close();
                out = null;
            }
        }

        void free() {
            if (compressor) {
                LibDeflate.libdeflate_free_compressor(handle);
            } else {
                LibDeflate.libdeflate_free_decompressor(handle);
            }
            results.close();
            if (in != null) {
                in.close();
            }
            if (out != null) {
                out.close();
            }
        }
    }
}
