package dev.zarrj.store.zip.internal;

import dev.zarrj.api.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The lock that makes one writer at a time of an archive: an exclusive {@link FileLock} on the
 * sibling file {@code .<name>.zarrj.lock}, which the operating system releases when the process
 * dies, plus a registry of the locks this JVM holds.
 *
 * <p>The registry exists because file locks belong to the process: a second {@code tryLock} in
 * the same JVM throws {@link OverlappingFileLockException}, and closing any channel of a locked
 * file releases every lock the process holds on it. So this JVM never opens a channel on a lock
 * file it holds: it looks in the registry first (by file key, so that two paths naming one file
 * are one lock), and every step that opens, locks or deletes a lock file runs under one monitor.
 *
 * <p>The lock file is deleted when the lock is released, so that nothing stays beside the
 * archive. That is safe because a file is only deleted by the process that holds its lock, and
 * whoever locks a file then checks that the path still names the file it locked (the same file
 * key before it opened the file and after it locked it); when not, it was deleted meanwhile, and
 * the attempt starts again. A process that dies leaves the file, unlocked; the next writer takes
 * it and deletes it on release.
 *
 * <p>The holder writes one line into the file ({@code pid 123, since <instant>}), which a writer
 * that finds the archive locked puts in its message.
 */
final class ArchiveLock implements AutoCloseable {
    /** How long a writer that does not wait retries while the holder looks like a brief probe. */
    private static final Duration PROBE_GRACE = Duration.ofMillis(500);
    private static final long POLL_MILLIS = 50;

    /** Every lock this JVM holds, by the file key of its lock file. */
    private static final Map<Object, ArchiveLock> HELD = new HashMap<>();
    /**
     * Channels of lock files that could not be closed without releasing a lock this JVM holds on
     * the same file (reached only when two paths alias one file behind the registry's back).
     */
    private static final List<FileChannel> PARKED = new ArrayList<>();

    private final Path file;
    private final Object fileKey;
    private final FileChannel channel;
    private final FileLock lock;
    private final String holder;
    private boolean released;

    private ArchiveLock(Path file, Object fileKey, FileChannel channel, FileLock lock, String holder) {
        this.file = file;
        this.fileKey = fileKey;
        this.channel = channel;
        this.lock = lock;
        this.holder = holder;
    }

    /** The lock file of an archive: {@code .<name>.zarrj.lock} beside it. */
    static Path lockFile(Path archive) {
        return archive.resolveSibling("." + archive.getFileName() + ".zarrj.lock");
    }

    /** Why an attempt to lock failed: who holds the lock, as far as can be told. */
    private record Busy(String who, boolean probe) {}

    /** Another writer holds the archive (for longer than the wait). */
    static final class HeldException extends StoreException {
        private static final long serialVersionUID = 1L;

