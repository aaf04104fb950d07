package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.array;
import static dev.zarrj.store.zip.internal.Zips.pattern;
import static dev.zarrj.store.zip.internal.Zips.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.ZipStores;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Archives that are truncated, unfinished, corrupt or lie about an entry: clear errors, never wrong data. */
class ZipArchiveCorruptionTest {
    static final byte[] STORED = pattern(10_000, 3);
    static final byte[] DEFLATED = pattern(50_000, 4);

    @TempDir
    Path tmp;

    Path zip;

    @BeforeEach
    void build() throws IOException {
        zip = Zips.write(tmp.resolve("set.zip"),
                Item.stored("zarr.json", utf8("{}")),
                Item.stored("c/0", STORED),
                Item.deflated("c/1", DEFLATED));
    }

    static StoreKey k(String key) {
        return StoreKey.of(key);
    }

    Store open() {
        return ZipStore.open(zip, "", ZipStore.Mode.READ_ONLY, ZipStoreOptions.defaults());
    }

    /** Opening fails with a StoreException whose message names the archive and says {@code what}. */
    StoreException openFails(String what) {
        StoreException e = assertThrows(StoreException.class, this::open);
        assertTrue(e.getMessage().contains(zip.toAbsolutePath().toString()), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
        return e;
    }

    /** Reading the key fails with an exception of {@code type} naming the archive and entry and saying {@code what}. */
    static <T extends ZarrException> void readFails(Store s, String key, Class<T> type, String what) {
        ZarrException e = assertThrows(ZarrException.class, () -> s.get(k(key)));
        assertInstanceOf(type, e, e.getMessage());
        assertTrue(e.getMessage().contains(s.describe()) && e.getMessage().contains("entry '" + key + "'")
                && e.getMessage().contains(what), e.getMessage());
    }

    @Test
    void theValidArchiveReads() {
        try (Store s = open()) {
            assertArrayEquals(STORED, array(s.get(k("c/0")).orElseThrow()));
            assertArrayEquals(DEFLATED, array(s.get(k("c/1")).orElseThrow()));
        }
    }

    @Test
    void aMissingFileAnEmptyFileADirectoryAndTextAreNotArchives() throws IOException {
        Files.delete(zip);
        openFails("no such archive");
        Files.write(zip, new byte[0]);
        openFails("empty");
        Files.writeString(zip, "just some text, no zip at all\n".repeat(10));
        openFails("no end-of-central-directory record");
        Files.delete(zip);
        Files.createDirectory(zip);
        openFails("is a directory");
    }

    @Test
    void aTruncatedArchiveIsDetectedWhereverItWasCut() throws IOException {
        byte[] whole = Files.readAllBytes(zip);
        for (int length : List.of(whole.length - 1, whole.length - 22, whole.length - 100, whole.length / 2, 30, 4)) {
            Files.write(zip, java.util.Arrays.copyOf(whole, length));
            openFails("no end-of-central-directory record");
        }
    }

    @Test
    void aZipWhoseWriterNeverFinishedIsDetected() throws IOException {
        // As a crash leaves it: local headers and data, no central directory, no end record.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ZipArchiveOutputStream out = new ZipArchiveOutputStream(bytes);
        for (String name : List.of("zarr.json", "c/0", "c/1")) {
            ZipArchiveEntry e = new ZipArchiveEntry(name);
            out.putArchiveEntry(e);
            out.write(pattern(5000, name.length()));
            out.closeArchiveEntry();
        }
        out.flush();
        Files.write(zip, bytes.toByteArray());
        StoreException e = openFails("no end-of-central-directory record");
        assertTrue(e.getMessage().contains("unfinished"), e.getMessage());
    }

    @Test
    void aZipStoreThatWasNeverClosedLeavesNoArchive() throws IOException {
        Path target = tmp.resolve("new.zip");
        Store s = ZipStores.create(target);
        s.set(k("zarr.json"), ByteBuffer.wrap(utf8("{}")));
        s.set(k("c/0"), ByteBuffer.wrap(STORED));
        // "Crash": the store is never closed. No archive, complete or not, is at the target ...
        assertFalse(Files.exists(target));
        StoreException e = assertThrows(StoreException.class, () -> ZipStores.open(target, ""));
        assertTrue(e.getMessage().contains("no such archive") && e.getMessage().contains(target.toString()), e.getMessage());
        // ... and the values wait in a spill file beside it.
        try (Stream<Path> files = Files.list(tmp)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().matches("\\.new\\.zip\\.zarrj-[0-9a-f]+\\.spill")));
        }
        s.close();
        assertTrue(Files.exists(target));
    }

    @Test
    void aCorruptCentralDirectoryIsReported() throws IOException {
        int at = Zips.centralHeader(Files.readAllBytes(zip), "c/0");
        Zips.patch(zip, at, (byte) 'X', (byte) 'X', (byte) 'X', (byte) 'X');
        openFails("central directory is corrupt");
        // An end record pointing outside the file.
        build();
        byte[] b = Files.readAllBytes(zip);
        Zips.patch(zip, b.length - 22 + 16, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0x0f);
        openFails("central directory is corrupt");
    }

    @Test
    void aWrongCrcIsCaughtWhenTheWholeValueIsRead() throws IOException {
        for (String key : List.of("c/0", "c/1")) {
            long crc = Zips.readCentral(zip, key, Zips.CRC);
            Zips.patchCentral(zip, key, Zips.CRC, crc ^ 1);
            try (Store s = open()) {
                readFails(s, key, CorruptDataException.class, "CRC-32");
                assertThrows(CorruptDataException.class, () -> s.get(k(key), ByteRange.suffix(s.size(k(key)).getAsLong())));
                // A part of the value cannot be checked, and is returned as read.
                assertEquals(5, s.get(k(key), ByteRange.of(1, 5)).orElseThrow().remaining());
                assertArrayEquals(utf8("{}"), array(s.get(k("zarr.json")).orElseThrow()), "other entries still read");
            }
            Zips.patchCentral(zip, key, Zips.CRC, crc);
        }
    }

    @Test
    void aDeflatedEntryThatInflatesToAnotherSizeIsCorrupt() throws IOException {
        Zips.patchCentral(zip, "c/1", Zips.SIZE, DEFLATED.length + 1);
        try (Store s = open()) {
            readFails(s, "c/1", CorruptDataException.class, "fewer than the " + (DEFLATED.length + 1));
            assertThrows(CorruptDataException.class, () -> s.get(k("c/1"), ByteRange.suffix(1)));
        }
        Zips.patchCentral(zip, "c/1", Zips.SIZE, DEFLATED.length - 1);
        try (Store s = open()) {
            readFails(s, "c/1", CorruptDataException.class, "more than the " + (DEFLATED.length - 1));
            assertArrayEquals(java.util.Arrays.copyOf(DEFLATED, 100), array(s.get(k("c/1"), ByteRange.of(0, 100)).orElseThrow()),
                    "a range before the end does not need the end of the stream");
        }
    }

    @Test
    void aDeflatedEntryWhoseCompressedSizeIsShortIsCorrupt() throws IOException {
        long csize = Zips.readCentral(zip, "c/1", Zips.COMPRESSED_SIZE);
        Zips.patchCentral(zip, "c/1", Zips.COMPRESSED_SIZE, csize / 2);
        try (Store s = open()) {
            readFails(s, "c/1", CorruptDataException.class, "compressed data ends");
        }
    }

    @Test
    void garbageDeflatedDataIsCorrupt() throws IOException {
        byte[] ff = new byte[64];
        java.util.Arrays.fill(ff, (byte) 0xff);
        Zips.patch(zip, Zips.dataOffset(zip, "c/1"), ff);
        try (Store s = open()) {
            readFails(s, "c/1", CorruptDataException.class, "deflated data is corrupt");
        }
    }

    @Test
    void aStoredEntryWithUnequalSizesIsCorruptButOthersRead() throws IOException {
        Zips.patchCentral(zip, "c/0", Zips.COMPRESSED_SIZE, STORED.length - 1);
        try (Store s = open()) {
            readFails(s, "c/0", CorruptDataException.class, "differs from its size");
            assertArrayEquals(DEFLATED, array(s.get(k("c/1")).orElseThrow()));
        }
    }

    @Test
    void anEntryWhoseLocalHeaderIsMissingIsCorrupt() throws IOException {
        long lho = Zips.readCentral(zip, "c/0", Zips.LOCAL_HEADER_OFFSET);
        Zips.patch(zip, lho, (byte) 0, (byte) 0, (byte) 0, (byte) 0);
        try (Store s = open()) {
            readFails(s, "c/0", CorruptDataException.class, "no local file header at offset " + lho);
        }
    }

    @Test
    void anEntryWhoseDataLiesPastTheEndIsRefusedNamingIt() throws IOException {
        Zips.patchCentral(zip, "c/0", Zips.COMPRESSED_SIZE, 1L << 30);
        Zips.patchCentral(zip, "c/0", Zips.SIZE, 1L << 30);
        openFails("data for c/0 overlaps with central directory");
    }

    @Test
    void aCentralDirectoryWithFewerEntriesThanTheEndRecordDeclaresIsCorrupt() throws IOException {
        // The record of the last entry is cut off: its bytes become an unreadable gap.
        byte[] b = Files.readAllBytes(zip);
        int at = Zips.centralHeader(b, "c/1");
        Zips.patch(zip, at, (byte) 0, (byte) 0, (byte) 0, (byte) 0);
        openFails("it holds 2 readable entries, the end record declares 3");
    }

    @Test
    void encryptedEntriesAndOtherMethodsAreReportedAsUnsupported() throws IOException {
        try (ZipArchiveOutputStream out = new ZipArchiveOutputStream(zip)) {
            ZipArchiveEntry bzip2 = new ZipArchiveEntry("bzip2");
            bzip2.setMethod(12);
            bzip2.setSize(3);
            bzip2.setCompressedSize(3);
            bzip2.setCrc(Zips.crc(utf8("abc")));
            Zips.writeRaw(out, bzip2, utf8("abc"));
            ZipArchiveEntry secret = new ZipArchiveEntry("secret");
            secret.setMethod(ZipArchiveEntry.STORED);
            secret.setSize(3);
            secret.setCompressedSize(3);
            secret.setCrc(Zips.crc(utf8("abc")));
            Zips.writeRaw(out, secret, utf8("abc"));
        }
        // commons-compress will not write an encrypted entry: set the flag bit (0) in both headers.
        byte[] b = Files.readAllBytes(zip);
        int central = Zips.centralHeader(b, "secret");
        int local = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(central + Zips.LOCAL_HEADER_OFFSET);
        b[central + 8] |= 1;
        b[local + 6] |= 1;
        Files.write(zip, b);
        try (Store s = open()) {
            assertEquals(List.of(k("bzip2"), k("secret")), s.list());
            readFails(s, "bzip2", StoreException.class, "compression method 12 is not supported");
            readFails(s, "secret", StoreException.class, "encrypted");
        }
    }
}
