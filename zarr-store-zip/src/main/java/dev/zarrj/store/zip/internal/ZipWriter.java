package dev.zarrj.store.zip.internal;

import dev.zarrj.store.zip.ZipStoreOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.commons.compress.archivers.zip.UnixStat;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/**
 * Writes a new archive into a temporary file beside its target and, on {@link #commit}, moves it
 * into place; closed without a commit, it deletes the temporary file. Names are written as UTF-8
 * (with the language-encoding flag), new entries with Unix mode {@code 0644}, and ZIP64 records
 * only when needed (more than 65 535 entries, or offsets or sizes past 4 GiB).
 *
 * <p>Not thread-safe: one thread writes an archive.
 */
final class ZipWriter implements AutoCloseable {
    private static final int BLOCK = 64 * 1024;

    private final Path target;
    private final Path temp;
    private final FileChannel file;
    private final ZipArchiveOutputStream out;
    private final ZipStoreOptions options;
    private final long time = System.currentTimeMillis();
    private byte[] block;
    private boolean committed;

    private ZipWriter(Path target, Path temp, FileChannel file, ZipStoreOptions options) {
        this.target = target;
        this.temp = temp;
        this.file = file;
        this.options = options;
        this.out = new ZipArchiveOutputStream(file);
        out.setUseZip64(Zip64Mode.AsNeeded);
        out.setEncoding("UTF-8");
        out.setUseLanguageEncodingFlag(true);
        out.setMethod(options.compression() == ZipStoreOptions.Compression.STORED
                ? ZipArchiveOutputStream.STORED : ZipArchiveOutputStream.DEFLATED);
        out.setLevel(options.level());
    }

    /** A name beside {@code target} for one of the store's temporary files. */
    static Path sibling(Path target, String suffix) {
        return target.resolveSibling("." + target.getFileName() + ".zarrj-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE) + suffix);
    }

    /** Starts an archive that {@link #commit} will move to {@code target}. */
    static ZipWriter begin(Path target, ZipStoreOptions options) throws IOException {
        Path temp = sibling(target, ".tmp");
        FileChannel file = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            return new ZipWriter(target, temp, file, options);
        } catch (RuntimeException e) {
            file.close();
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    private ZipArchiveEntry newEntry(String name, long size) {
        ZipArchiveEntry e = new ZipArchiveEntry(name);
        e.setSize(size);
        e.setTime(time);
        e.setUnixMode(UnixStat.FILE_FLAG | UnixStat.DEFAULT_FILE_PERM);
        return e;
    }

    /** Adds a value (position to limit) as a new entry, compressed as the options say. */
    void add(String name, ByteBuffer value) throws IOException {
        ByteBuffer v = value.duplicate();
        out.putArchiveEntry(newEntry(name, v.remaining()));
        if (v.hasArray()) {
            out.write(v.array(), v.arrayOffset() + v.position(), v.remaining());
        } else {
            byte[] b = block();
            while (v.hasRemaining()) {
                int n = Math.min(b.length, v.remaining());
                v.get(b, 0, n);
                out.write(b, 0, n);
            }
        }
        out.closeArchiveEntry();
    }

    /** Adds a value of {@code size} bytes read from a stream as a new entry. */
    void add(String name, long size, InputStream value) throws IOException {
        out.putArchiveEntry(newEntry(name, size));
        byte[] b = block();
        long left = size;
        while (left > 0) {
            int n = value.read(b, 0, (int) Math.min(b.length, left));
            if (n < 0) {
                throw new IOException("the value of '" + name + "' ended " + left + " bytes early");
            }
            out.write(b, 0, n);
            left -= n;
        }
        out.closeArchiveEntry();
    }

    /** Copies an entry of another archive unchanged (still compressed), from its raw data. */
    void addRaw(ArchiveEntry source, InputStream raw) throws IOException {
        ZipArchiveEntry e = new ZipArchiveEntry(source.name());
        e.setMethod(source.method());
        e.setCrc(source.crc());
        e.setSize(source.size());
        e.setCompressedSize(source.compressedSize());
        e.setTime(source.time());
        if (source.unixMode() != 0) {
            e.setUnixMode(source.unixMode());
        } else {
            e.setExternalAttributes(source.externalAttributes());
        }
        out.addRawArchiveEntry(e, raw);
    }

    private byte[] block() {
        if (block == null) {
            block = new byte[BLOCK];
        }
        return block;
    }

    /**
     * Finishes the archive (central directory and end record), forces it to the device and moves it
     * to the target: atomically replacing an existing one when {@code replace} is true, refusing
     * (with {@link java.nio.file.FileAlreadyExistsException}) when the target exists otherwise.
     */
    void commit(boolean replace) throws IOException {
        out.finish();
        file.force(true);
        out.close();
        if (replace) {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.move(temp, target);
        }
        committed = true;
    }

    /** Abandons the archive unless it was committed: the temporary file is deleted. */
    @Override
    public void close() throws IOException {
        if (committed) {
            return;
        }
        try {
            out.close();
        } catch (IOException ignored) {
            // Abandoned: its content does not matter.
        } finally {
            file.close();
            Files.deleteIfExists(temp);
        }
    }
}
