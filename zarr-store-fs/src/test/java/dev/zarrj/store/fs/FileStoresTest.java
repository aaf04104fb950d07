package dev.zarrj.store.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStoresTest {
    @TempDir
    Path tmp;

    @Test
    void opensReadWriteAndReadOnly() {
        Path root = tmp.resolve("a.zarr");
        try (Store rw = FileStores.open(root, false)) {
            assertEquals(StoreCapabilities.READ_WRITE, rw.capabilities());
            rw.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(new byte[] {'{', '}'}));
        }
        try (Store ro = FileStores.open(root, FileStoreOptions.defaults().withReadOnly(true).withFsync(true))) {
            assertEquals(StoreCapabilities.READ_ONLY, ro.capabilities());
            assertEquals(Optional.of(ByteBuffer.wrap(new byte[] {'{', '}'})), ro.get(StoreKey.of("zarr.json")));
            assertThrows(ReadOnlyException.class, () -> ro.erase(StoreKey.of("zarr.json")));
        }
    }

    @Test
    void optionsDefaultToReadWriteWithoutFsync() {
        assertEquals(new FileStoreOptions(false, false), FileStoreOptions.defaults());
        assertEquals(new FileStoreOptions(true, false), FileStoreOptions.defaults().withReadOnly(true));
        assertEquals(new FileStoreOptions(false, true), FileStoreOptions.defaults().withFsync(true));
    }

    @Test
    void aFileIsNotARoot() throws IOException {
        Path file = Files.writeString(tmp.resolve("f"), "");
        StoreException e = assertThrows(StoreException.class, () -> FileStores.open(file, true));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("not a directory"), e.getMessage());
    }
}
