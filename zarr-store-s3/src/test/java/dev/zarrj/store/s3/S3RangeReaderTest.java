package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ValueChangedException;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The S3 store's range reader: the ranges it reads after its first come from the object version
 * the first read saw (the first answer's ETag sent as {@code If-Match}), or it throws
 * {@link ValueChangedException} when the object was replaced or deleted meanwhile.
 */
@ExtendWith(S3Mock.class)
class S3RangeReaderTest {
    private static final StoreKey K = StoreKey.of("a/c/0");

    private static Store open() {
        return S3Stores.open(S3Mock.get().uri(S3Mock.get().newBucket(), "data.zarr", ""), false, Map.of());
    }

    private static ByteBuffer text(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static String text(Optional<ByteBuffer> v) {
        ByteBuffer b = v.orElseThrow();
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return new String(a, StandardCharsets.US_ASCII);
    }

    @Test
    void readsOfOneVersionThenAReplacementIsNoticed() {
        try (Store s = open()) {
            s.set(K, text("0123456789"));
            try (RangeReader r = s.rangeReader(K)) {
                assertEquals("012", text(r.get(ByteRange.of(0, 3))));
                assertTrue(r.versioned(), "S3 sends an ETag");
                assertEquals(List.of("345", "89"), r.getAll(List.of(ByteRange.of(3, 3), ByteRange.suffix(2)))
                        .stream().map(S3RangeReaderTest::text).toList());
                s.set(K, text("abcdefghij"));
                ValueChangedException e = assertThrows(ValueChangedException.class, () -> r.get(ByteRange.of(6, 3)));
                assertTrue(e.getMessage().contains("'a/c/0'") && e.getMessage().contains("HTTP 412"), e.getMessage());
                CompletionException c = assertThrows(CompletionException.class,
                        () -> r.getAllAsync(List.of(ByteRange.of(0, 1))).join());
                assertTrue(c.getCause() instanceof ValueChangedException, "through the future too: " + c);
            }
            try (RangeReader r = s.rangeReader(K)) {
                assertEquals("ghi", text(r.get(ByteRange.of(6, 3))));
                s.erase(K);
                assertThrows(ValueChangedException.class, () -> r.get(ByteRange.of(0, 1)), "erased meanwhile");
            }
            try (RangeReader r = s.rangeReader(K)) {
                assertEquals(Optional.empty(), r.get(ByteRange.of(0, 1)));
            }
        }
    }

    @Test
    void rangesReadTogetherFirstAgreeOnTheirVersion() {
        try (Store s = open()) {
            byte[] v = new byte[1000];
            for (int i = 0; i < v.length; i++) {
                v[i] = (byte) i;
            }
            s.set(K, ByteBuffer.wrap(v));
            try (RangeReader r = s.rangeReader(K)) {
                List<Optional<ByteBuffer>> got = r.getAll(List.of(ByteRange.of(10, 5), ByteRange.of(900, 100)));
                byte[] a = new byte[5];
                got.get(0).orElseThrow().duplicate().get(a);
                assertArrayEquals(new byte[] {10, 11, 12, 13, 14}, a);
                assertEquals(100, got.get(1).orElseThrow().remaining());
                assertTrue(r.versioned());
            }
        }
    }
}
