package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Zarr arrays written and read through {@link Zarr} with {@code s3://} URIs, found by scheme. */
@ExtendWith(S3Proxy.class)
class S3ZarrTest {
    private static final Zarr ZARR = Zarr.defaults();

    @Test
    void anArrayWrittenToAnS3UriReadsBack() {
        String bucket = S3Proxy.get().newBucket();
        String location = S3Proxy.get().uri(bucket, "data.zarr", "").toString();
        int[] values = new int[30 * 20];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 7 - 100;
        }
        try (ZarrArray a = ZARR.array(DataTypes.INT32, 30, 20).chunks(8, 8).create(location, "/g/a")) {
            a.write(new long[] {0, 0}, new long[] {30, 20}, values);
        }
        try (ZarrArray a = ZARR.openArray(location, "/g/a", true)) {
            assertArrayEquals(values, a.read().toIntArray());
        }
        try (Store s = ZARR.openStore(location, true)) {
            assertTrue(s.describe().startsWith("s3://" + bucket + "/data.zarr/"), s.describe());
            assertTrue(s.exists(StoreKey.of("g/a/zarr.json")));
            assertTrue(s.exists(StoreKey.of("g/a/c/3/2")), "chunk keys are object names under the prefix");
        }
    }

    @Test
    void aShardedArrayIsReadPartiallyWithRangedRequests() {
        String bucket = S3Proxy.get().newBucket();
        String location = S3Proxy.get().uri(bucket, "sharded.zarr", "").toString();
        short[] values = new short[64 * 64];
        for (int i = 0; i < values.length; i++) {
            values[i] = (short) (i % 30000);
        }
        try (ZarrArray a = ZARR.array(DataTypes.INT16, 64, 64).chunks(8, 8).shards(32, 32).create(location, "/s")) {
            a.write(new long[] {0, 0}, new long[] {64, 64}, values);
        }
        try (Store s3 = ZARR.openStore(location, true)) {
            assertEquals(List.of(StoreKey.of("s/c/0/0"), StoreKey.of("s/c/0/1"), StoreKey.of("s/c/1/0"),
                    StoreKey.of("s/c/1/1"), StoreKey.of("s/zarr.json"), StoreKey.of("zarr.json")), s3.list(),
                    "four shards, the array's and the root group's metadata");
            Counting counting = new Counting(s3);
            try (ZarrArray a = ZARR.openArray(counting, "/s")) {
                short[] part = a.read(new long[] {40, 8}, new long[] {8, 8}).toShortArray();
                for (int r = 0; r < 8; r++) {
                    for (int c = 0; c < 8; c++) {
                        assertEquals(values[(40 + r) * 64 + 8 + c], part[r * 8 + c]);
                    }
                }
            }
            assertEquals(0, counting.wholeShardGets.get(), "no shard was read whole");
            assertTrue(counting.rangedGets.get() >= 2, "the index and one inner chunk were read as ranges: "
                    + counting.rangedGets.get());
        }
    }

    /** Counts whole-value and ranged reads of shard objects. */
    private static final class Counting implements Store {
        private final Store inner;
        final AtomicInteger wholeShardGets = new AtomicInteger();
        final AtomicInteger rangedGets = new AtomicInteger();

        Counting(Store inner) {
            this.inner = inner;
        }

        private void count(StoreKey key, ByteRange range) {
            if (key.value().contains("/c/")) {
                if (range == null || range.equals(ByteRange.all())) {
                    wholeShardGets.incrementAndGet();
                } else {
                    rangedGets.incrementAndGet();
                }
            }
        }

        @Override
        public StoreCapabilities capabilities() {
            return inner.capabilities();
        }

        @Override
        public String describe() {
            return inner.describe();
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            count(key, null);
            return inner.get(key);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            count(key, range);
            return inner.get(key, range);
        }

        @Override
        public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
            ranges.forEach(kr -> count(kr.key(), kr.range()));
            return inner.getPartialValues(ranges);
        }

        @Override
        public OptionalLong size(StoreKey key) {
            return inner.size(key);
        }

        @Override
        public List<StoreKey> listPrefix(String prefix) {
            return inner.listPrefix(prefix);
        }

        @Override
        public ListDirResult listDir(String prefix) {
            return inner.listDir(prefix);
        }
    }
}
