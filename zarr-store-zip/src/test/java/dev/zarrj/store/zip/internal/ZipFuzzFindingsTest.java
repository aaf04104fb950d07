package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.array;
import static dev.zarrj.store.zip.internal.Zips.pattern;
import static dev.zarrj.store.zip.internal.Zips.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStores;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage the zip fuzzer ({@code ZipFuzz}) found read as a silent wrong answer: names that no CRC
 * covers, an entry pointed at another's local header, and a stray end record in a comment.
 */
class ZipFuzzFindingsTest {
    @TempDir
    Path tmp;

    private static final int EOCD = 0x06054b50;

    /** A value that ends with its own CRC-32, as a gzip stream of stored blocks nearly does. */
    private static byte[] selfChecked(int seed) {
        byte[] d = pattern(200, seed);
        long crc = Zips.crc(d);
        byte[] out = Arrays.copyOf(d, d.length + 4);
        ByteBuffer.wrap(out, d.length, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc);
        return out;
    }

    private static ByteBuffer le(byte[] z) {
        return ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static StoreException refused(Path zip) {
        return assertThrows(StoreException.class, () -> {
            try (Store s = ZipStores.open(zip, "")) {
                s.list();
            }
        });
    }

    @Test
    void aNameDamagedInTheCentralDirectoryIsNotServedAsAnotherKey() throws IOException {
        Path zip = Zips.write(tmp.resolve("n.zip"), Item.stored("a/c/0/1", pattern(100, 1)),
                Item.stored("a/c/0/2", pattern(100, 2)));
        byte[] z = Files.readAllBytes(zip);
        int cd = Zips.centralHeader(z, "a/c/0/1");
        z[cd + 46 + 6] = '3'; // a/c/0/3: the value of chunk 0/1 would move to chunk 0/3
        Files.write(zip, z);
        StoreException e = refused(zip);
        assertTrue(e.getMessage().contains("'a/c/0/3' is named 'a/c/0/1' in its local header"), e.getMessage());
        assertTrue(e.getMessage().contains(zip.getFileName().toString()), e.getMessage());
    }

    @Test
    void aNameDamagedInTheLocalHeaderIsRefusedToo() throws IOException {
        Path zip = Zips.write(tmp.resolve("l.zip"), Item.deflated("zarr.json", utf8("{}")));
        byte[] z = Files.readAllBytes(zip);
        z[30 + 2] = '/'; // "za/r.json"
        Files.write(zip, z);
        StoreException e = refused(zip);
        assertTrue(e.getMessage().contains("'zarr.json' is named 'za/r.json'"), e.getMessage());
    }

    @Test
    void anOffsetPointingAtAnotherEntryIsCaughtWhereTheCrcCannot() throws IOException {
        byte[] first = selfChecked(1);
        byte[] second = selfChecked(2);
        assertEquals(Zips.crc(first), Zips.crc(second), "values that end with their CRC-32 share one CRC-32");
        Path zip = Zips.write(tmp.resolve("o.zip"), Item.stored("c/0", first), Item.stored("c/1", second));
        byte[] z = Files.readAllBytes(zip);
        le(z).putInt(Zips.centralHeader(z, "c/1") + 42, 0); // c/1's local header offset: c/0's
        Files.write(zip, z);
        StoreException e = refused(zip);
        assertTrue(e.getMessage().contains("'c/1' is named 'c/0' in its local header at offset 0"), e.getMessage());
    }

    @Test
    void aStrayEndRecordInTheCommentDoesNotEmptyTheArchive() throws IOException {
        Path zip = Zips.write(tmp.resolve("e.zip"), Item.stored("zarr.json", utf8("{}")));
        byte[] z = Files.readAllBytes(zip);
        int eocd = z.length - 22;
        assertEquals(EOCD, le(z).getInt(eocd));
        byte[] fake = Arrays.copyOfRange(z, eocd, eocd + 22);
        le(fake).putShort(8, (short) 0).putShort(10, (short) 0).putInt(16, 7); // no entries, elsewhere
        byte[] comment = new byte[30];
        System.arraycopy(fake, 0, comment, 3, 22);
        byte[] damaged = Arrays.copyOf(z, z.length + comment.length);
        System.arraycopy(comment, 0, damaged, z.length, comment.length);
        le(damaged).putShort(eocd + 20, (short) comment.length);
        Files.write(zip, damaged);
        StoreException e = refused(zip);
        assertTrue(e.getMessage().contains("declares no entries"), e.getMessage());
        assertTrue(e.getMessage().contains("a central directory of " + le(z).getInt(eocd + 12) + " bytes"),
                e.getMessage());
    }

    @Test
    void emptyArchivesAndCommentsStillOpen() throws IOException {
        Path empty = Zips.write(tmp.resolve("empty.zip"));
        try (Store s = ZipStores.open(empty, "")) {
            assertEquals(List.of(), s.list());
        }
        Path zip = Zips.write(tmp.resolve("c.zip"), Item.deflated("zarr.json", utf8("{}")));
        byte[] z = Files.readAllBytes(zip);
        byte[] commented = Arrays.copyOf(z, z.length + 5);
        le(commented).putShort(z.length - 2, (short) 5);
        Files.write(zip, commented);
        try (Store s = ZipStores.open(zip, "")) {
            assertArrayEquals(utf8("{}"), array(s.get(StoreKey.of("zarr.json")).orElseThrow()));
        }
    }

    @Test
    void aCentralDirectoryThatRunsPastTheEndIsNamedWithoutAJavaClassName() throws IOException {
        Path zip = Zips.write(tmp.resolve("x.zip"), Item.stored("zarr.json", utf8("{}")));
        byte[] z = Files.readAllBytes(zip);
        le(z).putInt(Zips.centralHeader(z, "zarr.json") + 30, 0xffffffff); // extra and comment lengths
        Files.write(zip, z);
        StoreException e = refused(zip);
        assertTrue(e.getMessage().contains("the central directory is corrupt or truncated: a record or field it "
                + "points to runs past the end of the file"), e.getMessage());
        assertTrue(!e.getMessage().contains("Exception"), e.getMessage());
    }

    @Test
    void aNameWithControlCharactersIsShownOnOneLine() throws IOException {
        Path zip = Zips.write(tmp.resolve("c.zip"), Item.stored("a\nb\0c\u001b", utf8("{}")));
        StoreException e = refused(zip);
        assertTrue(e.getMessage().contains("entry 'a\\nb\\0c\\u001b' is not a safe relative path"), e.getMessage());
        assertTrue(e.getMessage().chars().noneMatch(Character::isISOControl), e.getMessage());
    }

    @Test
    void aLocalExtraLengthThatShiftsTheDataOntoAnotherEntryIsCaught() throws IOException {
        byte[] first = selfChecked(3);
        byte[] second = selfChecked(4);
        Path zip = Zips.write(tmp.resolve("x.zip"), Item.stored("c/0", first), Item.stored("c/1", second));
        byte[] z = Files.readAllBytes(zip);
        ByteBuffer b = le(z);
        int next = b.getInt(Zips.centralHeader(z, "c/1") + 42);
        int nextData = next + 30 + (b.getShort(next + 26) & 0xffff) + (b.getShort(next + 28) & 0xffff);
        int data = 30 + (b.getShort(26) & 0xffff) + (b.getShort(28) & 0xffff);
        b.putShort(28, (short) ((b.getShort(28) & 0xffff) + nextData - data)); // c/0's data: c/1's
        Files.write(zip, z);
        StoreException e = refused(zip);
        assertTrue(e.getMessage().contains("entry 'c/0' (local header at 0, data to " + (nextData + first.length)
                + ") overlaps entry 'c/1' (local header at " + next + ")"), e.getMessage());
    }

    @Test
    void aStrayEndRecordPointingIntoTheCentralDirectoryDoesNotHideEntries() throws IOException {
        Path zip = Zips.write(tmp.resolve("s.zip"), Item.stored("a", utf8("1")), Item.stored("b", utf8("2")));
        byte[] z = Files.readAllBytes(zip);
        int eocd = z.length - 22;
        byte[] fake = Arrays.copyOfRange(z, eocd, eocd + 22);
        le(fake).putShort(8, (short) 1).putShort(10, (short) 1).putInt(16, Zips.centralHeader(z, "b"));
        byte[] damaged = Arrays.copyOf(z, z.length + 25);
        System.arraycopy(fake, 0, damaged, z.length + 3, 22);
        le(damaged).putShort(eocd + 20, (short) 25);
        Files.write(zip, damaged);
        StoreException e = refused(zip);
        assertTrue(e.getMessage().contains("record at offset " + (z.length + 3) + " declares a central directory of "),
                e.getMessage());
    }

    /**
     * zarr-fuzz ZipFuzzTest.archive: a deflated entry whose central directory declares 2 GB was
     * read into a buffer of the declared size, an OutOfMemoryError instead of an error naming it.
     */
    @Test
    void aDeflatedEntryDeclaringMoreThanItsBytesCanHoldIsCorruptNotAnAllocation() throws IOException {
        Path zip = Zips.write(tmp.resolve("big.zip"), Item.deflated("zarr.json", utf8("{}")),
                Item.deflated("c/0", pattern(100, 3)));
        byte[] z = Files.readAllBytes(zip);
        le(z).putInt(Zips.centralHeader(z, "c/0") + 24, 0x7f000000);
        Files.write(zip, z);
        try (Store s = ZipStores.open(zip, "")) {
            assertEquals(List.of(StoreKey.of("c/0"), StoreKey.of("zarr.json")), s.list());
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> s.get(StoreKey.of("c/0")));
            assertTrue(e.getMessage().contains("entry 'c/0'") && e.getMessage().contains("declares 2130706432 bytes, more than its"),
                    e.getMessage());
            assertEquals(utf8("{}").length, s.get(StoreKey.of("zarr.json")).orElseThrow().remaining());
        }
    }
}
