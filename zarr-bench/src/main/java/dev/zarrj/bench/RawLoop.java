package dev.zarrj.bench;

import dev.zarrj.bench.raw.RawCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.zip.CRC32C;

/**
 * The ceiling: zarrj's work on the same chunks with the same threads, done by hand without zarrj.
 *
 * <p>Writing gathers each chunk's bytes from the in-memory array (C order, little endian on this
 * platform), encodes them with the {@link RawCodec}, and writes one file per chunk (a temporary
 * file renamed into place, as a store must replace values atomically), on threads of its own when
 * the store zarrj writes to does so ({@link #overlapWrites}). Reading reads each file,
 * decodes it and copies the chunk into a new whole-array buffer. Chunks run in parallel on the
 * executor given. The parts are also measured alone: the codec alone (gather + encode, decode +
 * scatter, in memory) and the files alone (the encoded bytes written and read).
 *
 * <p>The sharded variant ({@link #sharded}) encodes every inner chunk as a task of its own,
 * places it in its shard's buffer, appends the shard index (offset and length per inner chunk,
 * little endian, then CRC-32C: the default {@code index_codecs}, at the end) and writes one file
 * per shard; reading reads a shard file, checks its index and decodes the inner chunks as tasks.
 *
 * <p>Not thread-safe: one operation at a time (each one uses many threads).
 */
abstract class RawLoop implements AutoCloseable {
    final byte[] data;
    final long[] shape;
    final int elementSize;
    final RawCodec codec;
    final Path dir;
    /**
     * Threads that write the files, so that encoding goes on while files are renamed into place
     * (null: each file is written by the thread that encoded it), and how many.
     */
    ExecutorService io;
    int writeThreads;

    RawLoop(byte[] data, long[] shape, int elementSize, RawCodec codec, Path dir) {
        this.data = data;
        this.shape = shape.clone();
        this.elementSize = elementSize;
        this.codec = codec;
        this.dir = dir;
    }

    /** One file per chunk of shape {@code chunk}. */
    static RawLoop chunked(byte[] data, long[] shape, int elementSize, long[] chunk, RawCodec codec, Path dir) {
        return new Chunked(data, shape, elementSize, chunk, codec, dir);
    }

    /** One file per shard of shape {@code shard}, holding encoded inner chunks and an index. */
    static RawLoop sharded(byte[] data, long[] shape, int elementSize, long[] shard, long[] inner, RawCodec codec,
                           Path dir) {
        return new Sharded(data, shape, elementSize, shard, inner, codec, dir);
    }

    /** Gather, encode and write every chunk. */
    abstract void write(ExecutorService pool) throws Exception;

    /** Read, decode and scatter every chunk into a new array's bytes, which it returns. */
    abstract byte[] read(ExecutorService pool) throws Exception;

    /** Encodes everything once, for the codec-only and store-only measurements. */
    abstract void prepare(ExecutorService pool) throws Exception;

    /** Gather and encode every chunk, in memory. */
    abstract void encodeOnly(ExecutorService pool) throws Exception;

    /** Decode every prepared chunk and scatter it into {@code out}. */
    abstract void decodeOnly(ExecutorService pool, byte[] out) throws Exception;

    /** Write the prepared encoded bytes to the files. */
    abstract void storeWriteOnly(ExecutorService pool) throws Exception;

    /** Read every file. */
    abstract void storeReadOnly(ExecutorService pool) throws Exception;

    /**
     * Writes files on {@code n} threads of their own, at most {@code n} at a time, as zarrj writes
     * to a store that suggests {@code n} ({@code Store.writeConcurrency()}, the file store's); 0
     * keeps writing on the encoding threads.
     */
    RawLoop overlapWrites(int n) {
        if (n > 0 && io == null) {
            writeThreads = n;
            io = Executors.newFixedThreadPool(n, r -> {
                Thread t = new Thread(r, "raw-loop-write");
                t.setDaemon(true);
                return t;
            });
        }
        return this;
    }

