package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Attributes;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.Index;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Mask;
import dev.zarrj.core.selection.Selection;
import dev.zarrj.core.selection.Slice;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Defects found reviewing issue 18's selections, typed attributes and their messages; each test failed before its fix. */
class Issue18ReviewDefectsTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    /**
     * A selection of more elements than an array holds used to work out every index of every
     * dimension first (16 GiB for a dimension of 2·10^9) and end in an OutOfMemoryError.
     */
    @Test
    void aSelectionOfMoreElementsThanAnArrayHoldsIsRefusedBeforeItsIndicesAreWorkedOut() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.INT8, 2_000_000_000L, 2_000_000_000L).chunks(1000, 1000).create(store, "/a");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.read(Selection.all()));
        assertTrue(e.getMessage().contains("4000000000000000000 elements"), e.getMessage());
        assertTrue(e.getMessage().contains("[2000000000, 2000000000]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.read(Selection.blocks()));
        assertThrows(IllegalArgumentException.class,
                () -> a.read(Selection.of(Slice.step(-1), IndexList.of(1, 2))));
        assertThrows(IllegalArgumentException.class,
                () -> a.write(Selection.all(), NdArray.allocate(DataTypes.INT8, 1)));
        // a selection that fits is still read
        assertArrayEquals(new long[] {3, 2}, a.read(Selection.of(Slice.from(-3), IndexList.of(5, -5))).shape());
    }

    /**
     * A few elements of a chunk larger than one buffer (here a terabyte, not stored) used to be
     * decoded through a scratch array spanning all of them (the corners: the whole chunk), which
     * failed as "could not be decoded"; a region read of the same elements worked. Boxes of a
     * chunk are now cut as a shard's are, so that each stays under the scratch bound.
     */
    @Test
    void scatteredElementsOfAChunkLargerThanABufferAreRead() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.INT8, 1_000_000, 1_000_000).chunks(1_000_000, 1_000_000).fillValue(5)
                .create(store, "/huge");
        NdArray corners = a.read(Selection.of(IndexList.of(0, 999_999), IndexList.of(999_999, 0)));
        assertArrayEquals(new long[] {2, 2}, corners.shape());
        for (int i = 0; i < 4; i++) {
            assertEquals(5, corners.getLong(i));
        }
        NdArray points = a.read(Selection.points(new long[] {0, 999_999, 3}, new long[] {999_999, 0, 3}));
        assertEquals(3, points.elementCount());
        for (int i = 0; i < 3; i++) {
            assertEquals(5, points.getLong(i));
        }
        assertEquals(5, a.read(Selection.of(Slice.step(500_000), Slice.step(-999_999))).getLong(3));
    }

    /** NumPy's {@code a[np.array(False)]} of a 0-d array is empty; it used to read (and write) one element. */
    @Test
    void aFalsePointMaskOfAZeroDimensionalArraySelectsNothing() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.INT32).fillValue(4).create(store, "/z");
        NdArray no = NdArray.copyOf(DataTypes.BOOL, new boolean[] {false});
        NdArray yes = NdArray.copyOf(DataTypes.BOOL, new boolean[] {true});
        assertArrayEquals(new long[] {0}, a.read(Selection.points(no)).shape());
        a.write(Selection.points(no), NdArray.allocate(DataTypes.INT32, 0));
        assertEquals(4, a.read().getLong(0));
        NdArray one = a.read(Selection.points(yes));
        assertArrayEquals(new long[] {1}, one.shape());
        assertEquals(4, one.getLong(0));
        a.write(Selection.points(yes), NdArray.copyOf(DataTypes.INT32, new int[] {9}, 1));
        assertEquals(9, a.read().getLong(0));
    }

    /**
     * An attribute set from Java to NaN or an infinity, asked for as an integer or BigDecimal,
     * used to throw NumberFormatException instead of the documented InvalidMetadataException.
     */
    @Test
    void aNonFiniteAttributeAskedForAsAnExactNumberIsAnInvalidMetadataExceptionNamingIt() {
        Attributes attrs = Attributes.of(Map.of("nan", Double.NaN, "inf", Double.NEGATIVE_INFINITY));
        for (Class<?> type : new Class<?>[] {Integer.class, Long.class, Byte.class, BigDecimal.class,
                java.math.BigInteger.class}) {
            InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> attrs.get("nan", type));
            assertTrue(e.getMessage().contains("'nan'"), e.getMessage());
            e = assertThrows(InvalidMetadataException.class, () -> attrs.get("inf", type));
            assertTrue(e.getMessage().contains("'inf'"), e.getMessage());
        }
        assertTrue(Double.isNaN(attrs.get("nan", Double.class)));
        assertEquals(Float.NEGATIVE_INFINITY, attrs.get("inf", Float.class));
        assertEquals(new BigDecimal("1E+400"), Attributes.of(Map.of("big", new BigDecimal("1E+400")))
                .get("big", BigDecimal.class));
    }

    /**
     * Messages name the selection: an index list or mask of a million entries used to put all of
     * them (megabytes) into the exception's message.
     */
    @Test
    void messagesShowTheStartOfALongIndexListMaskOrPointListAndItsLength() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.INT8, 1_000_000).chunks(1000).create(store, "/m");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> a.write(Selection.of(IndexList.of(new long[1_000_000])), NdArray.allocate(DataTypes.INT8, 3)));
        assertTrue(e.getMessage().length() < 400, e.getMessage());
        assertTrue(e.getMessage().contains("1000000 in all"), e.getMessage());
        String mask = Mask.of(new boolean[1_000_000]).toString();
        assertTrue(mask.length() < 200 && mask.contains("1000000 in all"), mask);
        String points = Selection.points(new long[1_000_000], new long[1_000_000]).toString();
        assertTrue(points.length() < 400 && points.contains("1000000 in all"), points);
        assertEquals("[[1, 2, 3], :, 4]", Selection.of(IndexList.of(1, 2, 3), Slice.all(), Index.of(4)).toString());
        assertEquals("points[[1, 2], [3, 4]]", Selection.points(new long[] {1, 2}, new long[] {3, 4}).toString());
    }
}
