package dev.zarrj.store.fs.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStoreProviderTest {
    @TempDir
    Path tmp;

    final FileStoreProvider provider = new FileStoreProvider();

    @Test
    void nameIsTheScheme() {
        assertEquals("file", provider.name());
    }

    @Test
    void opensEveryAbsoluteFormAndDecodesPercentEscapes() throws IOException {
        Path dir = tmp.resolve("my data").resolve("set.zarr");
        String encoded = dir.toUri().getRawPath(); // e.g. /tmp/junit123/my%20data/set.zarr
        assertTrue(encoded.contains("%20"), encoded);
        for (String uri : List.of("file://" + encoded, "file:" + encoded, "file://localhost" + encoded,
                "FILE://" + encoded)) {
            Store store = provider.open(URI.create(uri), false);
            assertEquals("file:" + dir, store.describe(), uri);
            store.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(uri.getBytes(UTF_8)));
            assertEquals(uri, Files.readString(dir.resolve("zarr.json")));
        }
    }

    @Test
    void readOnlyOpen() throws IOException {
        Files.createDirectories(tmp.resolve("s"));
        Files.writeString(tmp.resolve("s/zarr.json"), "{}");
        Store store = provider.open(tmp.resolve("s").toUri(), true);
        assertEquals(StoreCapabilities.READ_ONLY, store.capabilities());
        assertEquals(List.of(StoreKey.of("zarr.json")), store.list());
        assertThrows(ReadOnlyException.class, () -> store.set(StoreKey.of("x"), ByteBuffer.allocate(1)));
    }

    @Test
    void refusesUrisItDoesNotUnderstandNamingThem() {
        for (String uri : List.of("zip:///x.zip", "file:relative/dir", "file://server/share/x", "file:///x?fsync=1",
                "file:///x#frag", "memory:")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> provider.open(URI.create(uri), false), uri);
            assertTrue(e.getMessage().contains(uri), e.getMessage());
        }
    }
}
