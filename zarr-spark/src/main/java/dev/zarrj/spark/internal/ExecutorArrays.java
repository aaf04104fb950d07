package dev.zarrj.spark.internal;

import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
    private static final Map<String, Opened> READ_STORES = new ConcurrentHashMap<>();

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

    /**
     * A store opened read-only ({@code http:} stores are), once per JVM while its location is
     * unchanged: a location that is a local file (a zip archive) is opened again, and the store
     * kept for it closed, when the file has changed since, so that a read after the archive was
     * replaced does not see the old one through a stale handle.
     */
    public static Store readStore(String location) {
        Object stamp = fileStamp(location);
        return READ_STORES.compute(location, (l, old) -> {
            if (old != null && Objects.equals(old.stamp(), stamp)) {
                return old;
            }
            if (old != null) {
                closeQuietly(old.store());
            }
            return new Opened(ZARR.openStore(location, true), stamp);
        }).store();
    }

    /** A read-only store and what its location's file looked like when it was opened (null: not a local file). */
    private record Opened(Store store, Object stamp) {}

    /**
     * The identity, modification time and size of the local file a location names ({@code zip:}
     * URIs and plain paths), or null for any other location or when there is no such file.
     */
    private static Object fileStamp(String location) {
        Path file;
        try {
            if (location.regionMatches(true, 0, "zip:", 0, 4)) {
                String path = URI.create(location).getPath();
                if (path == null) {
                    return null;
                }
                file = Path.of(path);
            } else if (!location.matches("^[a-zA-Z][a-zA-Z0-9+.-]+:.*")) {
                file = Path.of(location);
            } else {
                return null;
            }
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return a.isRegularFile() ? List.of(String.valueOf(a.fileKey()), a.lastModifiedTime(), a.size()) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void closeQuietly(Store s) {
        try {
            s.close();
        } catch (RuntimeException ignored) {
            // the file it read was replaced: nothing it holds is needed any more
        }
    }

    /** An array handle from its metadata document, reading from a read-only store. */
    public static ZarrArray readArray(ArrayRef ref) {
        return ZARR.unstoredArray(readStore(ref.storeLocation()), ref.path(), ref.metadata(), ref.zarrFormat());
    }

    private static void closeAll() {
        for (Store s : STORES.values()) {
            closeQuietly(s);
        }
        STORES.clear();
        for (Opened o : READ_STORES.values()) {
            closeQuietly(o.store());
        }
        READ_STORES.clear();
    }
}
