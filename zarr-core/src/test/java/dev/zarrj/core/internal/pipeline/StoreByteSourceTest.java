package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** {@link StoreByteSource#readAll}: which ranges share a request; {@link StoreByteSource#readAllLent}: whose memory. */
class StoreByteSourceTest {
    private static final StoreKey KEY = StoreKey.of("v");

    /** A memory store holding {@code size} bytes 0, 1, 2, ... (mod 256) at {@code v}. */
    private static Store holding(int size) {
        Store memory = Zarr.defaults().openStore("memory:");
        byte[] v = new byte[size];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) i;
        }
        memory.set(KEY, ByteBuffer.wrap(v));
        return memory;
    }

    /** A memory store holding bytes 0, 1, 2, ... (mod 256) at {@code v}, recording the ranges requested. */
    private static Store recording(List<String> requested) {
        Store memory = holding(10_000);
        return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("rangeReader")) {
                        // Reads through this proxy's getPartialValues, so that its requests are recorded.
                        return RangeReader.through((Store) proxy, (StoreKey) args[0]);
                    }
                    if (method.getName().equals("getPartialValues")) {
                        @SuppressWarnings("unchecked")
                        List<KeyRange> ranges = (List<KeyRange>) args[0];
                        ranges.forEach(r -> requested.add(r.range().toString()));
                    }
                    try {
                        return method.invoke(memory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static List<ByteRange> everyKiB(int n) {
        List<ByteRange> ranges = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) { // out of order: readAll sorts them
            ranges.add(ByteRange.of(i * 1024L, 8));
        }
        return ranges;
    }

    private static void assertExact(List<ByteRange> ranges, List<ByteBuffer> got) {
        for (int i = 0; i < ranges.size(); i++) {
            ByteRange.Bounded r = (ByteRange.Bounded) ranges.get(i);
            ByteBuffer b = got.get(i);
            assertEquals(r.length(), b.remaining());
            for (int k = 0; k < r.length(); k++) {
                assertEquals((byte) (r.start() + k), b.get(b.position() + k), "byte " + k + " of " + r);
            }
        }
    }

    @Test
    void aMergedRequestStaysWithinItsLimit() {
        List<String> requested = new ArrayList<>();
        List<ByteRange> ranges = everyKiB(4); // at 0, 1024, 2048, 3072
        StoreByteSource s = new StoreByteSource(recording(requested), KEY, 2000, 3000, 0, true);
        assertExact(ranges, s.readAll(ranges).orElseThrow());
        assertEquals(2, requested.size(), "0..2056 in one request; 3072 would make it 3080 bytes: " + requested);
    }

    @Test
    void aSingleRangeLongerThanTheLimitIsStillOneRequest() {
        List<String> requested = new ArrayList<>();
        List<ByteRange> ranges = List.of(ByteRange.of(0, 5000), ByteRange.of(5000, 10));
        StoreByteSource s = new StoreByteSource(recording(requested), KEY, 0, 3000, 0, true);
        assertExact(ranges, s.readAll(ranges).orElseThrow());
        assertEquals(2, requested.size(), String.valueOf(requested));
    }

    @Test
    void gapMergingAndItsAbsence() {
        List<String> requested = new ArrayList<>();
        List<ByteRange> ranges = everyKiB(8);
        assertExact(ranges, new StoreByteSource(recording(requested), KEY, 1016, 1 << 20, 0, true).readAll(ranges)
                .orElseThrow());
        assertEquals(1, requested.size(), "gaps of 1016 bytes within a gap of 1016");
        requested.clear();
        assertExact(ranges, new StoreByteSource(recording(requested), KEY, 1015, 1 << 20, 0, true).readAll(ranges)
                .orElseThrow());
        assertEquals(8, requested.size(), "gaps of 1016 bytes over a gap of 1015");
    }

    /**
     * A store whose range reader holds bytes 0, 1, 2, ... (mod 256) and reads ranges into the
     * buffers it is given, recording how many it asked for.
     */
    private static Store readingIntoBuffers(int size, AtomicInteger allocated) {
        Store memory = holding(size);
        return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("rangeReader")) {
                        return new RangeReader() {
                            @Override
                            public Optional<ByteBuffer> get(ByteRange range) {
                                return memory.get(KEY, range);
                            }

                            @Override
                            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges,
                                                                     IntFunction<ByteBuffer> allocate) {
                                List<Optional<ByteBuffer>> out = new ArrayList<>();
                                for (ByteRange r : ranges) {
                                    ByteBuffer b = memory.get(KEY, r).orElseThrow();
                                    allocated.incrementAndGet();
                                    ByteBuffer into = allocate.apply(b.remaining());
                                    int n = b.remaining();
                                    into.put(b).flip();
                                    assertEquals(n, into.remaining());
                                    out.add(Optional.of(into));
                                }
                                return out;
                            }
                        };
                    }
                    try {
                        return method.invoke(memory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * readAllLent reads into pooled memory, which stays lent until the source is closed and then
     * goes back; readAll reads into memory of the caller's own.
     */
    @Test
    void lentReadsUsePooledMemoryUntilClosed() {
        AtomicInteger allocated = new AtomicInteger();
        List<ByteRange> ranges = List.of(ByteRange.of(300_000, 100_000), ByteRange.of(0, 100_000),
                ByteRange.of(100_010, 70_000));
        long before = BufferLease.outstanding();
        try (StoreByteSource s = new StoreByteSource(readingIntoBuffers(400_000, allocated), KEY, 0, 1 << 20, 0, true)) {
            List<ByteBuffer> got = s.readAllLent(ranges).orElseThrow();
            assertExact(ranges, got);
            assertEquals(3, allocated.get(), "three requests, each into a lent buffer");
            got.forEach(b -> assertTrue(b.isDirect(), "pooled direct memory: " + b));
            assertEquals(before + 3, BufferLease.outstanding(), "lent while the source is open");
            allocated.set(0);
            List<ByteBuffer> own = s.readAll(ranges).orElseThrow();
            assertExact(ranges, own);
            assertEquals(0, allocated.get(), "readAll does not read into lent memory");
        }
        assertEquals(before, BufferLease.outstanding(), "given back when the source closes");
        // A source that several decode calls share lends nothing: its memory would pile up until it closes.
        allocated.set(0);
        try (StoreByteSource s = new StoreByteSource(readingIntoBuffers(400_000, allocated), KEY, 0, 1 << 20, 0, false)) {
            assertExact(ranges, s.readAllLent(ranges).orElseThrow());
            assertEquals(0, allocated.get(), "read as readAll reads");
            assertEquals(before, BufferLease.outstanding());
        }
    }
}
