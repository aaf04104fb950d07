package dev.zarrj.store.fs.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Where the asynchronous writes of every {@link FileStore} of this JVM run. Replacing a file can
 * wait on the device (ext4, for one, writes the new file's data out before it renames it over
 * an old one), so a write that hands its chunks here goes on encoding while files are replaced.
 * One pool for all stores: a store holds no state beyond its root, and needs no closing. Its
 * daemon threads end after half a minute without work.
 */
final class WriteThreads {
    /** How many files are written at once: twice the cores, at least 4, at most 32. */
    static final int COUNT = Math.min(32, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));

    private static final ThreadPoolExecutor POOL;

    static {
        AtomicInteger n = new AtomicInteger();
        POOL = new ThreadPoolExecutor(COUNT, COUNT, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "zarrj-file-write-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        POOL.allowCoreThreadTimeOut(true);
    }

    private WriteThreads() {}

    /** A future that completes with what {@code op} returns on a write thread, or with what it throws. */
    static <T> CompletableFuture<T> run(Supplier<T> op) {
        CompletableFuture<T> f = new CompletableFuture<>();
        try {
            POOL.execute(() -> {
                try {
                    f.complete(op.get());
                } catch (Throwable e) {
                    f.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            f.completeExceptionally(e);
        }
        return f;
    }
}
