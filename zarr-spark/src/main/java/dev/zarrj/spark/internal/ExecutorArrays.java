package dev.zarrj.spark.internal;

import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one JVM (driver or executor) keeps open across tasks: one {@link Zarr} and one store per
 * location, so that a task neither re-creates an S3 client nor re-reads metadata. Arrays are
 * built from the metadata documents the driver sends ({@link Zarr#unstoredArray}): executors make
 * no metadata requests. Stores are closed when the JVM exits.
 */
public final class ExecutorArrays {
    private static final Zarr ZARR = Zarr.defaults();
    private static final Map<String, Store> STORES = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ExecutorArrays::closeAll, "zarrj-spark-close-stores"));
    }

    private ExecutorArrays() {}

    /** The JVM's {@link Zarr}. */
    public static Zarr zarr() {
        return ZARR;
    }

    /** The store at a location, opened once per JVM (for reading and writing). */
    public static Store store(String location) {
        return STORES.computeIfAbsent(location, l -> ZARR.openStore(l, false));
    }

    /** A store opened read-only, once per JVM: an {@code http:} store is read-only. */
    public static Store readStore(String location) {
        return STORES.computeIfAbsent("ro:" + location, l -> ZARR.openStore(location, true));
    }

    /** An array handle from its metadata document, reading from a read-only store. */
    public static ZarrArray readArray(ArrayRef ref) {
        return ZARR.unstoredArray(readStore(ref.storeLocation()), ref.path(), ref.metadata(), ref.zarrFormat());
    }

    private static void closeAll() {
        for (Store s : STORES.values()) {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // the JVM is exiting: a store that fails to close loses nothing a read needs
            }
        }
        STORES.clear();
    }
}
