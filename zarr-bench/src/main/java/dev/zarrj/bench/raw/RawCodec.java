package dev.zarrj.bench.raw;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.zarrj.codec.gzip.GzipLibrary;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.blosc.JBlosc;

/**
 * A codec called directly on its library, without zarrj: the baseline (ceiling) that zarrj's
 * codec of the same name and format is measured against, by {@code zarr bench} and by the JMH
 * benchmarks. What it encodes zarrj's codec decodes, and the other way round.
 *
 * <p>Works on direct buffers (what the native libraries read without a copy), one native context
 * per thread, made once. gzip, zstd and crc32c also take heap buffers (array-backed, {@code src}
 * and {@code dst} of the same kind), for baselines that allocate as zarrj's codecs do; blosc
 * takes direct buffers only.
 *
 * <p>Thread-safe: every thread gets its own context.
 */
public abstract class RawCodec implements AutoCloseable {
    RawCodec() {}

    /** The largest encoded size of {@code size} bytes. */
    public abstract int bound(int size);

    /**
     * Encodes {@code src} (position to limit) into {@code dst} (cleared, at least
     * {@link #bound} bytes) and returns the encoded bytes: {@code dst} flipped, or {@code src}
     * itself when there is nothing to do.
     */
    public abstract ByteBuffer encode(ByteBuffer src, ByteBuffer dst);

    /**
     * Decodes {@code src} into {@code dst} (cleared, at least {@code size} bytes) and returns the
     * {@code size} decoded bytes: {@code dst} flipped, or {@code src} itself (or a view of it)
     * when the format holds the bytes as they are.
     */
    public abstract ByteBuffer decode(ByteBuffer src, ByteBuffer dst, int size);

    /** Whether encoding does nothing (the {@code bytes} chain). */
    public boolean identity() {
        return false;
    }

    /** Frees the native contexts of every thread; the codec is not used afterwards. */
    @Override
    public void close() {}

    /** No codec: the chunk's bytes are stored as they are (little endian on this platform). */
    public static RawCodec none() {
        return new RawCodec() {
            @Override
            public int bound(int size) {
                return size;
            }

            @Override
            public ByteBuffer encode(ByteBuffer src, ByteBuffer dst) {
                return src;
            }

            @Override
            public ByteBuffer decode(ByteBuffer src, ByteBuffer dst, int size) {
                return src;
            }

            @Override
            public boolean identity() {
                return true;
            }
        };
    }

    /**
     * One gzip member per chunk, on the library zarrj's gzip codec runs on: libdeflate when it
     * loads ({@link GzipLibrary}), else {@code java.util.zip} (a 10-byte header, raw
     * {@link Deflater} output, CRC-32 and size).
     */
    public static RawCodec gzip(int level) {
        return gzipOnLibdeflate() ? new LibdeflateGzip(level) : new Gzip(level);
    }

    /**
     * Which library {@link #gzip} and zarrj's gzip codec run on, one line (for example {@code
     * libdeflate (/lib/x86_64-linux-gnu/libdeflate.so.0)}), for the bench's log and JSON.
     */
    public static String gzipImplementation() {
        try {
            return GzipLibrary.describe();
        } catch (LinkageError e) {
            return "java.util.zip (the gzip module is not on the module path)";
        }
    }

    private static boolean gzipOnLibdeflate() {
        try {
            return GzipLibrary.libdeflate();
        } catch (LinkageError e) {
            return false; // NoClassDefFoundError: the gzip module is not there
        }
    }

    /** A zstd frame per chunk from zstd-jni's compression context, no checksum. */
    public static RawCodec zstd(int level) {
        return new ZstdRaw(level);
    }

    /**
     * The value followed by its CRC-32C, little endian (the {@code crc32c} codec); decoding checks
     * the checksum and returns a view of the value.
     */
    public static RawCodec crc32c() {
        return new Crc32c();
    }

    /** c-blosc through jblosc's context calls, one internal thread (parallelism is over chunks). */
    public static RawCodec blosc(String cname, int clevel, boolean shuffle, int typesize) {
        return new Blosc(cname, clevel, shuffle, typesize);
    }

