package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** {@link PendingWrites}: places bounded by the window and by the bytes awaiting completion. */
class PendingWritesTest {
    /** A store whose {@code setAsync} futures complete when the test says so. */
    private static final class HeldStore implements Store {
        final Store memory = Zarr.defaults().openStore("memory:");
        final List<CompletableFuture<Void>> futures = new ArrayList<>();

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "held"; }
        @Override public Optional<ByteBuffer> get(StoreKey key) { return memory.get(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }

        @Override
        public synchronized CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            futures.add(f);
            return f;
        }

        synchronized CompletableFuture<Void> future(int i) {
            return futures.get(i);
        }
    }

    /** Reserves on another thread, which must be waiting before {@code release} runs and get its place after. */
    private static void assertReserveWaitsUntil(PendingWrites pending, Runnable release) throws InterruptedException {
        AtomicBoolean reserved = new AtomicBoolean();
        Thread t = new Thread(() -> reserved.set(pending.reserve()));
        t.start();
        while (t.getState() != Thread.State.TIMED_WAITING && t.isAlive()) {
            Thread.onSpinWait();
        }
        assertFalse(reserved.get(), "a place was given while there was no room");
        release.run();
        t.join();
        assertTrue(reserved.get(), "the place was given once there was room");
    }

    @Test
    void encodingWaitsWhileTheBytesAwaitingCompletionReachTheBudget() throws InterruptedException {
        HeldStore store = new HeldStore();
        PendingWrites pending = new PendingWrites(store, 10, 250, new ChunkErrors("a/"));
        for (int i = 0; i < 3; i++) {
            assertTrue(pending.reserve());
            pending.set(StoreKey.of("a/c/" + i), 100, ByteBuffer.allocate(100), new BufferLease());
        }
        assertEquals(300, pending.peakHeldBytes());
        // 300 bytes await completion, over a budget of 250: a fourth chunk waits for one to complete.
        assertReserveWaitsUntil(pending, () -> store.future(0).complete(null));
        pending.unreserve();
        store.futures.forEach(f -> f.complete(null));
        pending.finish();
        assertEquals(300, pending.peakHeldBytes(), "never more than the budget plus one value");
    }

    @Test
    void aLeaseHoldingMoreThanTheValueCountsWhatItHolds() {
        HeldStore store = new HeldStore();
        PendingWrites pending = new PendingWrites(store, 10, Long.MAX_VALUE, new ChunkErrors("a/"));
        BufferLease lease = new BufferLease();
        lease.borrow(500); // the chunk, copied before encoding
        ByteBuffer value = lease.borrow(100);
        assertTrue(pending.reserve());
        pending.set(StoreKey.of("a/c/0"), 500, value, lease);
        assertEquals(600, pending.peakHeldBytes());
        store.future(0).complete(null);
        pending.finish();
        assertEquals(0, lease.lentBytes(), "the lease was closed when the request completed");
    }

    @Test
    void theWindowBoundsTheRequestsOutstanding() throws InterruptedException {
        HeldStore store = new HeldStore();
        PendingWrites pending = new PendingWrites(store, 2, Long.MAX_VALUE, new ChunkErrors("a/"));
        assertTrue(pending.reserve());
        pending.set(StoreKey.of("a/c/0"), 1, ByteBuffer.allocate(1), new BufferLease());
        assertTrue(pending.reserve()); // encoding, not yet handed over
        assertReserveWaitsUntil(pending, () -> store.future(0).complete(null));
        pending.unreserve();
        pending.unreserve();
        pending.finish();
    }

    @Test
    void finishWaitsForEveryRequestAndThrowsTheFirstFailure() throws InterruptedException {
        HeldStore store = new HeldStore();
        PendingWrites pending = new PendingWrites(store, 4, Long.MAX_VALUE, new ChunkErrors("a/"));
        for (int i = 0; i < 3; i++) {
            assertTrue(pending.reserve());
            pending.set(StoreKey.of("a/c/" + i), 1, ByteBuffer.allocate(1), new BufferLease());
        }
        StoreException first = new StoreException("held: cannot write 'a/c/1'", null);
        store.future(1).completeExceptionally(first);
        assertFalse(pending.reserve(), "no place is given after a failure");
        AtomicBoolean finished = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            assertSame(first, assertThrows(StoreException.class, pending::finish));
            finished.set(true);
        });
        waiter.start();
        while (waiter.getState() != Thread.State.WAITING && waiter.isAlive()) {
            Thread.onSpinWait();
        }
        assertFalse(finished.get(), "finish returned while requests were in flight");
        store.future(0).complete(null);
        store.future(2).completeExceptionally(new StoreException("later", null));
        waiter.join();
        assertTrue(finished.get());
        assertEquals(1, first.getSuppressed().length, "the later failure is kept, suppressed");
    }
}
