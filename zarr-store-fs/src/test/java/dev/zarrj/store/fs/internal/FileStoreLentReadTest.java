package dev.zarrj.store.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ForwardingStore;
import dev.zarrj.api.store.ReadMemory;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code getLent}: large values are mapped and unmapped when the caller releases them, small ones
 * read into the caller's memory, and a mapped value either keeps its bytes (replaced by a write,
 * which renames a new file over it) or fails the read naming the key (truncated in place by
 * another writer) without taking the process down.
 */
class FileStoreLentReadTest {
    @TempDir
    Path tmp;

    /** A ReadMemory that records what the store asked of it, releasing what it registered on demand. */
    private static final class Recording implements ReadMemory {
        final List<Integer> allocations = new ArrayList<>();
        final List<Runnable> releases = new ArrayList<>();

        @Override
        public ByteBuffer allocate(int size) {
            allocations.add(size);
            return ByteBuffer.allocateDirect(size + 16);
        }

        @Override
        public void onRelease(Runnable release) {
            releases.add(release);
        }

        void release() {
            releases.forEach(Runnable::run);
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] bytesOf(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void aLargeValueIsMappedAndReleasedOnce() {
        FileStore store = new FileStore(tmp.resolve("s"), false, false);
        byte[] value = random((int) FileStore.MAP_FROM + 3, 1);
        StoreKey key = StoreKey.of("c/0");
        store.set(key, ByteBuffer.wrap(value));
        Recording memory = new Recording();
        ByteBuffer got = store.getLent(key, memory).orElseThrow();
        assertInstanceOf(MappedByteBuffer.class, got);
        assertTrue(java.util.Arrays.equals(value, bytesOf(got)), "the mapped value holds the file's bytes");
        assertEquals(List.of(), memory.allocations, "nothing read into the caller's memory");
        assertEquals(1, memory.releases.size(), "one unmapping registered");
        memory.release();
    }

    @Test
    void aSmallValueIsReadIntoTheCallersMemory() {
        FileStore store = new FileStore(tmp.resolve("s"), false, false);
        byte[] value = random(1000, 2);
        StoreKey key = StoreKey.of("c/0");
        store.set(key, ByteBuffer.wrap(value));
        Recording memory = new Recording();
        ByteBuffer got = store.getLent(key, memory).orElseThrow();
        assertTrue(java.util.Arrays.equals(value, bytesOf(got)));
        assertEquals(List.of(1000), memory.allocations);
        assertEquals(List.of(), memory.releases);
    }

    @Test
    void anAbsentValueNeitherAllocatesNorRegisters() {
        FileStore store = new FileStore(tmp.resolve("s"), false, false);
        Recording memory = new Recording();
        assertEquals(Optional.empty(), store.getLent(StoreKey.of("c/9"), memory));
        assertEquals(List.of(), memory.allocations);
        assertEquals(List.of(), memory.releases);
    }

    @Test
    void aMappedValueKeepsItsBytesWhenAWriteReplacesIt() {
        FileStore store = new FileStore(tmp.resolve("s"), false, false);
        byte[] before = random((int) FileStore.MAP_FROM * 2, 3);
        StoreKey key = StoreKey.of("c/0");
        store.set(key, ByteBuffer.wrap(before));
        Recording memory = new Recording();
        ByteBuffer got = store.getLent(key, memory).orElseThrow();
        store.set(key, ByteBuffer.wrap(random(10, 4)));
        assertTrue(java.util.Arrays.equals(before, bytesOf(got)), "the mapping still reads the value it found");
        memory.release();
        assertEquals(10, store.get(key).orElseThrow().remaining());
    }

    /**
     * A chunk's file truncated in place between the mapping and the copy: the JDK turns the fault
     * into an InternalError, and the read fails with a StoreException naming the chunk's key.
     */
    @Test
    void aValueTruncatedInPlaceWhileLentFailsTheReadNamingTheKey() throws Exception {
        Path root = tmp.resolve("s");
        FileStore files = new FileStore(root, false, false);
        int chunk = (int) FileStore.MAP_FROM * 2;
        AtomicInteger truncated = new AtomicInteger();
        Store truncating = truncating(root, files, truncated);
        try (Zarr zarr = Zarr.builder().threads(1).build()) {
            try (ZarrArray a = zarr.array(DataTypes.UINT8, 2L * chunk).chunks(chunk).create(files, "/")) {
                a.write(NdArray.copyOf(DataTypes.UINT8, random(2 * chunk, 5), 2L * chunk));
            }
            try (ZarrArray a = zarr.openArray(truncating, "/")) {
                StoreException e = assertThrows(StoreException.class, a::read);
                assertTrue(e.getMessage().contains("c/0") || e.getMessage().contains("c/1"), e.getMessage());
                assertTrue(e.getMessage().contains("truncated in place"), e.getMessage());
                assertInstanceOf(InternalError.class, e.getCause());
            }
        }
        assertTrue(truncated.get() >= 1, "the read went through getLent and a mapping");
    }

    /**
     * The same for chunks side by side, copied into the result a row group at a time: the read
     * fails naming the group's keys.
     */
    @Test
    void aValueOfARowGroupTruncatedInPlaceWhileLentFailsTheReadNamingTheKeys() throws Exception {
        Path root = tmp.resolve("s");
        FileStore files = new FileStore(root, false, false);
        long[] chunk = {64, FileStore.MAP_FROM / 32};
        long[] shape = {64, 2 * chunk[1]};
        AtomicInteger truncated = new AtomicInteger();
        Store truncating = truncating(root, files, truncated);
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            try (ZarrArray a = zarr.array(DataTypes.UINT8, shape).chunks(chunk).create(files, "/")) {
                a.write(new long[2], NdArray.copyOf(DataTypes.UINT8, random((int) (shape[0] * shape[1]), 6), shape));
            }
            try (ZarrArray a = zarr.openArray(truncating, "/")) {
                StoreException e = assertThrows(StoreException.class, a::read);
                assertTrue(e.getMessage().contains("'c/0/0', 'c/0/1'"), e.getMessage());
                assertTrue(e.getMessage().contains("truncated in place"), e.getMessage());
                assertInstanceOf(InternalError.class, e.getCause());
            }
        }
        assertTrue(truncated.get() >= 1, "the read went through getLent and a mapping");
    }

    /** {@code files}, truncating each value it maps to 10 bytes right after mapping it. */
    private static Store truncating(Path root, FileStore files, AtomicInteger truncated) {
        return new ForwardingStore(files) {
            @Override
            public String describe() {
                return "truncating " + files.describe();
            }

            @Override
            public Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
                Optional<ByteBuffer> got = files.getLent(key, memory);
                if (got.isPresent() && got.get() instanceof MappedByteBuffer) {
                    try (FileChannel ch = FileChannel.open(root.resolve(key.value()), StandardOpenOption.WRITE)) {
                        ch.truncate(10);
                    } catch (java.io.IOException e) {
                        throw new AssertionError(e);
                    }
                    truncated.incrementAndGet();
                }
                return got;
            }
        };
    }
}