    /**
     * Why this codec cannot be called here (its binding is not on the module path, or its native
     * library is not installed), or empty when it encodes and decodes a test buffer.
     */
    public static Optional<String> unavailable(Supplier<RawCodec> factory) {
        try (RawCodec codec = factory.get()) {
            int size = 256;
            ByteBuffer in = ByteBuffer.allocateDirect(size);
            for (int i = 0; i < size; i++) {
                in.put(i, (byte) (i / 16));
            }
            ByteBuffer encoded = codec.encode(in, ByteBuffer.allocateDirect(codec.bound(size)));
            ByteBuffer copy = ByteBuffer.allocateDirect(encoded.remaining()).put(encoded.duplicate()).flip();
            ByteBuffer decoded = codec.decode(copy, ByteBuffer.allocateDirect(size), size);
            if (!decoded.equals(in.clear())) {
                return Optional.of("it did not decode a test buffer to what it encoded");
            }
            return Optional.empty();
        } catch (LinkageError | RuntimeException e) {
            // NoClassDefFoundError without the binding, UnsatisfiedLinkError without the native library.
            String message = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
            return Optional.of("its library could not be loaded (" + e.getClass().getSimpleName()
                    + (message.isEmpty() ? "" : ": " + message) + ")");
        }
    }

    /** One instance of {@code T} per thread, all of them closed with the codec. */
    private static final class PerThread<T> {
        private final ThreadLocal<T> local;
        private final List<T> all = new CopyOnWriteArrayList<>();

        PerThread(Supplier<T> factory) {
            this.local = ThreadLocal.withInitial(() -> {
                T t = factory.get();
                all.add(t);
                return t;
            });
        }

        T get() {
            return local.get();
        }

        List<T> all() {
            return all;
        }
    }

    private static final class Gzip extends RawCodec {
        private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
        private static final int TRAILER = 8;
        private final PerThread<Deflater> deflaters;
        private final PerThread<Inflater> inflaters = new PerThread<>(() -> new Inflater(true));

        Gzip(int level) {
            this.deflaters = new PerThread<>(() -> new Deflater(level, true));
        }

        @Override
        public int bound(int size) {
            // deflate's stored-block worst case: 5 bytes per 16 KiB block, plus header and trailer.
            return size + 5 * (size / 16383 + 1) + HEADER.length + TRAILER + 64;
        }

        @Override
        public ByteBuffer encode(ByteBuffer src, ByteBuffer dst) {
            Deflater d = deflaters.get();
            d.reset();
            int size = src.remaining();
            CRC32 crc = new CRC32();
            crc.update(src.duplicate());
            dst.put(HEADER);
            d.setInput(src.duplicate());
            d.finish();
            while (!d.finished()) {
                if (!dst.hasRemaining()) {
                    throw new IllegalStateException("deflate output exceeds its bound");
                }
                d.deflate(dst);
            }
            dst.order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue()).putInt(size);
            return dst.flip();
        }

        @Override
        public ByteBuffer decode(ByteBuffer src, ByteBuffer dst, int size) {
            Inflater inf = inflaters.get();
            inf.reset();
            ByteBuffer payload = src.duplicate();
            payload.position(src.position() + HEADER.length).limit(src.limit() - TRAILER);
            inf.setInput(payload);
            dst.limit(size);
            try {
                while (!inf.finished() && dst.hasRemaining()) {
                    if (inf.inflate(dst) == 0 && (inf.needsInput() || inf.needsDictionary())) {
                        throw new IllegalStateException("truncated gzip member");
                    }
                }
            } catch (DataFormatException e) {
                throw new IllegalStateException("corrupt gzip member: " + e.getMessage(), e);
            }
            dst.flip();
            CRC32 crc = new CRC32();
            crc.update(dst.duplicate());
            int stored = src.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(src.limit() - TRAILER);
            if (dst.remaining() != size || stored != (int) crc.getValue()) {
                throw new IllegalStateException("gzip member: wrong size or CRC-32");
            }
            return dst;
        }

