package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.TaskRunner;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * The one way zarrj runs pieces of work in parallel: chunks of a read or write, and the pieces
 * codecs hand to {@link TaskRunner#forEach} (inner chunks of a shard).
 *
 * <p>The calling thread takes part. It asks the executor for up to {@code parallelism - 1}
 * helpers, then it and every helper that has started claim indices from one counter until none is
 * left. The caller then waits only for pieces already claimed, which are running on threads that
 * have started, so it never waits for a helper still queued behind other work: nesting (a chunk
 * task whose codec calls {@code forEach}) and calls from the executor's own threads cannot
 * deadlock, whatever the executor. A helper that starts after the work is done returns at once and
 * holds no reference to it. An executor that refuses helpers (shut down) leaves the caller to do
 * everything.
 *
 * <p>A thread whose own call has no piece left to claim, but still waits for pieces running
 * elsewhere, helps the calls nested in them (a shard's inner chunks, started by a chunk piece on
 * another thread) before it blocks, and is woken to help when such a call starts while it waits:
 * so the last chunk of a read, or a lone shard, gets the whole thread budget, rather than one
 * thread while the others wait. It helps only calls nested in its own, never an unrelated
 * caller's.
 *
 * <p>At most {@code parallelism} pieces of one call run at once, which also bounds the chunks in
 * memory. When the caller is interrupted, pieces not yet claimed are skipped, the caller still
 * waits for the running ones (they may be writing into memory it is about to reuse), and then
 * throws a {@link StoreException} with its interrupt status set. Interrupted while waiting, with
 * nothing left to skip, it returns normally with its interrupt status set.
 *
 * <p>Cancellation of an asynchronous operation ({@link Cancellation}) works the same way without
 * touching any thread's interrupt status: pieces not yet claimed are skipped, running ones finish,
 * and the call throws {@link CancellationException}. The caller's token is handed to the helpers
 * while they run pieces of its call, so nested calls see it too.
 */
public final class ParallelTasks implements TaskRunner {
    /** Calls with pieces not yet claimed, which the threads waiting for an enclosing call may help. */
    private static final Set<Work> OPEN = ConcurrentHashMap.newKeySet();
    /** The call whose piece this thread is running, or null: the parent of calls it starts. */
    private static final ThreadLocal<Work> RUNNING = new ThreadLocal<>();

    private final Executor executor;
    private final int parallelism;

    /**
     * @param executor    where helpers run
     * @param parallelism how many threads, the caller included, work on one call at most
     */
    public ParallelTasks(Executor executor, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        this.executor = executor;
        this.parallelism = parallelism;
    }

    /** The same executor with at most {@code limit} threads on one call. */
    public ParallelTasks limit(int limit) {
        return limit >= parallelism ? this : new ParallelTasks(executor, limit);
    }

    /** How many threads, the caller included, work on one call at most. */
    public int parallelism() {
        return parallelism;
    }

    @Override
    public void forEach(int n, IntConsumer task) {
        forEachLong(n, i -> task.accept((int) i));
    }

    /** True while the calling thread runs a piece of a call with more than one piece, on any instance. */
    @Override
    public boolean inPiece() {
        return RUNNING.get() != null;
    }

    /** {@link #forEach(int, IntConsumer)} for more pieces than an int counts. */
    public void forEachLong(long n, LongConsumer task) {
        if (n <= 0) {
            return;
        }
        Cancellation token = Cancellation.current();
        if (Cancellation.cancelled(token)) {
            throw new CancellationException("cancelled before reading or writing " + n + " chunks");
        }
        if (n == 1) {
            task.accept(0);
            return;
        }
        Work work = new Work(n, task, Thread.currentThread(), token, parallelism, RUNNING.get());
        work.open();
        try {
            long helpers = Math.min(n, parallelism) - 1;
            for (long h = 0; h < helpers; h++) {
                try {
                    executor.execute(() -> work.claimAndRun());
                } catch (RejectedExecutionException e) {
                    break;
                }
            }
            work.claimAndRun();
            work.awaitClaimed();
        } finally {
            OPEN.remove(work);
        }
        work.rethrow();
    }

    /**
     * How long a caller whose pieces are all claimed spins before it parks: the last piece often
     * ends within this, and a parked thread takes longer than that to wake again.
     */
    private static final long SPIN_NANOS = 30_000;

    private static final class Work {
        private final long n;
        private final Thread caller;
        private final Cancellation token;
        private final int parallelism;
        /** The call in whose piece this one was started, or null. */
        private final Work parent;
        private final AtomicLong next = new AtomicLong();
        private final AtomicLong finished = new AtomicLong();
        /** Threads claiming pieces now: at most {@link #parallelism}. */
        private final AtomicInteger runners = new AtomicInteger();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile LongConsumer task;
        private volatile boolean interrupted;
        /** The caller was interrupted while it waited (its flag is then cleared until it returns). */
        private volatile boolean callerInterrupted;
        private volatile boolean cancelled;
        /** The caller while it waits for the last pieces, else null. */
        private volatile Thread waiter;

        Work(long n, LongConsumer task, Thread caller, Cancellation token, int parallelism, Work parent) {
            this.n = n;
            this.task = task;
            this.caller = caller;
            this.token = token;
            this.parallelism = parallelism;
            this.parent = parent;
        }

        /** Offers the pieces to the threads waiting for an enclosing call, and wakes them. */
        void open() {
            if (parent == null) {
                return; // nobody to help: only calls nested in a waiting caller's are helped
            }
            OPEN.add(this);
            for (Work w = parent; w != null; w = w.parent) {
                Thread t = w.waiter;
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }
        }

        /**
         * Claims and runs pieces until none is left, unless {@code parallelism} threads already
         * do; a piece claimed after a failure or an interrupt is skipped.
         *
         * @return false when it claimed nothing because the call was over or had its threads
         */
        boolean claimAndRun() {
            LongConsumer t = task;
            if (t == null) {
                return false;
            }
            for (int r = runners.get(); ; r = runners.get()) {
                if (r >= parallelism) {
                    return false;
                }
                if (runners.compareAndSet(r, r + 1)) {
                    break;
                }
            }
            try {
                Cancellation.runUnder(token, () -> claimAndRun(t));
            } finally {
                runners.decrementAndGet();
            }
            return true;
        }

        private void claimAndRun(LongConsumer t) {
            Work outer = RUNNING.get();
            RUNNING.set(this);
            try {
                long i;
                while ((i = next.getAndIncrement()) < n) {
                    if (i == n - 1) {
                        OPEN.remove(this);
                    }
                    try {
                        if (callerInterrupted || caller.isInterrupted()) {
                            interrupted = true;
                        } else if (Cancellation.cancelled(token)) {
                            cancelled = true;
                        } else if (failure.get() == null) {
                            t.accept(i);
                        }
                    } catch (Throwable e) {
                        if (!failure.compareAndSet(null, e) && failure.get() != e) {
                            failure.get().addSuppressed(e);
                        }
                    } finally {
                        if (finished.incrementAndGet() == n) {
                            Thread w = waiter;
                            if (w != null) {
                                LockSupport.unpark(w);
                            }
                        }
                    }
                }
            } finally {
                if (outer == null) {
                    RUNNING.remove();
                } else {
                    RUNNING.set(outer);
                }
            }
        }

        /** Whether this call was started, directly or not, in a piece of {@code ancestor}. */
        private boolean nestedIn(Work ancestor) {
            for (Work w = parent; w != null; w = w.parent) {
                if (w == ancestor) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Runs pieces of one call nested in this one that has some left and room for a thread;
         * false when there is none. (A call's threads leave it only when no piece is left, so one
         * that is full now never needs this thread later.)
         */
        private boolean helpNested() {
            for (Work w : OPEN) {
                if (w.next.get() < w.n && w.runners.get() < w.parallelism && w.nestedIn(this) && w.claimAndRun()) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Waits, not interruptibly, until every claimed piece has finished, helping the calls
         * nested in them meanwhile; the caller claims the rest first.
         */
        void awaitClaimed() {
            boolean wasInterrupted = false;
            waiter = Thread.currentThread();
            long spinUntil = System.nanoTime() + SPIN_NANOS;
            try {
                while (finished.get() < n) {
                    // An interrupted thread runs no one else's piece: its store reads would fail
                    // (an interrupt closes a FileChannel).
                    if (!wasInterrupted && !Thread.currentThread().isInterrupted() && helpNested()) {
                        continue;
                    }
                    if (System.nanoTime() < spinUntil) {
                        Thread.onSpinWait();
                        continue;
                    }
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        // Cleared here to park again, so kept for the pieces not yet claimed.
                        wasInterrupted = true;
                        callerInterrupted = true;
                    }
                }
            } finally {
                waiter = null;
            }
            task = null;
            if (wasInterrupted) {
                Thread.currentThread().interrupt();
            }
        }

        void rethrow() {
            Throwable t = failure.get();
            if (t instanceof RuntimeException re) {
                throw re;
            }
            if (t instanceof Error err) {
                throw err;
            }
            if (t != null) {
                throw new IllegalStateException(t);
            }
            if (interrupted) {
                throw new StoreException("interrupted while reading or writing chunks", null);
            }
            if (cancelled) {
                throw new CancellationException("cancelled while reading or writing chunks");
            }
        }
    }
}
