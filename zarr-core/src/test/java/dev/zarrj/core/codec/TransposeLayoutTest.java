package dev.zarrj.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
}