        @Override
        public void close() {
            deflaters.all().forEach(Deflater::end);
            inflaters.all().forEach(Inflater::end);
        }
    }

    /** Through the gzip module's libdeflate binding, which pools its contexts per call. */
    private static final class LibdeflateGzip extends RawCodec {
        private final int level;

        LibdeflateGzip(int level) {
            this.level = level;
        }

        @Override
        public int bound(int size) {
            // libdeflate's own bound: 5 bytes per (at least 5000-byte) block, header, trailer and padding.
            return size + 5 * (size / 5000 + 1) + 18 + 64;
        }

        @Override
        public ByteBuffer encode(ByteBuffer src, ByteBuffer dst) {
            int n = GzipLibrary.compress(level, src, dst);
            if (n == 0) {
                throw new IllegalStateException("libdeflate output exceeds its bound");
            }
            return dst.position(0).limit(n);
        }

        @Override
        public ByteBuffer decode(ByteBuffer src, ByteBuffer dst, int size) {
            dst.limit(size);
            int n = GzipLibrary.decompress(src, dst);
            if (n != size) {
                throw new IllegalStateException("gzip member decoded to " + n + " bytes, expected " + size);
            }
            return dst.position(0).limit(n);
        }
    }

    private static final class ZstdRaw extends RawCodec {
        private final PerThread<ZstdCompressCtx> compressors;
        private final PerThread<ZstdDecompressCtx> decompressors = new PerThread<>(ZstdDecompressCtx::new);

        ZstdRaw(int level) {
            this.compressors = new PerThread<>(() -> new ZstdCompressCtx().setLevel(level));
        }

        @Override
        public int bound(int size) {
            return (int) Zstd.compressBound(size);
        }

        @Override
        public ByteBuffer encode(ByteBuffer src, ByteBuffer dst) {
            int n = direct(src, dst)
                    ? compressors.get().compressDirectByteBuffer(dst, 0, dst.capacity(), src, src.position(), src.remaining())
                    : compressors.get().compressByteArray(dst.array(), dst.arrayOffset(), dst.capacity(), src.array(),
                            src.arrayOffset() + src.position(), src.remaining());
            return dst.clear().limit(n);
        }

        @Override
        public ByteBuffer decode(ByteBuffer src, ByteBuffer dst, int size) {
            int n = direct(src, dst)
                    ? decompressors.get().decompressDirectByteBuffer(dst, 0, size, src, src.position(), src.remaining())
                    : decompressors.get().decompressByteArray(dst.array(), dst.arrayOffset(), size, src.array(),
                            src.arrayOffset() + src.position(), src.remaining());
            if (n != size) {
                throw new IllegalStateException("zstd frame decoded to " + n + " bytes, expected " + size);
            }
            return dst.clear().limit(n);
        }

        /** Both direct, or (else) both array-backed. */
        private static boolean direct(ByteBuffer src, ByteBuffer dst) {
            if (src.isDirect() && dst.isDirect()) {
                return true;
            }
            if (!src.hasArray() || !dst.hasArray()) {
                throw new IllegalArgumentException("zstd: source and destination must be both direct or both heap buffers");
            }
            return false;
        }

        @Override
        public void close() {
            compressors.all().forEach(ZstdCompressCtx::close);
            decompressors.all().forEach(ZstdDecompressCtx::close);
        }
    }

    private static final class Crc32c extends RawCodec {
        @Override
        public int bound(int size) {
            return size + 4;
        }

        @Override
        public ByteBuffer encode(ByteBuffer src, ByteBuffer dst) {
            CRC32C crc = new CRC32C();
            crc.update(src.duplicate());
            dst.put(src.duplicate()).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
            return dst.flip();
        }

        @Override
        public ByteBuffer decode(ByteBuffer src, ByteBuffer dst, int size) {
            if (src.remaining() != size + 4) {
                throw new IllegalStateException("crc32c: " + src.remaining() + " bytes, expected " + (size + 4));
            }
            ByteBuffer value = src.slice(src.position(), size);
            CRC32C crc = new CRC32C();
            crc.update(value.duplicate());
            if (src.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(src.position() + size) != (int) crc.getValue()) {
                throw new IllegalStateException("crc32c: checksum mismatch");
            }
            return value;
        }
    }

    private static final class Blosc extends RawCodec {
        private final String cname;
        private final int clevel;
        private final int shuffle;
        private final int typesize;

        Blosc(String cname, int clevel, boolean shuffle, int typesize) {
            this.cname = cname;
            this.clevel = clevel;
            this.shuffle = shuffle ? 1 : 0;
            this.typesize = typesize;
        }

        @Override
        public int bound(int size) {
            return size + JBlosc.OVERHEAD;
        }

        // JNA hands c-blosc a direct buffer's base address whatever its position: callers pass
        // buffers (or slices) that start at the data.
        @Override
        public ByteBuffer encode(ByteBuffer src, ByteBuffer dst) {
            ByteBuffer in = src.position() == 0 ? src : src.slice();
            int n = JBlosc.compressCtx(clevel, shuffle, typesize, in, in.remaining(), dst, dst.capacity(), cname, 0, 1);
            return dst.clear().limit(n);
        }

        @Override
        public ByteBuffer decode(ByteBuffer src, ByteBuffer dst, int size) {
            ByteBuffer in = src.position() == 0 ? src : src.slice();
            int n = JBlosc.decompressCtx(in, dst, size, 1);
            if (n != size) {
                throw new IllegalStateException("blosc buffer decoded to " + n + " bytes, expected " + size);
            }
            return dst.clear().limit(n);
        }
    }
}
