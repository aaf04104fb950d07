package dev.zarrj.conformance.core;

import dev.zarrj.api.store.Store;
import dev.zarrj.conformance.StoreContract;
import dev.zarrj.core.Zarr;

/** The in-memory store ({@code memory:}) against the store contract. */
class MemoryStoreConformanceTest extends StoreContract {
    @Override
    protected Store newStore() {
        return Zarr.defaults().openStore("memory:");
    }
}
