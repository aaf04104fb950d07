package dev.zarrj.ext.strings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.Index;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Selection;
import dev.zarrj.core.selection.Slice;
import org.junit.jupiter.api.Test;

/** Selections of arrays whose elements are objects (strings, byte strings). */
class StringSelectionsTest {
    private static final Zarr ZARR = Zarr.defaults();

    private static String[] values(int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = "v" + i + "é".repeat(i % 3);
        }
        return out;
    }

    @Test
    void stringSelectionsReadAndWrite() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(StringTypes.STRING, 7, 5).chunks(3, 2).fillValue("n/a").create(store, "/s");
        String[] v = values(35);
        a.write(new long[] {0, 0}, NdArray.copyOf(StringTypes.STRING, v, 7, 5));
        assertArrayEquals(new String[] {v[34], v[33], v[4], v[3], v[34], v[33]},
                a.read(Selection.of(IndexList.of(6, 0, -1), Slice.of(4, 2, -1))).toStringArray());
        assertArrayEquals(new String[] {v[7], v[30]},
                a.read(Selection.points(new long[] {1, 6}, new long[] {2, 0})).toStringArray());
        assertArrayEquals(new String[] {v[10], v[12], v[14]}, a.read(Selection.of(Index.of(2), Slice.step(2))).toStringArray());

        a.write(Selection.of(IndexList.of(6, 0), Slice.of(1, 2)), NdArray.copyOf(StringTypes.STRING, new String[] {"x", "y"}, 2, 1));
        a.write(Selection.points(new long[] {3, 3}, new long[] {3, 3}), NdArray.copyOf(StringTypes.STRING, new String[] {"first", "later"}, 2));
        v[31] = "x";
        v[1] = "y";
        v[18] = "later";
        assertArrayEquals(v, a.read().toStringArray());

        ZarrArray absent = ZARR.array(StringTypes.STRING, 4).chunks(2).fillValue("n/a").create(store, "/absent");
        assertArrayEquals(new String[] {"n/a", "n/a"}, absent.read(Selection.of(IndexList.of(3, 0))).toStringArray());
        assertThrows(IllegalArgumentException.class,
                () -> a.write(Selection.of(Index.of(0), Index.of(0)), NdArray.allocate(DataTypes.INT8)));
    }

    @Test
    void byteStringSelections() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(StringTypes.BYTES, 6).chunks(4).create(store, "/b");
        byte[][] v = {{1}, {2, 2}, {}, {4}, {5, 5, 5}, {6}};
        a.write(new long[] {0}, NdArray.copyOf(StringTypes.BYTES, v, 6));
        byte[][] got = a.read(Selection.of(IndexList.of(5, 1, 4))).toBytesArray();
        assertArrayEquals(v[5], got[0]);
        assertArrayEquals(v[1], got[1]);
        assertArrayEquals(v[4], got[2]);
        a.write(Selection.of(Slice.step(-5)), NdArray.copyOf(StringTypes.BYTES, new byte[][] {{9}, {8}}, 2));
        got = a.read().toBytesArray();
        assertArrayEquals(new byte[] {9}, got[5]);
        assertArrayEquals(new byte[] {8}, got[0]);
        assertArrayEquals(v[2], got[2]);
    }
}
