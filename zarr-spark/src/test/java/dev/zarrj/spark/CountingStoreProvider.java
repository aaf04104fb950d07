package dev.zarrj.spark;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.store.fs.FileStores;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;

/**
 * The {@code counting:} store, for tests only: a directory store ({@code counting:/abs/dir} opens
 * {@code /abs/dir}) that records every read request per key in a static map, which Spark's
 * executor threads (in the test JVM, {@code local[2]}) and the test share. Registered through
 * {@code src/test/resources/META-INF/services}.
 *
 * <p>A request is one call of {@code get}, {@code getAsync} or one range of
 * {@code getPartialValues}; {@code size} and {@code exists} are recorded apart, as probes.
 */
public final class CountingStoreProvider implements StoreProvider {
    /** One read request: the key and the range ({@code null} for the whole value). */
    public record Request(String key, ByteRange range) {
        /** Whether the whole value was asked for. */
        public boolean whole() {
            return range == null || range.equals(ByteRange.all());
        }
    }

    /** Requests by store root (the directory), in arrival order. */
    private static final Map<Path, List<Request>> REQUESTS = new ConcurrentHashMap<>();
    private static final Map<Path, List<String>> PROBES = new ConcurrentHashMap<>();

    public CountingStoreProvider() {}

    @Override
    public String name() {
        return "counting";
    }

    @Override
    public Store open(URI uri, boolean readOnly) {
        if (uri.getRawPath() == null || !uri.getRawPath().startsWith("/")) {
            throw new IllegalArgumentException("'" + uri + "' is not counting:/absolute/dir");
        }
        Path root = Path.of(URI.create("file://" + uri.getRawPath())).normalize();
        return new CountingStore(FileStores.open(root, readOnly), root);
    }

    /** The URI of the counting store over a directory. */
    public static String uri(Path directory) {
        return "counting:" + directory.toAbsolutePath().normalize().toUri().getRawPath();
    }

    /** Forgets what was recorded for a directory. */
    public static void reset(Path directory) {
        REQUESTS.remove(directory.toAbsolutePath().normalize());
        PROBES.remove(directory.toAbsolutePath().normalize());
    }

    /** Every read request on a directory's store since the last {@link #reset}. */
    public static List<Request> requests(Path directory) {
        return List.copyOf(REQUESTS.getOrDefault(directory.toAbsolutePath().normalize(), List.of()));
    }

    /** The number of read requests per key (sorted by key) since the last {@link #reset}. */
    public static Map<String, Integer> requestsPerKey(Path directory) {
        Map<String, Integer> out = new TreeMap<>();
        for (Request r : requests(directory)) {
            out.merge(r.key(), 1, Integer::sum);
        }
        return out;
    }

    /** The keys whose size or existence was asked since the last {@link #reset}. */
    public static List<String> probes(Path directory) {
        return List.copyOf(PROBES.getOrDefault(directory.toAbsolutePath().normalize(), List.of()));
    }

    private static final class CountingStore implements Store {
        private final Store inner;
        private final Path root;

        CountingStore(Store inner, Path root) {
            this.inner = inner;
            this.root = root;
        }

        private void request(StoreKey key, ByteRange range) {
            REQUESTS.computeIfAbsent(root, r -> new CopyOnWriteArrayList<>()).add(new Request(key.value(), range));
        }

        private void probe(StoreKey key) {
            PROBES.computeIfAbsent(root, r -> new CopyOnWriteArrayList<>()).add(key.value());
        }

        @Override
        public StoreCapabilities capabilities() {
            return inner.capabilities();
        }

        @Override
        public String describe() {
            return "counting:" + root;
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            request(key, null);
            return inner.get(key);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            request(key, null);
            return inner.get(key, allocate);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            request(key, range);
            return inner.get(key, range);
        }

        @Override
        public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
            ranges.forEach(kr -> request(kr.key(), kr.range()));
            return inner.getPartialValues(ranges);
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
            request(key, null);
            return inner.getAsync(key);
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
            request(key, range);
            return inner.getAsync(key, range);
        }

        @Override
        public CompletableFuture<List<Optional<ByteBuffer>>> getPartialValuesAsync(List<KeyRange> ranges) {
            ranges.forEach(kr -> request(kr.key(), kr.range()));
            return inner.getPartialValuesAsync(ranges);
        }

        @Override
        public OptionalLong size(StoreKey key) {
            probe(key);
            return inner.size(key);
        }

        @Override
        public boolean exists(StoreKey key) {
            probe(key);
            return inner.exists(key);
        }

        @Override
        public int ioConcurrency() {
            return inner.ioConcurrency();
        }

        @Override
        public Optional<ConditionalWrites> conditionalWrites() {
            return inner.conditionalWrites();
        }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            inner.set(key, value);
        }

        @Override
        public void erase(StoreKey key) {
            inner.erase(key);
        }

        @Override
        public void eraseValues(Collection<StoreKey> keys) {
            inner.eraseValues(keys);
        }

        @Override
        public void erasePrefix(String prefix) {
            inner.erasePrefix(prefix);
        }

        @Override
        public List<StoreKey> listPrefix(String prefix) {
            return new ArrayList<>(inner.listPrefix(prefix));
        }

        @Override
        public ListDirResult listDir(String prefix) {
            return inner.listDir(prefix);
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