    @Override
    public void close() {
        codec.close();
        if (io != null) {
            io.shutdownNow();
        }
    }

    // ---- geometry ----

    /** A box of the array: origin and shape (clipped to the array). */
    record Box(long[] origin, long[] shape) {
        int byteSize(int elementSize) {
            long n = elementSize;
            for (long d : shape) {
                n *= d;
            }
            return Math.toIntExact(n);
        }
    }

    /** The boxes of a regular grid of {@code cell}s over {@code [origin, origin + extent)}, clipped to the array, C order. */
    static List<Box> boxes(long[] arrayShape, long[] origin, long[] extent, long[] cell) {
        List<Box> out = new ArrayList<>();
        for (long z = origin[0]; z < origin[0] + extent[0]; z += cell[0]) {
            for (long y = origin[1]; y < origin[1] + extent[1]; y += cell[1]) {
                for (long x = origin[2]; x < origin[2] + extent[2]; x += cell[2]) {
                    long[] o = {z, y, x};
                    long[] s = new long[3];
                    boolean empty = false;
                    for (int d = 0; d < 3; d++) {
                        s[d] = Math.min(cell[d], arrayShape[d] - o[d]);
                        empty |= s[d] <= 0;
                    }
                    out.add(empty ? null : new Box(o, s));
                }
            }
        }
        return out;
    }

    /** Appends a box of the array to {@code dst}, row by row. */
    void gather(Box b, ByteBuffer dst) {
        int row = (int) b.shape[2] * elementSize;
        for (long z = 0; z < b.shape[0]; z++) {
            for (long y = 0; y < b.shape[1]; y++) {
                dst.put(data, offset(b.origin[0] + z, b.origin[1] + y, b.origin[2]), row);
            }
        }
    }

    /** Copies a box's bytes from {@code src} (position to limit) into the array bytes {@code out}. */
    void scatter(ByteBuffer src, Box b, byte[] out) {
        ByteBuffer s = src.duplicate();
        int row = (int) b.shape[2] * elementSize;
        for (long z = 0; z < b.shape[0]; z++) {
            for (long y = 0; y < b.shape[1]; y++) {
                s.get(out, offset(b.origin[0] + z, b.origin[1] + y, b.origin[2]), row);
            }
        }
    }

    private int offset(long z, long y, long x) {
        return (int) (((z * shape[1] + y) * shape[2] + x) * elementSize);
    }

    // ---- files ----

    static void writeFile(Path target, ByteBuffer value) {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                ByteBuffer b = value.duplicate();
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a whole file into {@code into} (cleared) and returns it flipped. */
    static ByteBuffer readFile(Path file, ByteBuffer into) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > into.capacity()) {
                throw new IllegalStateException(file + " holds " + size + " bytes, more than its bound " + into.capacity());
            }
            into.clear().limit((int) size);
            while (into.hasRemaining()) {
                if (ch.read(into) < 0) {
                    throw new IOException("unexpected end of " + file);
                }
            }
            return into.flip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- parallelism ----

