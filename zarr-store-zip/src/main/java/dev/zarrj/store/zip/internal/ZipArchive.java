package dev.zarrj.store.zip.internal;

import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.StoreKey;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.apache.commons.compress.archivers.zip.UnixStat;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * An open zip archive: its central directory, checked, and positional reads of its entries.
 *
 * <p>The central directory is parsed by commons-compress ({@link ZipFile}: ZIP64, Unicode names,
 * the data offset of every entry, read from its local header), once, when the archive is opened;
 * then that {@code ZipFile} is closed and entries are read here with positional reads on one
 * {@link ArchiveChannel}, so reads share no stream position and run concurrently.
 *
 * <p>Checked on open, refusing the archive with a {@link StoreException}: that it ends with an
 * end-of-central-directory record (a zip left unfinished by a crash has none), that the central
 * directory parses, that every entry name is a safe relative path (a valid {@link StoreKey}, plus
 * a trailing {@code /} for directories: no {@code ..}, no absolute path, no backslash, no NUL, no
 * empty segment), and that no entry is a symbolic link. A name listed twice, and a directory
 * entry where a value is looked for, are {@linkplain #conflict conflicts} of that name only,
 * reported when it is read. Checked per entry, and reported when it is read: a local header at the recorded offset, data inside the
 * file, a supported method (stored or deflated), no encryption, and for stored entries equal
 * sizes. Checked on every read: inflated length against the declared size (never inflating
 * past it), and the CRC-32 whenever the whole value is read.
 */
final class ZipArchive implements AutoCloseable {
    private static final int EOCD_SIGNATURE = 0x06054b50;
    private static final int LOCAL_HEADER_SIGNATURE = 0x04034b50;
    private static final int EOCD_LENGTH = 22;
    private static final int ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
    private static final int ZIP64_EOCD_SIGNATURE = 0x06064b50;
    private static final int ZIP64_LOCATOR_LENGTH = 20;
    private static final int MAX_COMMENT = 0xffff;
    private static final int BLOCK = 64 * 1024;
    /** The largest value read into one buffer. */
    static final long MAX_BUFFER = Integer.MAX_VALUE - 8;
    private static final long MAX_DEFLATE_RATIO = 1032;

    private final String label;
    private final ArchiveChannel channel;
    private final List<ArchiveEntry> entries;
    private final NavigableMap<String, ArchiveEntry> files;
    private final NavigableMap<String, String> conflicts;
    private final NavigableSet<String> directories;

    private ZipArchive(String label, ArchiveChannel channel, List<ArchiveEntry> entries) {
        this.label = label;
        this.channel = channel;
        this.entries = List.copyOf(entries);
        TreeMap<String, ArchiveEntry> f = new TreeMap<>();
        Map<String, Integer> listed = new HashMap<>();
        Set<String> directories = new HashSet<>();
        for (ArchiveEntry e : entries) {
            if (e.isDirectory()) {
                directories.add(e.name().substring(0, e.name().length() - 1));
            } else {
                f.put(e.name(), e);
                listed.merge(e.name(), 1, Integer::sum);
            }
        }
        TreeMap<String, String> c = new TreeMap<>();
        for (Map.Entry<String, Integer> n : listed.entrySet()) {
            if (n.getValue() > 1) {
                c.put(n.getKey(), "is listed " + (n.getValue() == 2 ? "twice" : n.getValue() + " times")
                        + " in the central directory; which of its values is meant is ambiguous");
            }
        }
        for (String d : directories) {
            if (!listed.containsKey(d)) {
                c.put(d, "is a directory entry ('" + d + "/'), not a value");
            }
        }
        this.files = Collections.unmodifiableNavigableMap(f);
        this.conflicts = Collections.unmodifiableNavigableMap(c);
        this.directories = Collections.unmodifiableNavigableSet(new TreeSet<>(directories));
    }

    /**
     * Opens and checks an archive.
     *
     * @param label names the archive in messages, for example {@code zip:/data/set.zip}
     * @throws StoreException when it is missing, unreadable, incomplete or corrupt, or has an
     *                        unsafe or symbolic-link entry
     */
    static ZipArchive open(Path path, String label) {
        ArchiveChannel ch;
        try {
            if (Files.isDirectory(path)) {
                throw new StoreException(label + ": " + path + " is a directory, not a zip archive", null);
            }
            ch = ArchiveChannel.openForReading(path);
        } catch (NoSuchFileException e) {
            throw new StoreException(label + ": no such archive: " + path, e);
        } catch (IOException e) {
            throw new StoreException(label + ": cannot open the archive: " + e, e);
        }
        try {
            return new ZipArchive(label, ch, readCentralDirectory(ch, label));
        } catch (RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    private static List<ArchiveEntry> readCentralDirectory(ArchiveChannel ch, String label) {
        long length;
        long declared;
        try {
            length = ch.size();
            declared = endRecordEntries(ch, length, label);
        } catch (IOException e) {
            throw new StoreException(label + ": cannot read the archive: " + e, e);
        }
        List<ArchiveEntry> out = new ArrayList<>();
        List<long[]> spans = new ArrayList<>();
        // The ZipFile reads through a view that leaves the channel open when it is closed.
        try (ZipFile zip = ZipFile.builder().setSeekableByteChannel(new Unclosable(ch.current()))
                .setUseUnicodeExtraFields(true).get()) {
            for (Enumeration<ZipArchiveEntry> en = zip.getEntries(); en.hasMoreElements(); ) {
                ZipArchiveEntry z = en.nextElement();
                String name = z.getName();
                checkName(name, label);
                if (z.isUnixSymlink()) {
                    throw new StoreException(label + ": entry '" + name + "' is a symbolic link; a zip store "
                            + "holds only files and directories, so the archive is refused", null);
                }
                checkLocalName(ch, z, label);
                ArchiveEntry entry = describe(ch, z, length);
                if (entry.problem() == null) {
                    spans.add(new long[] {z.getLocalHeaderOffset(), entry.dataOffset() + entry.compressedSize(),
                            out.size()});
                }
                out.add(entry);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof StoreException s) {
                throw s;
            }
            throw new StoreException(label + ": the central directory is corrupt or truncated: " + rootMessage(e), e);
        }
        // commons-compress stops at the first header without a signature: count, or keys go missing.
        checkOverlaps(out, spans, label);
        if (out.size() != declared) {
            throw new StoreException(label + ": the central directory is corrupt or truncated: it holds "
                    + out.size() + " readable entries, the end record declares " + declared, null);
        }
        return out;
    }

    /**
     * Refuses an archive in which one entry's local header and data overlap another's: an extra
     * length or offset that was damaged would otherwise read a window of another entry's data,
     * which the CRC-32 does not always tell apart (see {@link #checkLocalName}). A name listed
     * twice that points at one header is left to {@link #conflict}.
     */
    private static void checkOverlaps(List<ArchiveEntry> entries, List<long[]> spans, String label) {
        spans.sort(java.util.Comparator.comparingLong(a -> a[0]));
        for (int i = 1; i < spans.size(); i++) {
            long[] a = spans.get(i - 1);
            long[] b = spans.get(i);
            ArchiveEntry ea = entries.get((int) a[2]);
            ArchiveEntry eb = entries.get((int) b[2]);
            if (a[0] == b[0] && ea.name().equals(eb.name())) {
                continue;
            }
            if (a[1] > b[0]) {
                throw new StoreException(label + ": entry '" + printable(ea.name()) + "' (local header at " + a[0]
                        + ", data to " + a[1] + ") overlaps entry '" + printable(eb.name()) + "' (local header at "
                        + b[0] + "); the archive is corrupt", null);
            }
        }
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof EOFException && (root.getMessage() == null || root.getMessage().isEmpty())) {
            return "a record or field it points to runs past the end of the file";
        }
        return root.getMessage() == null ? "a record cannot be parsed (" + root.getClass().getSimpleName() + ")"
                : root.getMessage();
    }

    /**
     * Finds the end-of-central-directory record (searching back over a comment, as commons-compress
     * does) and returns the number of entries it declares, from the ZIP64 end record when there is one.
     *
     * @throws StoreException when the file has no end record
     */
    private static long endRecordEntries(ArchiveChannel ch, long length, String label) throws IOException {
        if (length == 0) {
            throw new StoreException(label + ": the file is empty, not a zip archive", null);
        }
        int tail = (int) Math.min(length, EOCD_LENGTH + MAX_COMMENT);
        ByteBuffer buf = ByteBuffer.allocate(tail).order(ByteOrder.LITTLE_ENDIAN);
        ch.readFully(buf, length - tail);
        for (int i = tail - EOCD_LENGTH; i >= 0; i--) {
            if (buf.getInt(i) == EOCD_SIGNATURE) {
                long entries = buf.getShort(i + 10) & 0xffff;
                long zip64 = zip64Entries(ch, length - tail + i);
                long declared = zip64 >= 0 ? zip64 : entries;
                if (declared == 0) {
                    checkEmpty(buf, i, length - tail + i, length, label);
                } else if (zip64 < 0) {
                    checkEnds(buf, i, length - tail + i, label);
                }
                return declared;
            }
        }
        throw new StoreException(label + ": not a complete zip archive: no end-of-central-directory record in "
                + "its last " + tail + " bytes. It is truncated, was left unfinished (by a writer that crashed "
                + "or was never closed), or is not a zip file", null);
    }

    /**
     * An end record that declares no entries must be one: ending the file exactly (its comment
     * length says how) and declaring an empty central directory. Else it is likely a stray record
     * (in a comment, or in data) found where the real one was damaged, and an archive read through
     * it would silently hold no keys. (A record declaring entries is checked by counting them; a
     * size of 0xffffffff is in the ZIP64 record.)
     */
    private static void checkEmpty(ByteBuffer buf, int i, long at, long length, String label) {
        long cdSize = buf.getInt(i + 12) & 0xffffffffL;
        int comment = buf.getShort(i + 20) & 0xffff;
        if ((cdSize != 0 && cdSize != 0xffffffffL) || at + EOCD_LENGTH + comment != length) {
            throw new StoreException(label + ": the end-of-central-directory record at offset " + at + " declares "
                    + "no entries, but a central directory of " + cdSize + " bytes and a comment of " + comment
                    + " bytes where " + (length - at - EOCD_LENGTH) + " bytes follow it; the archive is corrupt",
                    null);
        }
    }

    /**
     * The central directory an end record declares must end where the record starts. Else the
     * record found is likely a stray one (in a comment) whose offset happens to land on a real
     * entry of the directory, and the entries before it would silently be missing. (Sizes in
     * the ZIP64 record are left to its locator's check.)
     */
    private static void checkEnds(ByteBuffer buf, int i, long at, String label) {
        long cdSize = buf.getInt(i + 12) & 0xffffffffL;
        long cdOffset = buf.getInt(i + 16) & 0xffffffffL;
        if (cdSize != 0xffffffffL && cdOffset != 0xffffffffL && cdOffset + cdSize != at) {
            throw new StoreException(label + ": the end-of-central-directory record at offset " + at + " declares "
                    + "a central directory of " + cdSize + " bytes at offset " + cdOffset + ", which does not end "
                    + "where the record starts: the central directory is corrupt, or the record is a stray one", null);
        }
    }

    /** The entry count of the ZIP64 end record that the locator before {@code eocd} points to, or -1. */
    private static long zip64Entries(ArchiveChannel ch, long eocd) throws IOException {
        if (eocd < ZIP64_LOCATOR_LENGTH) {
            return -1;
        }
        ByteBuffer loc = ByteBuffer.allocate(ZIP64_LOCATOR_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        ch.readFully(loc, eocd - ZIP64_LOCATOR_LENGTH);
        if (loc.getInt(0) != ZIP64_LOCATOR_SIGNATURE) {
            return -1;
        }
        long at = loc.getLong(8);
        ByteBuffer rec = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
        if (at < 0 || at > eocd - rec.capacity()) {
            return -1; // commons-compress reports the broken locator
        }
        ch.readFully(rec, at);
        return rec.getInt(0) == ZIP64_EOCD_SIGNATURE ? rec.getLong(32) : -1;
    }

    /** Refuses a name that is not a safe relative path. */
    private static void checkName(String name, String label) {
        String path = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        try {
            new StoreKey(path);
        } catch (InvalidKeyException e) {
            throw new StoreException(label + ": entry '" + printable(name) + "' is not a safe relative path ("
                    + printable(e.detail()) + "); the archive is refused, so that no entry can name a place outside it", e);
        }
    }

    /**
     * A name as it can be shown in a one-line message: control characters escaped as in a Java
     * string literal, at most 200 characters. Damaged names hold any bytes.
     */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 200; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\0' -> b.append("\\0");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (Character.isISOControl(c)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.length() >= 200 ? b + "..." : b.toString();
    }

    /**
     * The most that {@code compressed} bytes of deflate data can inflate to: a deflate stream
     * expands at most 1032 to 1 (a 258-byte match in two bits), plus one block's slack.
     */
    static long maxInflated(long compressed) {
        return compressed * MAX_DEFLATE_RATIO + MAX_DEFLATE_RATIO;
    }

    private static ArchiveEntry describe(ArchiveChannel ch, ZipArchiveEntry z, long length) throws IOException {
        String name = z.getName();
        long dataOffset = z.getDataOffset();
        long csize = z.getCompressedSize();
        long size = z.getSize();
        ArchiveEntry.Problem problem = null;
        if (z.getGeneralPurposeBit().usesEncryption()) {
            problem = new ArchiveEntry.Problem(false, "it is encrypted, which a zip store does not support");
        } else if (z.getMethod() != ArchiveEntry.STORED && z.getMethod() != ArchiveEntry.DEFLATED) {
            problem = new ArchiveEntry.Problem(false, "its compression method " + z.getMethod()
                    + " is not supported; only 0 (stored) and 8 (deflated) are");
        } else if (dataOffset < 0 || csize < 0 || size < 0) {
            problem = new ArchiveEntry.Problem(true, "its local header or sizes could not be read; the archive is corrupt");
        } else if (dataOffset > length || csize > length - dataOffset) {
            problem = new ArchiveEntry.Problem(true, "its data [" + dataOffset + ", " + (dataOffset + csize)
                    + ") lies past the end of the " + length + "-byte archive; the archive is truncated or corrupt");
        } else if (z.getMethod() == ArchiveEntry.STORED && csize != size) {
            problem = new ArchiveEntry.Problem(true, "it is stored (not compressed) but its compressed size " + csize
                    + " differs from its size " + size + "; the central directory is corrupt");
        } else if (z.getMethod() == ArchiveEntry.DEFLATED && size > maxInflated(csize)) {
            // Checked before any read allocates a buffer of the declared size.
            problem = new ArchiveEntry.Problem(true, "its header declares " + size + " bytes, more than its "
                    + csize + " deflated bytes can inflate to; the central directory is corrupt");
        } else if (!hasLocalHeader(ch, z.getLocalHeaderOffset())) {
            problem = new ArchiveEntry.Problem(true, "there is no local file header at offset "
                    + z.getLocalHeaderOffset() + " where the central directory puts it; the archive is corrupt");
        }
        int unixMode = z.getPlatform() == ZipArchiveEntry.PLATFORM_UNIX ? z.getUnixMode() & 0xffff : 0;
        if ((unixMode & UnixStat.FILE_TYPE_FLAG) == 0) {
            unixMode = 0;
        }
        return new ArchiveEntry(name, z.getMethod(), dataOffset, csize, size, z.getCrc(), z.getTime(), unixMode,
                z.getExternalAttributes(), problem);
    }

    /**
     * Refuses the archive when an entry's local header names another entry than the central
     * directory does. Names are covered by no CRC: a damaged name in the central directory would
     * otherwise move a value to another key silently (and its own key would read as absent), and
     * an offset that points at another entry's header would serve that entry's value, which the
     * CRC-32 does not always tell apart (values that end with their own CRC-32, as gzip's do, all
     * have one CRC-32 per length).
     */
    private static void checkLocalName(ArchiveChannel ch, ZipArchiveEntry z, String label) throws IOException {
        byte[] central = z.getRawName();
        long offset = z.getLocalHeaderOffset();
        ByteBuffer head = ByteBuffer.allocate(30 + central.length).order(ByteOrder.LITTLE_ENDIAN);
        try {
            ch.readFully(head, offset);
        } catch (EOFException e) {
            return; // describe() reports the missing header
        }
        if (head.getInt(0) != LOCAL_HEADER_SIGNATURE) {
            return;
        }
        int length = head.getShort(26) & 0xffff;
        byte[] local = java.util.Arrays.copyOfRange(head.array(), 30, 30 + Math.min(length, central.length));
        if (length != central.length || !java.util.Arrays.equals(local, central)) {
            throw new StoreException(label + ": entry '" + printable(z.getName()) + "' is named '"
                    + printable(new String(local, java.nio.charset.StandardCharsets.UTF_8))
                    + (length > central.length ? "..." : "") + "' in its local header at offset " + offset
                    + "; the central directory or the local header is corrupt, so which key holds which value "
                    + "cannot be told and the archive is refused", null);
        }
    }

    private static boolean hasLocalHeader(ArchiveChannel ch, long offset) throws IOException {
        ByteBuffer sig = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        try {
            ch.readFully(sig, offset);
        } catch (EOFException e) {
            return false;
        }
        return sig.getInt(0) == LOCAL_HEADER_SIGNATURE;
    }

    /** Every entry, directories included, in central-directory order. */
    List<ArchiveEntry> entries() {
        return entries;
    }

    /**
     * The file (non-directory) entries by name, sorted; a name listed more than once maps to one
     * of its entries, and has a {@link #conflict}.
     */
    NavigableMap<String, ArchiveEntry> files() {
        return files;
    }

    /**
     * Why the value of the entry name {@code name} (without a trailing {@code /}) cannot be told,
     * or null: it is listed more than once in the central directory, or it is the name of a
     * directory entry and of no file entry. Absent means no entry at all; these are not absent.
     */
    String conflict(String name) {
        return conflicts.get(name);
    }

    /** The names of the directory entries, without their trailing {@code /}, sorted. */
    NavigableSet<String> directories() {
        return directories;
    }

    /** Whether any entry's name starts with {@code prefix}. */
    boolean hasEntryUnder(String prefix) {
        for (ArchiveEntry e : entries) {
            if (e.name().startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The number of bytes read from the archive file for values since it was opened. */
    long bytesRead() {
        return channel.bytesRead();
    }

    /**
     * Reads the bytes {@code [start, end)} of an entry's value; the caller has checked that
     * {@code 0 <= start <= end <= size}. The CRC-32 is checked when the range is the whole value.
     *
     * @throws CorruptDataException when the data is corrupt: a CRC-32 mismatch, deflated data that
     *                              does not inflate to the declared size, or a short archive
     * @throws StoreException       when it cannot be read
     */
    ByteBuffer read(ArchiveEntry e, long start, long end) {
        if (e.problem() != null) {
            String m = label + ": entry '" + e.name() + "' cannot be read: " + e.problem().reason();
            throw e.problem().corrupt() ? new CorruptDataException(m) : new StoreException(m, null);
        }
        if (end - start > MAX_BUFFER) {
            throw new StoreException(label + ": entry '" + e.name() + "': " + (end - start)
                    + " bytes do not fit in one buffer; read the value in ranges", null);
        }
        ByteBuffer out;
        try {
            if (e.method() == ArchiveEntry.STORED) {
                out = ByteBuffer.allocate((int) (end - start));
                channel.readFully(out, e.dataOffset() + start);
                out.flip();
            } else {
                out = inflate(e, start, end);
            }
        } catch (EOFException ex) {
            throw new CorruptDataException(label + ": entry '" + e.name() + "': the archive ends inside the entry's "
                    + "data; it was truncated after it was opened", ex);
        } catch (DataFormatException ex) {
            throw new CorruptDataException(label + ": entry '" + e.name() + "': its deflated data is corrupt: "
                    + ex.getMessage(), ex);
        } catch (IOException ex) {
            throw new StoreException(label + ": cannot read entry '" + e.name() + "': " + ex, ex);
        }
        if (start == 0 && end == e.size()) {
            CRC32 crc = new CRC32();
            crc.update(out.duplicate());
            if (crc.getValue() != e.crc()) {
                throw new CorruptDataException(String.format("%s: entry '%s': its CRC-32 is %08x, the central "
                        + "directory says %08x; the data is corrupt", label, e.name(), crc.getValue(), e.crc()));
            }
        }
        return out;
    }

    /**
     * Inflates an entry from its start, keeping {@code [start, end)}. Memory: the result plus two
     * {@value #BLOCK}-byte buffers; output is never produced past {@code end} (nor past the
     * declared size), so a lying header cannot make it inflate more.
     */
    private ByteBuffer inflate(ArchiveEntry e, long start, long end) throws IOException, DataFormatException {
        byte[] out = new byte[(int) (end - start)];
        byte[] skip = start > 0 ? new byte[BLOCK] : null;
        Input input = new Input(e);
        long produced = 0;
        Inflater inflater = new Inflater(true);
        try {
            while (produced < end) {
                if (inflater.finished()) {
                    throw corrupt(e, "it inflates to " + produced + " bytes, fewer than the " + e.size()
                            + " its header declares");
                }
                if (inflater.needsDictionary()) {
                    throw corrupt(e, "its deflated data needs a preset dictionary");
                }
                if (inflater.needsInput()) {
                    input.feed(inflater, produced);
                }
                produced += produced < start
                        ? inflater.inflate(skip, 0, (int) Math.min(skip.length, start - produced))
                        : inflater.inflate(out, (int) (produced - start), (int) (end - produced));
            }
            if (end == e.size()) {
                // The whole tail was read: the deflate stream must end exactly here.
                byte[] one = new byte[1];
                while (!inflater.finished()) {
                    if (inflater.needsDictionary()) {
                        throw corrupt(e, "its deflated data needs a preset dictionary");
                    }
                    if (inflater.needsInput()) {
                        input.feed(inflater, produced);
                    }
                    if (inflater.inflate(one) > 0) {
                        throw corrupt(e, "it inflates to more than the " + e.size() + " bytes its header declares");
                    }
                }
            }
        } finally {
            inflater.end();
        }
        return ByteBuffer.wrap(out);
    }

    /** The compressed data of one entry, fed to an inflater a block at a time. */
    private final class Input {
        private final ArchiveEntry entry;
        private final byte[] block;
        private long at;
        private final long end;

        Input(ArchiveEntry entry) {
            this.entry = entry;
            this.block = new byte[(int) Math.min(BLOCK, Math.max(1, entry.compressedSize()))];
            this.at = entry.dataOffset();
            this.end = entry.dataOffset() + entry.compressedSize();
        }

        void feed(Inflater inflater, long produced) throws IOException {
            if (at >= end) {
                throw corrupt(entry, "its compressed data ends after inflating to " + produced + " bytes");
            }
            int n = (int) Math.min(block.length, end - at);
            channel.readFully(ByteBuffer.wrap(block, 0, n), at);
            at += n;
            inflater.setInput(block, 0, n);
        }
    }

    private CorruptDataException corrupt(ArchiveEntry e, String what) {
        return new CorruptDataException(label + ": entry '" + e.name() + "': " + what + "; the data is corrupt");
    }

    /** The raw (compressed) bytes of an entry, for copying it into another archive unchanged. */
    InputStream raw(ArchiveEntry e) {
        return new ChannelInputStream(channel, e.dataOffset(), e.compressedSize());
    }

    @Override
    public void close() {
        closeQuietly(channel);
    }

    private static void closeQuietly(ArchiveChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // Opened for reading only: nothing is lost.
        }
    }

    /** A view of a channel whose {@code close} leaves the channel open. */
    private static final class Unclosable implements SeekableByteChannel {
        private final FileChannel ch;

        Unclosable(FileChannel ch) {
            this.ch = ch;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return ch.read(dst);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            throw new IOException("read-only");
        }

        @Override
        public long position() throws IOException {
            return ch.position();
        }

        @Override
        public SeekableByteChannel position(long newPosition) throws IOException {
            ch.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return ch.size();
        }

        @Override
        public SeekableByteChannel truncate(long size) throws IOException {
            throw new IOException("read-only");
        }

        @Override
        public boolean isOpen() {
            return ch.isOpen();
        }

        @Override
        public void close() {
            // Left open: the archive keeps reading through it.
        }
    }
}
