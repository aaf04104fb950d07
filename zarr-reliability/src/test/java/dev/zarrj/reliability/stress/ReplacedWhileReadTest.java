package dev.zarrj.reliability.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.store.fs.FileStores;
import dev.zarrj.store.s3.S3Mock;
import dev.zarrj.store.s3.S3Stores;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A shard replaced by another writer between the two ranged reads of a partial read (its index,
 * then an inner chunk) never gives the values of another inner chunk: the read gives the old
 * values (memory and file stores read on from the version they first read) or, after noticing
 * the change ({@code If-Match} answered 412 on S3), reads again and gives the new ones.
 *
 * <p>The replacement is made deterministic with latches: the store below lets the first ranged
 * read of the shard return, then waits while a writer thread replaces the shard, then lets the
 * reader go on. The new shard lacks its first inner chunk (all fill value), so the old index's
 * offset of inner chunk 1 points at inner chunk 2 in the new shard.
 */
@ExtendWith(S3Mock.class)
class ReplacedWhileReadTest {
    private static final StoreKey SHARD = StoreKey.of("a/c/0");
    private static final int[] OLD = {1, 1, 2, 2, 3, 3, 4, 4};
    private static final int[] NEW = {0, 0, 12, 12, 13, 13, 14, 14};

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory", "file", "s3"})
    void aShardReplacedBetweenIndexAndInnerChunkReadsAsOneVersion(String kind) throws Exception {
        try (Zarr z = Zarr.builder().threads(1).build(); Store store = open(z, kind)) {
            ZarrArray a = z.array(DataTypes.INT32, 8).chunks(2).shards(8).fillValue(0).create(store, "/a");
            a.write(new long[] {0}, new long[] {8}, OLD);
            long oldSize = store.size(SHARD).getAsLong();

            CountDownLatch firstRead = new CountDownLatch(1);
            CountDownLatch replaced = new CountDownLatch(1);
            AtomicReference<Throwable> writerFailed = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    if (firstRead.await(30, TimeUnit.SECONDS)) {
                        a.write(new long[] {0}, new long[] {8}, NEW);
                    }
                } catch (Throwable e) {
                    writerFailed.set(e);
                } finally {
                    replaced.countDown();
                }
            }, "replacing-writer");
            writer.start();
            ReplaceAfterFirstRead wrapped = new ReplaceAfterFirstRead(store, () -> {
                firstRead.countDown();
                await(replaced);
            });
            int[] got = z.openArray(wrapped, "/a").read(new long[] {2}, new long[] {2}).toIntArray();
            writer.join();

            assertEquals(null, writerFailed.get(), "the writer replaced the shard");
            assertTrue(wrapped.fired.get(), "the shard was replaced between two ranged reads of one read");
            assertTrue(store.size(SHARD).getAsLong() < oldSize, "the new shard lacks its first inner chunk");
            assertArrayEquals(NEW, a.read(new long[] {0}, new long[] {8}).toIntArray(), "the new shard is stored");
            // Old values from a store that reads on from the version it opened; new values after a
            // read that noticed the change and started over. Never {13, 13}: inner chunk 2 of the new shard.
            int[] expected = kind.equals("s3") ? new int[] {12, 12} : new int[] {2, 2};
            assertArrayEquals(expected, got, "inner chunk 1, as of one version of the shard");
            if (kind.equals("file")) {
                assertEquals(List.of(), openUnder(dir), "the file the range reader kept open was closed");
            }
        }
    }

    /** The files under {@code root} this process has open (Linux: /proc/self/fd; elsewhere none are seen). */
    private static List<String> openUnder(Path root) throws java.io.IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!java.nio.file.Files.isDirectory(fds)) {
            return List.of();
        }
        String prefix = root.toRealPath().toString();
        List<String> open = new java.util.ArrayList<>();
        try (var list = java.nio.file.Files.list(fds)) {
            for (Path fd : (Iterable<Path>) list::iterator) {
                try {
                    String target = java.nio.file.Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(prefix)) {
                        open.add(target);
                    }
                } catch (java.io.IOException | UnsupportedOperationException gone) {
                    // closed meanwhile
                }
            }
        }
        return open;
    }

    private Store open(Zarr z, String kind) {
        return switch (kind) {
            case "memory" -> z.openStore("memory:");
            case "file" -> FileStores.open(dir.resolve("a.zarr"), false);
            default -> S3Stores.open(S3Mock.get().uri(S3Mock.get().newBucket(), "data.zarr", ""), false, Map.of());
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the writer did not replace the shard in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A store that, after the first ranged read of the shard returns (however it is made: a
     * ranged get, a get_partial_values, or a range reader), runs {@code replace} once before
     * returning it to the reader.
     */
    static final class ReplaceAfterFirstRead implements Store {
        private final Store store;
        private final Runnable replace;
        final AtomicBoolean fired = new AtomicBoolean();

        ReplaceAfterFirstRead(Store store, Runnable replace) {
            this.store = store;
            this.replace = replace;
        }

        private <T> T after(boolean shard, T value) {
            if (shard && fired.compareAndSet(false, true)) {
                replace.run();
            }
            return value;
        }

        @Override public StoreCapabilities capabilities() { return store.capabilities(); }
        @Override public String describe() { return store.describe(); }
        @Override public Optional<ByteBuffer> get(StoreKey key) { return store.get(key); }
        @Override public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            return store.get(key, allocate);
        }
        @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            return after(key.equals(SHARD), store.get(key, range));
        }
        @Override public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
            return after(ranges.stream().anyMatch(r -> r.key().equals(SHARD)), store.getPartialValues(ranges));
        }
        @Override public OptionalLong size(StoreKey key) { return store.size(key); }
        @Override public boolean exists(StoreKey key) { return store.exists(key); }
        @Override public int ioConcurrency() { return store.ioConcurrency(); }
        @Override public Optional<ConditionalWrites> conditionalWrites() { return store.conditionalWrites(); }
        @Override public void set(StoreKey key, ByteBuffer value) { store.set(key, value); }
        @Override public void erase(StoreKey key) { store.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return store.listPrefix(prefix); }
        @Override public List<KeySize> listPrefixSizes(String prefix) { return store.listPrefixSizes(prefix); }
        @Override public ListDirResult listDir(String prefix) { return store.listDir(prefix); }

        @Override
        public RangeReader rangeReader(StoreKey key) {
            RangeReader reader = store.rangeReader(key);
            boolean shard = key.equals(SHARD);
            return new RangeReader() {
                @Override public Optional<ByteBuffer> get(ByteRange range) { return after(shard, reader.get(range)); }
                @Override public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges) {
                    return after(shard, reader.getAll(ranges));
                }
                @Override public boolean versioned() { return reader.versioned(); }
                @Override public void close() { reader.close(); }
            };
        }
    }
}
