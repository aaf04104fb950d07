package dev.zarrj.core;

import dev.zarrj.api.store.Store;
import java.util.concurrent.atomic.AtomicBoolean;

/** The store a node opened from a location, closed once when the node is closed. */
final class StoreOwner {
    /** For nodes opened from a store the caller holds. */
    static final StoreOwner NONE = new StoreOwner(null);

    private final Store store;
    private final AtomicBoolean closed = new AtomicBoolean();

    private StoreOwner(Store store) {
        this.store = store;
    }

    static StoreOwner of(Store store) {
        return new StoreOwner(store);
    }

    boolean owns() {
        return store != null;
    }

    void close() {
        if (store != null && closed.compareAndSet(false, true)) {
            store.close();
        }
    }
}
