package dev.zarrj.store.zip.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.apache.commons.compress.archivers.zip.UnixStat;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/** Builds test archives with commons-compress, and patches their bytes. */
final class Zips {
    private Zips() {}

    /** One entry to write: a directory when {@code data} is null. */
    record Item(String name, byte[] data, int method) {
        static Item stored(String name, byte[] data) {
            return new Item(name, data, ZipArchiveEntry.STORED);
        }

        static Item deflated(String name, byte[] data) {
            return new Item(name, data, ZipArchiveEntry.DEFLATED);
        }

        static Item dir(String name) {
            return new Item(name, null, ZipArchiveEntry.STORED);
        }
    }

    /** Writes an archive of these items, in order, with Unix modes (so names are taken as written). */
    static Path write(Path zip, Item... items) throws IOException {
        try (ZipArchiveOutputStream out = new ZipArchiveOutputStream(zip)) {
            for (Item it : items) {
                ZipArchiveEntry e = new ZipArchiveEntry(it.name());
                if (it.data() == null) {
                    e.setUnixMode(UnixStat.DIR_FLAG | 0755);
                    e.setMethod(ZipArchiveEntry.STORED);
                    out.putArchiveEntry(e);
                } else {
                    e.setUnixMode(UnixStat.FILE_FLAG | 0644);
                    e.setMethod(it.method());
                    e.setSize(it.data().length);
                    out.putArchiveEntry(e);
                    out.write(it.data());
                }
                out.closeArchiveEntry();
            }
        }
        return zip;
    }

    /** Writes one entry with raw (already compressed, or arbitrary) data and the given header fields. */
    static void writeRaw(ZipArchiveOutputStream out, ZipArchiveEntry e, byte[] raw) throws IOException {
        out.addRawArchiveEntry(e, new ByteArrayInputStream(raw));
    }

    static long crc(byte[] data) {
        CRC32 c = new CRC32();
        c.update(data);
        return c.getValue();
    }

    static byte[] deflate(byte[] data) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        d.setInput(data);
        d.finish();
        byte[] buf = new byte[data.length + 1024];
        int n = d.deflate(buf);
        d.end();
        return java.util.Arrays.copyOf(buf, n);
    }

    /** {@code n} bytes of a repeating, compressible but not constant pattern, varying with {@code seed}. */
    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ((i * 31 + seed * 7 + (i >> 9)) % 251);
        }
        return b;
    }

    static byte[] utf8(String s) {
        return s.getBytes(UTF_8);
    }

    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(utf8(s));
    }

    static byte[] array(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    // ---- patching ----

    /** The offsets in the file of the central-directory headers of every entry with this name. */
    static List<Integer> centralHeaders(byte[] zip, String name) {
        byte[] n = utf8(name);
        List<Integer> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 46 <= zip.length; i++) {
            if (b.getInt(i) == 0x02014b50 && b.getShort(i + 28) == n.length
                    && java.util.Arrays.equals(zip, i + 46, i + 46 + n.length, n, 0, n.length)) {
                out.add(i);
            }
        }
        return out;
    }

    /** The central-directory header of the one entry with this name. */
    static int centralHeader(byte[] zip, String name) {
        List<Integer> at = centralHeaders(zip, name);
        if (at.size() != 1) {
            throw new AssertionError(at.size() + " central headers named " + name);
        }
        return at.get(0);
    }

    /** Field offsets within a central-directory header. */
    static final int CRC = 16;
    static final int COMPRESSED_SIZE = 20;
    static final int SIZE = 24;
    static final int LOCAL_HEADER_OFFSET = 42;

    /** Rewrites a 4-byte little-endian field of the named entry's central-directory header. */
    static void patchCentral(Path zip, String name, int field, long value) throws IOException {
        byte[] b = Files.readAllBytes(zip);
        int at = centralHeader(b, name);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at + field, (int) value);
        Files.write(zip, b);
    }

    /** Reads a 4-byte little-endian field of the named entry's central-directory header. */
    static long readCentral(Path zip, String name, int field) throws IOException {
        byte[] b = Files.readAllBytes(zip);
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(centralHeader(b, name) + field) & 0xffffffffL;
    }

    /** Where the named entry's data starts: after its local header, name and extra field. */
    static long dataOffset(Path zip, String name) throws IOException {
        byte[] b = Files.readAllBytes(zip);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int lho = bb.getInt(centralHeader(b, name) + LOCAL_HEADER_OFFSET);
        return lho + 30L + (bb.getShort(lho + 26) & 0xffff) + (bb.getShort(lho + 28) & 0xffff);
    }

    /** Overwrites bytes at an offset. */
    static void patch(Path zip, long offset, byte... bytes) throws IOException {
        byte[] b = Files.readAllBytes(zip);
        System.arraycopy(bytes, 0, b, (int) offset, bytes.length);
        Files.write(zip, b);
    }

    /** Keeps only the first {@code length} bytes. */
    static void truncate(Path zip, long length) throws IOException {
        byte[] b = Files.readAllBytes(zip);
        Files.write(zip, java.util.Arrays.copyOf(b, (int) length));
    }
}
