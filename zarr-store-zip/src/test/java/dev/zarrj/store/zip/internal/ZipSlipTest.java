package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.compress.archivers.zip.UnixStat;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Entry names that could name a place outside the archive (zip-slip) and symbolic links make the
 * whole archive refused on open, in every mode, with a message naming the archive and the entry:
 * such an archive is never read, so no part of it can be taken for a key. (A repeated name fails
 * only its key: {@link ZipNameConflictTest}.)
 */
class ZipSlipTest {
    @TempDir
    Path tmp;

    void refused(Path zip, String entry, String why) {
        for (ZipStore.Mode mode : List.of(ZipStore.Mode.READ_ONLY, ZipStore.Mode.UPDATE)) {
            StoreException e = assertThrows(StoreException.class,
                    () -> ZipStore.open(zip, "", mode, ZipStoreOptions.defaults()), entry);
            assertTrue(e.getMessage().contains(zip.toString()) && e.getMessage().contains("'" + entry + "'")
                    && e.getMessage().contains(why), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"../evil", "a/../../evil", "a/..", "/etc/passwd", "/", "a//b", "./a", "a/./b", "a//",
            "../", "a\\b", "..\\evil", "a/b\\..\\..\\c"})
    void unsafeNamesRefuseTheArchive(String bad) throws IOException {
        // commons-compress turns '\' into '/' in the names it writes; '~' stands in, then is patched.
        String written = bad.replace('\\', '~');
        Path zip = Zips.write(tmp.resolve("slip.zip"), Item.stored("zarr.json", utf8("{}")),
                written.endsWith("/") ? Item.dir(written) : Item.stored(written, utf8("x")));
        byte[] b = java.nio.file.Files.readAllBytes(zip);
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '~') {
                b[i] = '\\';
            }
        }
        java.nio.file.Files.write(zip, b);
        refused(zip, bad, "is not a safe relative path");
    }

    @Test
    void aNulInANameRefusesTheArchive() throws IOException {
        Path zip = Zips.write(tmp.resolve("nul.zip"), Item.stored("a\0b", utf8("x")));
        refused(zip, "a\\0b", "must not contain NUL");
    }

    @Test
    void aWindowsBackslashNameFromAFatArchiveIsReadAsSlashesAndStillChecked() throws IOException {
        // commons-compress reads '\' as '/' in names written on FAT (DOS/Windows) without any '/'.
        Path zip = tmp.resolve("fat.zip");
        try (ZipArchiveOutputStream out = new ZipArchiveOutputStream(zip)) {
            for (String name : List.of("c\\0\\0", "zarr.json")) {
                ZipArchiveEntry e = new ZipArchiveEntry(name);
                e.setMethod(ZipArchiveEntry.STORED);
                out.putArchiveEntry(e);
                out.write(utf8(name));
                out.closeArchiveEntry();
            }
        }
        try (Store s = ZipStore.open(zip, "", ZipStore.Mode.READ_ONLY, ZipStoreOptions.defaults())) {
            assertEquals(List.of(StoreKey.of("c/0/0"), StoreKey.of("zarr.json")), s.list());
        }
        try (ZipArchiveOutputStream out = new ZipArchiveOutputStream(zip)) {
            ZipArchiveEntry e = new ZipArchiveEntry("..\\..\\evil");
            e.setMethod(ZipArchiveEntry.STORED);
            out.putArchiveEntry(e);
            out.closeArchiveEntry();
        }
        refused(zip, "../../evil", "'..' segment");
    }

    @Test
    void aSymbolicLinkRefusesTheArchive() throws IOException {
        Path zip = tmp.resolve("link.zip");
        try (ZipArchiveOutputStream out = new ZipArchiveOutputStream(zip)) {
            ZipArchiveEntry e = new ZipArchiveEntry("c/0");
            e.setUnixMode(UnixStat.LINK_FLAG | 0777);
            e.setMethod(ZipArchiveEntry.STORED);
            out.putArchiveEntry(e);
            out.write(utf8("/etc/passwd"));
            out.closeArchiveEntry();
        }
        refused(zip, "c/0", "symbolic link");
    }
}