        HeldException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Takes the write lock of {@code archive}, waiting up to {@code wait} for another writer to
     * finish ({@link Duration#ZERO}: not at all).
     *
     * @param label  names the archive in messages
     * @param holder what is written into the lock file after {@code pid <n>}, for the message of
     *               a writer that finds it locked
     * @throws HeldException  when another writer holds it (and kept it for {@code wait})
     * @throws StoreException when the lock file cannot be created or locked
     */
    static ArchiveLock acquire(Path archive, String label, Duration wait, String holder) {
        Path file = lockFile(archive);
        long start = System.nanoTime();
        long waitNanos = saturatedNanos(wait);
        long graceNanos = PROBE_GRACE.toNanos();
        while (true) {
            Object attempt;
            try {
                attempt = tryAcquire(file, holder);
            } catch (IOException e) {
                throw new StoreException(label + ": cannot lock the archive for writing (lock file " + file + "): " + e,
                        e);
            }
            if (attempt instanceof ArchiveLock l) {
                return l;
            }
            Busy busy = (Busy) attempt;
            long waited = System.nanoTime() - start;
            if (waited >= waitNanos && !(busy.probe() && waited < graceNanos)) {
                throw new HeldException(label + " is being written by " + busy.who() + "; "
                        + (wait.isZero() ? "try again when it has finished, or wait for it (zarr --wait, "
                                + "ZipStoreOptions.withLockWait, ?wait= in a zip: URI)"
                                : "it did not finish within " + wait)
                        + " (lock file " + file + ")", null);
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HeldException(label + ": interrupted while waiting for " + busy.who()
                        + " to finish writing the archive", e);
            }
        }
    }

    private static void sleep() throws java.io.InterruptedIOException {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while probing a lock file");
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Whether a writer holds the lock of {@code archive} now: this JVM's registry, else a brief
     * lock of the file (shared when the file cannot be opened for writing). Absent lock file: no
     * writer. The answer can be stale as soon as it is returned.
     */
    static Optional<String> holder(Path archive) throws IOException {
        Path file = lockFile(archive);
        synchronized (HELD) {
            Object key = fileKey(file);
            if (key == null) {
                return Optional.empty();
            }
            ArchiveLock mine = HELD.get(key);
            if (mine != null) {
                return Optional.of(mine.description());
            }
        }
        ArchiveLock probe;
        try {
            Object attempt = tryAcquire(file, "probe");
            long start = System.nanoTime();
            while (attempt instanceof Busy b && b.probe() && System.nanoTime() - start < PROBE_GRACE.toNanos()) {
                sleep(); // another probe, most likely: it lets go at once
                attempt = tryAcquire(file, "probe");
            }
            if (attempt instanceof Busy b) {
                return Optional.of(b.who());
            }
            probe = (ArchiveLock) attempt;
        } catch (AccessDeniedException | java.nio.file.ReadOnlyFileSystemException e) {
            return sharedProbe(file);
        } catch (FileSystemException e) {
            if (e.getReason() != null && e.getReason().contains("Read-only")) {
                return sharedProbe(file);
            }
            throw e;
        }
        probe.close();
        return Optional.empty();
    }

    /** Probes with a shared lock through a channel opened for reading only. */
    private static Optional<String> sharedProbe(Path file) throws IOException {
        synchronized (HELD) {
            Object key = fileKey(file);
            if (key == null) {
                return Optional.empty();
            }
            if (HELD.containsKey(key)) {
                return Optional.of(HELD.get(key).description());
            }
            FileChannel ch;
            try {
                ch = FileChannel.open(file, StandardOpenOption.READ);
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
            FileLock l;
            try {
                l = ch.tryLock(0, Long.MAX_VALUE, true);
            } catch (OverlappingFileLockException e) {
                PARKED.add(ch);
                return Optional.of("another store of this process (pid " + ProcessHandle.current().pid() + ")");
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
            try {
                if (l == null) {
                    return Optional.of(busy(file).who());
                }
                l.release();
                return Optional.empty();
            } finally {
                ch.close();
            }
        }
    }

    /** One attempt: an {@link ArchiveLock}, or a {@link Busy}. */
    private static Object tryAcquire(Path file, String holder) throws IOException {
        synchronized (HELD) {
            for (int attempt = 0; ; attempt++) {
                Object before = fileKey(file);
                if (before != null && HELD.containsKey(before)) {
                    return new Busy(HELD.get(before).description(), false);
                }
                FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                FileLock lock;
                try {
                    lock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    // This JVM holds the file under another path: closing ch would release that lock.
                    PARKED.add(ch);
                    return new Busy("another store of this process (pid " + ProcessHandle.current().pid() + ")",
                            false);
                } catch (IOException | RuntimeException e) {
                    ch.close();
                    throw e;
                }
                if (lock == null) {
                    ch.close();
                    return busy(file);
                }
                Object after = fileKey(file);
                if (before == null || !before.equals(after)) {
                    // Created here, or deleted and created again by a writer meanwhile: the path may
                    // name another file than the one locked. Start again on what it names now.
                    lock.release();
                    ch.close();
                    if (attempt > 100) {
                        throw new IOException("the lock file " + file + " keeps being replaced");
                    }
                    continue;
                }
                String line = "pid " + ProcessHandle.current().pid() + ", since " + Instant.now()
                        + ("probe".equals(holder) ? " (probe)" : holder == null ? "" : ", " + holder);
                ArchiveLock l = new ArchiveLock(file, after, ch, lock, line);
                try {
                    ch.truncate(0);
                    ch.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)), 0);
                } catch (IOException e) {
                    l.close();
                    throw e;
                }
                HELD.put(after, l);
                return l;
            }
        }
    }

    /**
     * Who holds a lock file, as its holder wrote it; read only when this JVM does not hold it.
     * {@link Busy#probe()} when it may be a brief probe: one that says so, one that has not yet
     * written its line (or left the line of a process that is no longer running here).
     */
    private static Busy busy(Path file) {
        String line;
        try {
            line = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            line = "";
        }
        if (line.isEmpty() || line.indexOf('\n') >= 0 || !line.startsWith("pid ")) {
            return new Busy("another process", true);
        }
        boolean running;
        try {
            int comma = line.indexOf(',');
            long pid = Long.parseLong(line.substring(4, comma < 0 ? line.length() : comma).strip());
            running = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (RuntimeException e) {
            running = true; // another machine's, perhaps: take it at its word
        }
        return new Busy("another process (" + line + ")", !running || line.endsWith("(probe)"));
    }

    private static Object fileKey(Path file) throws IOException {
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            return key != null ? key : file.toAbsolutePath().normalize(); // no file keys here: the path stands in
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Who holds this lock, for messages: this process. */
    private String description() {
        return "another store of this process (" + holder + ")";
    }

    /** Whether this lock is still held. */
    boolean held() {
        synchronized (HELD) {
            return !released;
        }
    }

    /**
     * Deletes the lock file and releases the lock. A second call does nothing. Never fails: what
     * it was locking is done by now, a lock file that stays behind is taken by the next writer
     * (and deleted by it), and closing the channel releases the lock if releasing it failed (for
     * example because the thread was interrupted).
     */
    @Override
    public void close() {
        synchronized (HELD) {
            if (released) {
                return;
            }
            released = true;
            HELD.remove(fileKey);
            try {
                // Deleted while locked: nobody else can have locked the file the path names.
                if (Objects.equals(fileKey(file), fileKey)) {
                    Files.delete(file);
                }
            } catch (IOException e) {
                // left for the next writer
            }
            try {
                lock.release();
            } catch (IOException e) {
                // released by the close below
            } finally {
                try {
                    channel.close();
                } catch (IOException e) {
                    // a closed channel holds no lock
                }
            }
        }
    }
}
