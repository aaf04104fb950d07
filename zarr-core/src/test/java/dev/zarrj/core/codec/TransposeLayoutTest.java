package dev.zarrj.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.Region;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.RangeReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The stored layout of a transposed chunk, worked out by hand from codecs-transpose.rst
 * ({@code B_shape[i] = A_shape[order[i]]}, {@code B[B_pos] = A[A_pos]} with
 * {@code B_pos[i] = A_pos[order[i]]}), for an order that is not its own inverse.
 */
class TransposeLayoutTest {
    @Test
    void storedBytesFollowTheSpecsDefinitionForANonSelfInverseOrder() {
        Zarr zarr = Zarr.defaults();
        Store store = zarr.openStore("memory:");
        // A has shape [1, 2, 3] and A[0, j, k] = 3j + k. With order [2, 0, 1], B has shape [3, 1, 2]
        // and B[k, 0, j] = A[0, j, k], so B in C order is 0, 3, 1, 4, 2, 5.
        ZarrArray a = zarr.array(DataTypes.INT32, 1, 2, 3)
                .codecs("[{\"name\":\"transpose\",\"configuration\":{\"order\":[2,0,1]}},"
                        + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]")
                .create(store, "/t");
        a.write(new long[3], new long[] {1, 2, 3}, new int[] {0, 1, 2, 3, 4, 5});
        ByteBuffer stored = store.get(StoreKey.of("t/c/0/0/0")).orElseThrow().order(ByteOrder.LITTLE_ENDIAN);
        int[] b = new int[6];
        stored.asIntBuffer().get(b);
        assertArrayEquals(new int[] {0, 3, 1, 4, 2, 5}, b);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, a.read().toIntArray());
    }

    /**
     * A region of a transposed chunk is read as the permuted region of the stored one: only those
     * bytes are requested, never the whole value (before issue 13 a transpose in the chain turned
     * partial reads off, and this read fetched all 16 KiB). Ranges are not coalesced across gaps
     * here ({@code coalesceGap(0)}), so the bytes requested are exactly the region's.
     */
    @Test
    void aRegionOfATransposedChunkReadsOnlyItsBytes() {
        try (Zarr zarr = Zarr.builder().coalesceGap(0).build()) {
            readsOnlyItsBytes(zarr);
        }
    }

    private static void readsOnlyItsBytes(Zarr zarr) {
        Store memory = zarr.openStore("memory:");
        List<String> whole = new ArrayList<>();
        AtomicLong rangedBytes = new AtomicLong();
        Store counting = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("rangeReader")) {
                        // Reads through this proxy's get and getPartialValues, so that their bytes are counted.
                        return RangeReader.through((Store) proxy, (StoreKey) args[0]);
                    }
                    if (method.getName().equals("get") && args[0] instanceof StoreKey k
                            && k.value().contains("/c/") && !(args.length == 2 && args[1] instanceof ByteRange)) {
                        whole.add(k.value());
                    }
                    if (method.getName().equals("getPartialValues")) {
                        for (Object kr : (List<?>) args[0]) {
                            rangedBytes.addAndGet(((ByteRange.Bounded) ((KeyRange) kr).range()).length());
                        }
                    }
                    if (method.getName().equals("get") && args.length == 2 && args[1] instanceof ByteRange.Bounded r) {
                        rangedBytes.addAndGet(r.length());
                    }
                    try {
                        return method.invoke(memory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        ZarrArray a = zarr.array(DataTypes.INT32, 64, 64)
                .codecs("[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},"
                        + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]")
                .create(counting, "/t");
        int[] values = new int[64 * 64];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 7 - 3;
        }
        a.write(new long[2], new long[] {64, 64}, values);
        whole.clear();
        int[] rows = a.read(new long[] {10, 0}, new long[] {2, 64}).toIntArray();
        assertArrayEquals(Arrays.copyOfRange(values, 10 * 64, 12 * 64), rows);
        assertEquals(List.of(), whole, "no whole-value read of a chunk");
        assertEquals(2 * 64 * 4, rangedBytes.get(), "bytes requested: the region's own");
        // a region inside one stored row is one range
        rangedBytes.set(0);
        int[] column = a.read(new long[] {5, 9}, new long[] {40, 1}).toIntArray();
        for (int i = 0; i < 40; i++) {
            assertEquals(values[(5 + i) * 64 + 9], column[i]);
        }
        assertEquals(40 * 4, rangedBytes.get());
        assertEquals(List.of(), whole);
        assertArrayEquals(rows, a.read(Region.of(new long[] {10, 0}, new long[] {2, 64})).toIntArray());
    }
}