    /** Runs {@code task(0..n-1)} on the pool and waits for all, rethrowing the first failure. */
    static void parallel(ExecutorService pool, int n, IntConsumer task) throws Exception {
        List<Future<?>> fs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int k = i;
            fs.add(pool.submit(() -> task.accept(k)));
        }
        awaitAll(fs);
    }

    /** Waits for every future, then rethrows the first failure in list order. */
    static void awaitAll(List<Future<?>> fs) throws Exception {
        Exception first = null;
        for (Future<?> f : fs) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = unwrap(e.getCause());
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    static Exception unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof Error err) {
            throw err;
        }
        return (Exception) t;
    }

    /** Per-thread direct buffers. */
    static final class Scratch {
        final ByteBuffer in;
        final ByteBuffer encoded;
        final ByteBuffer file;
        final ByteBuffer decoded;

        Scratch(int chunkBytes, int bound) {
            in = ByteBuffer.allocateDirect(chunkBytes);
            encoded = ByteBuffer.allocateDirect(bound);
            file = ByteBuffer.allocateDirect(bound);
            decoded = ByteBuffer.allocateDirect(chunkBytes);
        }
    }

    // ---- one file per chunk ----

    private static final class Chunked extends RawLoop {
        private final List<Box> chunks;
        private final ThreadLocal<Scratch> scratch;
        private final int chunkBytes;
        private ByteBuffer[] encoded;
        private BlockingQueue<Scratch> slots;

        Chunked(byte[] data, long[] shape, int elementSize, long[] chunk, RawCodec codec, Path dir) {
            super(data, shape, elementSize, codec, dir);
            this.chunks = boxes(shape, new long[3], shape, chunk);
            this.chunkBytes = new Box(new long[3], chunk).byteSize(elementSize);
            this.scratch = ThreadLocal.withInitial(() -> new Scratch(chunkBytes, codec.bound(chunkBytes)));
        }

        private Path file(int i) {
            return dir.resolve("c" + i);
        }

        private ByteBuffer encode(int i, Scratch s) {
            ByteBuffer in = s.in.clear();
            gather(chunks.get(i), in);
            return codec.encode(in.flip(), s.encoded.clear());
        }

        private void decode(ByteBuffer src, int i, Scratch s, byte[] out) {
            Box b = chunks.get(i);
            scatter(codec.decode(src, s.decoded.clear(), b.byteSize(elementSize)), b, out);
        }

        @Override
        void write(ExecutorService pool) throws Exception {
            Files.createDirectories(dir);
            if (io == null) {
                parallel(pool, chunks.size(), i -> writeFile(file(i), encode(i, scratch.get())));
                return;
            }
            // A chunk's buffers stay taken until its file is in place: writeThreads chunks at most.
            if (slots == null) {
                slots = new ArrayBlockingQueue<>(writeThreads);
                for (int k = 0; k < writeThreads; k++) {
                    slots.add(new Scratch(chunkBytes, codec.bound(chunkBytes)));
                }
            }
            List<Future<?>> writes = Collections.synchronizedList(new ArrayList<>());
            Exception failed = null;
            try {
                parallel(pool, chunks.size(), i -> writes.add(encodeAndHandOver(i)));
            } catch (Exception e) {
                failed = e;
            }
            // Also after a failed encode: no file is still being written when write returns.
            try {
                awaitAll(new ArrayList<>(writes));
            } catch (Exception e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
            if (failed != null) {
                throw failed;
            }
        }

        /** Encodes chunk {@code i} into a free slot and hands its file to the write threads, which free the slot. */
        private Future<?> encodeAndHandOver(int i) {
            Scratch s;
            try {
                s = slots.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            ByteBuffer value;
            try {
                value = encode(i, s);
            } catch (RuntimeException e) {
                slots.add(s);
                throw e;
            }
            return io.submit(() -> {
                try {
                    writeFile(file(i), value);
                } finally {
                    slots.add(s);
                }
            });
        }

        @Override
        byte[] read(ExecutorService pool) throws Exception {
            byte[] out = new byte[data.length];
            parallel(pool, chunks.size(), i -> {
                Scratch s = scratch.get();
                decode(readFile(file(i), s.file), i, s, out);
            });
            return out;
        }

        @Override
        void prepare(ExecutorService pool) throws Exception {
            encoded = new ByteBuffer[chunks.size()];
            parallel(pool, chunks.size(), i -> {
                ByteBuffer e = encode(i, scratch.get());
                encoded[i] = ByteBuffer.allocateDirect(e.remaining()).put(e).flip();
            });
        }

        @Override
        void encodeOnly(ExecutorService pool) throws Exception {
            parallel(pool, chunks.size(), i -> encode(i, scratch.get()));
        }

        @Override
        void decodeOnly(ExecutorService pool, byte[] out) throws Exception {
            parallel(pool, chunks.size(), i -> decode(encoded[i].duplicate(), i, scratch.get(), out));
        }

        @Override
        void storeWriteOnly(ExecutorService pool) throws Exception {
            Files.createDirectories(dir);
            parallel(pool, chunks.size(), i -> writeFile(file(i), encoded[i]));
        }

        @Override
        void storeReadOnly(ExecutorService pool) throws Exception {
            parallel(pool, chunks.size(), i -> readFile(file(i), scratch.get().file));
        }
    }

    // ---- one file per shard ----

    private static final class Sharded extends RawLoop {
        private static final int ENTRY = 16;
        private final List<Box> shards;
        private final List<List<Box>> inner;
        private final int innerBytes;
        private final ThreadLocal<Scratch> scratch;
        private final ByteBuffer[] shardBuffers;
        private final int[] shardSizes;
        private final AtomicInteger[] cursors;
        private final long[][] offsets;
        private final long[][] lengths;

        Sharded(byte[] data, long[] shape, int elementSize, long[] shard, long[] innerShape, RawCodec codec, Path dir) {
            super(data, shape, elementSize, codec, dir);
            this.shards = boxes(shape, new long[3], shape, shard);
            this.inner = new ArrayList<>();
            this.innerBytes = new Box(new long[3], innerShape).byteSize(elementSize);
            int perShard = 0;
            for (Box s : shards) {
                // The whole shard's inner grid (an edge shard's index still has every entry).
                List<Box> in = boxes(shape, s.origin(), shard, innerShape);
                inner.add(in);
                perShard = in.size();
            }
            int bound = codec.bound(innerBytes);
            this.scratch = ThreadLocal.withInitial(() -> new Scratch(innerBytes, bound));
            this.shardBuffers = new ByteBuffer[shards.size()];
            this.shardSizes = new int[shards.size()];
            this.cursors = new AtomicInteger[shards.size()];
            this.offsets = new long[shards.size()][perShard];
            this.lengths = new long[shards.size()][perShard];
            for (int s = 0; s < shards.size(); s++) {
                shardBuffers[s] = ByteBuffer.allocateDirect(perShard * bound + perShard * ENTRY + 4);
                cursors[s] = new AtomicInteger();
            }
        }

        private Path file(int s) {
            return dir.resolve("s" + s);
        }

        /** Encodes a shard's inner chunks as tasks and completes when its index is in place. */
        private CompletableFuture<Void> encodeShard(ExecutorService pool, int s) {
            cursors[s].set(0);
            List<Box> in = inner.get(s);
            CompletableFuture<?>[] parts = new CompletableFuture<?>[in.size()];
            for (int j = 0; j < in.size(); j++) {
                int k = j;
                parts[j] = CompletableFuture.runAsync(() -> {
                    Box b = in.get(k);
                    if (b == null) {
                        offsets[s][k] = -1;
                        lengths[s][k] = -1;
                        return;
                    }
                    Scratch sc = scratch.get();
                    ByteBuffer src = sc.in.clear();
                    gather(b, src);
                    ByteBuffer e = codec.encode(src.flip(), sc.encoded.clear());
                    int len = e.remaining();
                    int off = cursors[s].getAndAdd(len);
                    shardBuffers[s].duplicate().position(off).put(e);
                    offsets[s][k] = off;
                    lengths[s][k] = len;
                }, pool);
            }
            return CompletableFuture.allOf(parts).thenRun(() -> writeIndex(s));
        }

        private void writeIndex(int s) {
            int end = cursors[s].get();
            int n = offsets[s].length;
            ByteBuffer b = shardBuffers[s].duplicate().order(ByteOrder.LITTLE_ENDIAN);
            b.position(end);
            for (int j = 0; j < n; j++) {
                b.putLong(offsets[s][j]).putLong(lengths[s][j]);
            }
            CRC32C crc = new CRC32C();
            crc.update(shardBuffers[s].duplicate().position(end).limit(end + n * ENTRY));
            b.putInt((int) crc.getValue());
            shardSizes[s] = b.position();
        }

        /** Checks a shard's index and decodes its inner chunks as tasks into {@code out}. */
        private CompletableFuture<Void> decodeShard(ExecutorService pool, int s, ByteBuffer shardBytes, byte[] out) {
            List<Box> in = inner.get(s);
            int n = in.size();
            int size = shardBytes.remaining();
            int indexAt = size - n * ENTRY - 4;
            ByteBuffer index = shardBytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            CRC32C crc = new CRC32C();
            crc.update(shardBytes.duplicate().position(indexAt).limit(indexAt + n * ENTRY));
            if (index.getInt(size - 4) != (int) crc.getValue()) {
                throw new IllegalStateException("shard " + s + ": index checksum mismatch");
            }
            CompletableFuture<?>[] parts = new CompletableFuture<?>[n];
            for (int j = 0; j < n; j++) {
                long off = index.getLong(indexAt + j * ENTRY);
                long len = index.getLong(indexAt + j * ENTRY + 8);
                Box b = in.get(j);
                if (off == -1 || b == null) {
                    parts[j] = CompletableFuture.completedFuture(null);
                    continue;
                }
                ByteBuffer piece = shardBytes.slice((int) off, (int) len);
                parts[j] = CompletableFuture.runAsync(() -> {
                    Scratch sc = scratch.get();
                    scatter(codec.decode(piece, sc.decoded.clear(), b.byteSize(elementSize)), b, out);
                }, pool);
            }
            return CompletableFuture.allOf(parts);
        }

        private ByteBuffer image(int s) {
            return shardBuffers[s].duplicate().position(0).limit(shardSizes[s]);
        }

        private static void join(List<CompletableFuture<Void>> all) throws Exception {
            try {
                CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).join();
            } catch (CompletionException e) {
                throw unwrap(e);
            }
        }

        @Override
        void write(ExecutorService pool) throws Exception {
            Files.createDirectories(dir);
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int s = 0; s < shards.size(); s++) {
                int k = s;
                all.add(encodeShard(pool, s).thenRunAsync(() -> writeFile(file(k), image(k)), io != null ? io : pool));
            }
            join(all);
        }

        @Override
        byte[] read(ExecutorService pool) throws Exception {
            byte[] out = new byte[data.length];
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int s = 0; s < shards.size(); s++) {
                int k = s;
                all.add(CompletableFuture.supplyAsync(() -> readFile(file(k), shardBuffers[k]), pool)
                        .thenCompose(bytes -> decodeShard(pool, k, bytes, out)));
            }
            join(all);
            return out;
        }

        @Override
        void prepare(ExecutorService pool) throws Exception {
            encodeOnly(pool);
        }

        @Override
        void encodeOnly(ExecutorService pool) throws Exception {
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int s = 0; s < shards.size(); s++) {
                all.add(encodeShard(pool, s));
            }
            join(all);
        }

        @Override
        void decodeOnly(ExecutorService pool, byte[] out) throws Exception {
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int s = 0; s < shards.size(); s++) {
                all.add(decodeShard(pool, s, image(s), out));
            }
            join(all);
        }

        @Override
        void storeWriteOnly(ExecutorService pool) throws Exception {
            Files.createDirectories(dir);
            parallel(pool, shards.size(), s -> writeFile(file(s), image(s)));
        }

        @Override
        void storeReadOnly(ExecutorService pool) throws Exception {
            parallel(pool, shards.size(), s -> {
                ByteBuffer b = readFile(file(s), shardBuffers[s]);
                shardSizes[s] = b.remaining();
            });
        }
    }
}
