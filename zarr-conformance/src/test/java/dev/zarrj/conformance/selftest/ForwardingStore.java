package dev.zarrj.conformance.selftest;

import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.ReadMemory;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * A store that passes every operation to another; fixtures override the one they break. The
 * whole reads into given memory ({@code get(key, allocate)}, {@code getLent}) go through this
 * store's {@code get}, as {@link Store}'s defaults do, so that a fixture breaking {@code get}
 * breaks them too. {@code conditionalWrites()} is not passed on (it stays empty): conditional
 * writes of the store beneath would bypass the broken operation; the S27 fixtures supply their own.
 */
public class ForwardingStore extends dev.zarrj.api.store.ForwardingStore {
    protected final Store delegate;

    public ForwardingStore(Store delegate) {
        super(delegate);
        this.delegate = delegate;
    }

    @Override
    public String describe() {
        return getClass().getSimpleName() + "(" + delegate.describe() + ")";
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
        return get(key);
    }

    @Override
    public Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
        return get(key, memory::allocate);
    }

    @Override
    public Optional<ConditionalWrites> conditionalWrites() {
        return Optional.empty();
    }
}
