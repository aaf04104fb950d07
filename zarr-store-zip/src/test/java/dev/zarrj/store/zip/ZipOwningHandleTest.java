package dev.zarrj.store.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arrays and groups opened from a zip location own the zip store: closing them writes the
 * archive. Those opened from a zip store the caller holds leave it open.
 */
class ZipOwningHandleTest {
    private static final Zarr ZARR = Zarr.defaults();

    @TempDir
    Path tmp;

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void closingAnArrayCreatedFromAZipLocationWritesTheArchive() throws IOException {
        Path zip = tmp.resolve("set.zip");
        try (ZarrArray a = ZARR.array(DataTypes.INT16, 6).chunks(4).create(zip.toString(), "/g/a")) {
            a.write(new long[] {0}, new long[] {6}, new short[] {1, 2, 3, 4, 5, 6});
            assertFalse(Files.exists(zip), "the archive is written on close, not before");
        }
        assertEquals(List.of("set.zip"), files(), "no lock or spill file is left");
        try (ZarrArray a = ZARR.openArray("zip:" + zip, "/g/a", true)) {
            assertArrayEquals(new short[] {1, 2, 3, 4, 5, 6}, a.read().toShortArray());
            assertEquals(List.of("set.zip"), files(), "a read-only open takes no lock");
        }
        try (ZarrGroup g = ZARR.openGroup(zip.toString(), "/g")) {
            ZarrArray child = g.openArray("a");
            child.write(new long[] {0}, new long[] {1}, new short[] {9});
            child.close(); // the child does not own the store: the archive is not written yet
            child.write(new long[] {1}, new long[] {1}, new short[] {8});
        }
        try (ZarrArray a = ZARR.openArray(zip.toString(), "/g/a", true)) {
            assertArrayEquals(new short[] {9, 8, 3, 4, 5, 6}, a.read().toShortArray());
        }
    }

    @Test
    void aClosedOwningArrayCannotBeWrittenAnyMore() {
        Path zip = tmp.resolve("closed.zip");
        ZarrArray a = ZARR.array(DataTypes.INT16, 2).create(zip.toString(), "/a");
        a.close();
        StoreException e = assertThrows(StoreException.class,
                () -> a.write(new long[] {0}, new long[] {2}, new short[] {1, 2}));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void anArrayOpenedFromAHeldZipStoreLeavesItOpen() throws IOException {
        Path zip = tmp.resolve("held.zip");
        try (Store store = ZipStores.create(zip)) {
            try (ZarrArray a = ZARR.array(DataTypes.INT16, 2).create(store, "/a")) {
                a.write(new long[] {0}, new long[] {2}, new short[] {7, 7});
            }
            assertFalse(Files.exists(zip));
            store.set(StoreKey.of("extra"), ByteBuffer.wrap(new byte[] {1}));
        }
        try (Store store = ZipStores.open(zip, "")) {
            assertTrue(store.exists(StoreKey.of("extra")));
            assertArrayEquals(new short[] {7, 7}, ZARR.openArray(store, "/a").read().toShortArray());
        }
    }
}
