package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.array;
import static dev.zarrj.store.zip.internal.Zips.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZipStoreProviderTest {
    @TempDir
    Path tmp;

    final ZipStoreProvider provider = new ZipStoreProvider();
    Path zip;
    /** The archive's path as it appears, percent-encoded, in a URI: /tmp/.../my%20data/set%21.zip */
    String raw;

    @BeforeEach
    void build() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("my data"));
        zip = Zips.write(dir.resolve("set!.zip"),
                Item.stored("zarr.json", utf8("root")),
                Item.stored("inner folder/set/zarr.json", utf8("inner")));
        raw = zip.toUri().getRawPath().replace("!", "%21");
        assertTrue(raw.contains("%20") && raw.contains("%21"), raw);
    }

    @Test
    void nameIsTheScheme() {
        assertEquals("zip", provider.name());
    }

    @Test
    void everyFormOfTheArchiveRootDecodesToTheSameArchive() {
        for (String uri : List.of("zip:" + raw, "zip://" + raw, "zip://localhost" + raw, "zip:file://" + raw,
                "zip:file:" + raw, "ZIP:" + raw, "zip:" + raw + "!/", "zip:file://" + raw + "!/")) {
            try (Store s = provider.open(URI.create(uri), true)) {
                assertEquals("zip:" + zip, s.describe(), uri);
                assertArrayEquals(utf8("root"), array(s.get(StoreKey.of("zarr.json")).orElseThrow()), uri);
            }
        }
    }

    @Test
    void aFolderInsideTheArchiveFollowsTheSeparator() {
        for (String uri : List.of("zip:" + raw + "!/inner%20folder/set", "zip:" + raw + "!/inner%20folder/set/",
                "zip:file://" + raw + "!/inner%20folder/set", "zip://localhost" + raw + "!/inner%20folder/set")) {
            try (Store s = provider.open(URI.create(uri), true)) {
                assertEquals("zip:" + zip + "!/inner folder/set", s.describe(), uri);
                assertEquals(List.of(StoreKey.of("zarr.json")), s.list(), uri);
                assertArrayEquals(utf8("inner"), array(s.get(StoreKey.of("zarr.json")).orElseThrow()), uri);
            }
        }
    }

    @Test
    void theSplitIsAtTheFirstRawSeparator() {
        ZipStoreProvider.Location at = ZipStoreProvider.parse(URI.create("zip:/a%21/b.zip!/c!/d"));
        assertEquals(Path.of("/a!/b.zip"), at.zip());
        assertEquals("c!/d", at.folder());
    }

    @Test
    void readOnlyDecidesTheMode() {
        try (Store s = provider.open(URI.create("zip:" + raw), true)) {
            assertEquals(StoreCapabilities.READ_ONLY, s.capabilities());
            ReadOnlyException e = assertThrows(ReadOnlyException.class,
                    () -> s.set(StoreKey.of("x"), java.nio.ByteBuffer.allocate(1)));
            assertTrue(e.getMessage().contains(zip.toString()), e.getMessage());
        }
        try (Store s = provider.open(URI.create("zip:" + raw + "!/inner%20folder/set"), false)) {
            assertEquals(StoreCapabilities.READ_WRITE, s.capabilities());
            s.set(StoreKey.of("c/0"), java.nio.ByteBuffer.wrap(utf8("new")));
        }
        try (Store s = provider.open(URI.create("zip:" + raw), true)) {
            assertEquals(List.of(StoreKey.of("inner folder/set/c/0"), StoreKey.of("inner folder/set/zarr.json"),
                    StoreKey.of("zarr.json")), s.list());
        }
        // Writable and absent: created by the first write, on close.
        Path fresh = tmp.resolve("fresh.zip");
        try (Store s = provider.open(URI.create("zip:" + fresh.toUri().getRawPath()), false)) {
            assertFalse(Files.exists(fresh));
            s.set(StoreKey.of("zarr.json"), java.nio.ByteBuffer.wrap(utf8("{}")));
        }
        assertTrue(Files.exists(fresh));
        StoreException e = assertThrows(StoreException.class,
                () -> provider.open(URI.create("zip:" + tmp.resolve("absent.zip").toUri().getRawPath()), true));
        assertTrue(e.getMessage().contains("no such archive"), e.getMessage());
    }

    @Test
    void refusesUrisItDoesNotUnderstandNamingThem() {
        for (String uri : List.of("file:///x.zip", "zip:x.zip", "zip:relative/x.zip", "zip:file:x.zip",
                "zip://server/share/x.zip", "zip:/x.zip?mode=r", "zip:/x.zip?wait=soon",
                "zip:/x.zip?wait=-PT1S", "zip:/x.zip?wait=1s&mode=r", "zip:/x.zip#frag", "zip:/x.zip!/../y",
                "zip:/x.zip!/a//b", "zip:/x.zip!/a%5Cb", "zip:/x%ff.zip", "zip:/x.zip!/a%00b")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> provider.open(URI.create(uri), true), uri);
            assertTrue(e.getMessage().contains(uri), e.getMessage());
        }
    }

    @Test
    void aWaitQueryTellsAWriterHowLongToWaitForTheLock() {
        assertEquals(new ZipStoreProvider.Location(Path.of("/x.zip"), "", java.time.Duration.ofSeconds(30)),
                ZipStoreProvider.parse(URI.create("zip:/x.zip?wait=30s")));
        assertEquals(new ZipStoreProvider.Location(Path.of("/x.zip"), "in", java.time.Duration.ofMillis(500)),
                ZipStoreProvider.parse(URI.create("zip:/x.zip!/in?wait=500ms")));
        assertEquals(java.time.Duration.ofMinutes(2), ZipStoreProvider.parse(URI.create("zip:/x.zip?wait=PT2M")).lockWait());
        assertEquals(java.time.Duration.ofHours(1), ZipStoreProvider.parse(URI.create("zip:/x.zip?wait=1h")).lockWait());
        assertEquals(dev.zarrj.store.zip.ZipStoreOptions.FOREVER, ZipStoreProvider.parse(URI.create("zip:/x.zip?wait")).lockWait());
        assertEquals(dev.zarrj.store.zip.ZipStoreOptions.FOREVER,
                ZipStoreProvider.parse(URI.create("zip:/x.zip?wait=forever")).lockWait());
        assertEquals(java.time.Duration.ZERO, ZipStoreProvider.parse(URI.create("zip:/x.zip")).lockWait());
    }

    @Test
    void aWriterOpenedWithAWaitQueryWaitsForTheFirst() throws Exception {
        Path zip = Zips.write(tmp.resolve("w.zip"), Item.stored("zarr.json", utf8("{}")));
        Store first = provider.open(URI.create("zip:" + zip.toUri().getRawPath()), false);
        first.set(StoreKey.of("a"), java.nio.ByteBuffer.wrap(utf8("a")));
        StoreException busy = assertThrows(StoreException.class,
                () -> provider.open(URI.create("zip:" + zip.toUri().getRawPath()), false));
        assertTrue(busy.getMessage().contains("is being written by"), busy.getMessage());
        java.util.concurrent.CompletableFuture<Boolean> second = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (Store s = provider.open(URI.create("zip:" + zip.toUri().getRawPath() + "?wait=forever"), false)) {
                return s.exists(StoreKey.of("a"));
            }
        });
        first.close();
        assertTrue(second.get(2, java.util.concurrent.TimeUnit.MINUTES), "the waiting writer read the first one's key");
    }
}
