package dev.zarrj.store.zip.internal;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * A file for positional reads and writes shared by many threads, which survives the close that an
 * interrupt causes.
 *
 * <p>A {@link FileChannel} is closed for every thread when one thread is interrupted during an
 * operation on it. The interrupted thread gets its {@link ClosedByInterruptException}; the next
 * operation of any thread reopens the file, after checking that it is still the same file (same
 * file key, where the file system has one). Only {@link #close()} closes it for good.
 */
final class ArchiveChannel implements AutoCloseable {
    private static final int ATTEMPTS = 3;

    private final Path path;
    private final Set<OpenOption> reopenOptions;
    private final Object fileKey;
    private final LongAdder bytesRead = new LongAdder();
    private volatile FileChannel channel;
    private volatile boolean closed;

    private ArchiveChannel(Path path, FileChannel channel, Set<OpenOption> reopenOptions, Object fileKey) {
        this.path = path;
        this.channel = channel;
        this.reopenOptions = reopenOptions;
        this.fileKey = fileKey;
    }

    /** Opens an existing file for reading. */
    static ArchiveChannel openForReading(Path path) throws IOException {
        return open(path, Set.of(StandardOpenOption.READ), Set.of(StandardOpenOption.READ));
    }

    /** Creates a new file for reading and writing; it must not exist. */
    static ArchiveChannel create(Path path) throws IOException {
        return open(path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
                Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
    }

    private static ArchiveChannel open(Path path, Set<OpenOption> options, Set<OpenOption> reopenOptions)
            throws IOException {
        FileChannel ch = FileChannel.open(path, options);
        try {
            return new ArchiveChannel(path, ch, reopenOptions, fileKey(path));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static Object fileKey(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    }

    @FunctionalInterface
    private interface Call<T> {
        T apply(FileChannel ch) throws IOException;
    }

    private <T> T call(Call<T> call) throws IOException {
        for (int attempt = 1; ; attempt++) {
            FileChannel ch = channel;
            try {
                return call.apply(ch);
            } catch (ClosedByInterruptException e) {
                throw e;
            } catch (ClosedChannelException e) {
                if (closed || attempt >= ATTEMPTS) {
                    throw e;
                }
                reopen(ch);
            }
        }
    }

    private synchronized void reopen(FileChannel stale) throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        if (channel != stale) {
            return; // another thread reopened it
        }
        FileChannel fresh = FileChannel.open(path, reopenOptions);
        if (fileKey != null && !Objects.equals(fileKey, fileKey(path))) {
            fresh.close();
            throw new IOException(path + " was replaced by another file while it was open");
        }
        channel = fresh;
    }

    /** The file's path. */
    Path path() {
        return path;
    }

    /** The file's current size. */
    long size() throws IOException {
        return call(FileChannel::size);
    }

    /**
     * Reads {@code dst.remaining()} bytes starting at {@code position}.
     *
     * @throws EOFException when the file ends first
     */
    void readFully(ByteBuffer dst, long position) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            long p = at;
            int n = call(ch -> ch.read(dst, p));
            if (n < 0) {
                throw new EOFException("the file ends at byte " + at + ", before " + (at + dst.remaining()));
            }
            at += n;
            bytesRead.add(n);
        }
    }

    /** Writes all of {@code src} starting at {@code position}. */
    void writeFully(ByteBuffer src, long position) throws IOException {
        long at = position;
        while (src.hasRemaining()) {
            long p = at;
            at += call(ch -> ch.write(src, p));
        }
    }

    /** Forces written bytes to the device. */
    void force() throws IOException {
        call(ch -> {
            ch.force(true);
            return null;
        });
    }

    /** The current channel, for single-threaded use while nothing else reads (opening an archive). */
    FileChannel current() {
        return channel;
    }

    /** The number of bytes read by {@link #readFully} so far (for tests and diagnostics). */
    long bytesRead() {
        return bytesRead.sum();
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        channel.close();
    }
}
