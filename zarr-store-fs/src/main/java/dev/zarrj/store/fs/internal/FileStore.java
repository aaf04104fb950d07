package dev.zarrj.store.fs.internal;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.ReadMemory;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The spec's file system store: each key is a file under a root directory, {@code foo/bar} being
 * {@code <root>/foo/bar}.
 *
 * <p>Spec: <a href="https://zarr-specs.readthedocs.io/en/latest/v3/stores/filesystem/">file
 * system store, version 1.0</a>. Opened from a path ({@code FileStores.open(Path.of("/data/x.zarr"),
 * false)}) or by the {@code file} provider from {@code file:///data/x.zarr} or
 * {@code file:/data/x.zarr}.
 *
 * <p>Behaviour:
 * <ul>
 *   <li>Ranged reads ({@link ByteRange.Bounded}, {@link ByteRange.From}, {@link ByteRange.Suffix})
 *       read only the requested bytes, with positional reads.</li>
 *   <li>{@code set} writes a temporary file {@code .zarrj-<hex>.tmp} in the key's directory and
 *       renames it over the key atomically; readers see the old or the new value, and a failed
 *       write leaves the old one. Listings never show temporary files. The temporary file is
 *       locked ({@link FileChannel#lock()}) from its creation until it is closed, just before
 *       the rename, so that {@link #leftovers()} tells a write in progress in another process
 *       from a crash's leftover; nothing removes leftovers but {@link #removeLeftovers}.</li>
 *   <li>{@code setAsync} and {@code eraseAsync} run {@code set} and {@code erase} on threads
 *       shared by every file store of the JVM ({@link WriteThreads}), and
 *       {@link #writeConcurrency()} asks a write to keep that many outstanding: renaming a new
 *       file over an old one can wait for the device (ext4 writes the new data out first), and
 *       the chunks after it are encoded meanwhile.</li>
 *   <li>A {@linkplain #rangeReader range reader} (a partial decode: a shard's index, then its
 *       inner chunks) keeps the file its first read opened until the decode ends, so all its
 *       ranges come from the version it opened, however often the key is replaced meanwhile.</li>
 *   <li>{@code erase} removes directories it leaves empty, up to but not including the root.</li>
 *   <li>A directory is never a key; every child directory is a prefix in {@code list_dir}.</li>
 *   <li>A key is absent only when nothing is at its path (or a value is above it). Reading a key
 *       whose path holds a directory, fifo, socket, device, a link to one of them, or a link
 *       that leads nowhere, is a {@link StoreException} naming the key and what is there;
 *       listings show such entries, other than directories, as keys.</li>
 *   <li>Symbolic links are followed only when they resolve inside the root; an access that
 *       would leave the root through one fails with a {@link StoreException}, and listings skip
 *       such links. Erasing removes links, never their targets.</li>
 *   <li>{@code set_partial_values} is not supported: writing into a value in place could not be
 *       atomic.</li>
 *   <li>{@linkplain #conditionalWrites() Conditional writes} hold across processes on one
 *       local file system. A version is the SHA-256 digest of the value (hex), so neither
 *       inode reuse nor coarse timestamps can make a stale version look current; a value
 *       rewritten with equal bytes keeps its version, which is harmless for a read-modify-write.
 *       {@code setIfAbsent} writes a temporary file as {@code set} does and hard-links it to
 *       the key's path, which fails atomically when the key exists. {@code setIfMatch} writes
 *       the temporary file, then, holding an exclusive lock on the key's lock file
 *       ({@code .zarrj-lock-<hex>.tmp} next to the value, never listed, deleted when the write
 *       ends), compares the current value's digest and renames the temporary file into place
 *       only if it matches. Plain {@code set} and {@code erase} do not take that lock: one that
 *       lands between a {@code setIfMatch}'s compare and its rename is lost (replaced by a value
 *       computed from the one before it), though readers still see whole values only. So
 *       conditional and plain writes of one key should not race: zarrj writes a chunk
 *       conditionally only for partial updates, so a whole-chunk write in one process racing a
 *       partial update of that chunk in another may be lost (S3's conditional writes do not
 *       have this gap). The file system must support hard
 *       links and {@link FileChannel#lock() locks} (local disks do; some network mounts do
 *       not, and there a conditional write fails with a {@link StoreException}).</li>
 * </ul>
 *
 * <p>Thread-safe, and safe against other processes that follow the same protocol; the store holds
 * no state beyond its root. Keys are case-sensitive, as the spec requires; on a case-insensitive
 * file system (the default on Windows and macOS) {@code foo} and {@code FOO} are the same file,
 * a limitation the spec acknowledges. Windows may also refuse to replace a value that another
 * process holds open, and limits paths to 260 characters unless long paths are enabled.
 */
public final class FileStore implements Store {
    /** The largest value {@code get} returns in one buffer. */
    private static final int MAX_BUFFER = Integer.MAX_VALUE - 8;
    /** The least size {@link #getLent} maps: below it, mapping and unmapping cost more than the read saves. */
    static final long MAP_FROM = 1 << 20;
    /**
     * Heap buffers are read and written at most this many bytes per call: the JDK copies a heap
     * buffer through a temporary direct buffer as large as the call, and keeps one per thread.
     */
    private static final int HEAP_IO_PIECE = 1 << 20;
    /** How often {@code set} retries when a concurrent erase removed its directory. */
    private static final int WRITE_ATTEMPTS = 100;
    /**
     * Names of the temporary files that {@code set} is writing in this JVM, in any store. Their
     * names are random, so the name alone identifies the file however its path is spelled.
     */
    private static final Set<String> WRITING = ConcurrentHashMap.newKeySet();
    /** Held while probing a leftover's lock: two probes of one file would overlap in this JVM. */
    private static final Object PROBE = new Object();
    /**
     * Names of the lock files of {@code setIfMatch} that this JVM has open, with how many writers
     * use each (one at a time, by {@link #KEY_LOCKS}). Changed under {@link #PROBE}, so that no
     * probe of this JVM opens and closes a lock file this JVM is locking.
     */
    private static final Map<String, Integer> LOCKING = new HashMap<>();
    /** Taken before a lock file's lock, so that no two threads of this JVM lock one file. */
    private static final ReentrantLock[] KEY_LOCKS = new ReentrantLock[256];

    static {
        for (int i = 0; i < KEY_LOCKS.length; i++) {
            KEY_LOCKS[i] = new ReentrantLock();
        }
    }

    /** How often {@code setIfMatch} opens the lock file again when another process replaced it. */
    private static final int LOCK_ATTEMPTS = 1000;

    private final KeyToPath paths;
    private final boolean readOnly;
    private final boolean fsync;
    private final ConditionalWrites conditional = new Conditional();

    /**
     * Opens the store rooted at {@code root}.
     *
     * @throws StoreException when {@code root} exists and is not a directory
     */
    public FileStore(Path root, boolean readOnly, boolean fsync) {
        this.paths = new KeyToPath(Objects.requireNonNull(root, "root"));
        this.readOnly = readOnly;
        this.fsync = fsync;
        Path r = paths.root();
        if (Files.exists(r) && !Files.isDirectory(r)) {
            throw new StoreException(describe() + ": the store root is not a directory", null);
        }
    }

    @Override
    public StoreCapabilities capabilities() {
        return readOnly ? StoreCapabilities.READ_ONLY : StoreCapabilities.READ_WRITE;
    }

    @Override
    public String describe() {
        return paths.describe();
    }

    // ---- readable ----

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        return read(key, null);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        return read(key, Objects.requireNonNull(range, "range"));
    }

    /** Reads the file straight into the buffer it is given: no copy through a temporary one when that is direct. */
    @Override
    public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
        Objects.requireNonNull(allocate, "allocate");
        return read(key, null, allocate);
    }

    /**
     * Maps a value of at least {@link #MAP_FROM} bytes, unmapped when the caller releases it:
     * copying out of the page cache directly saves reading the file into memory first (a whole
     * read of 4 MiB plain chunks: 94 to 84 ms for 256 MiB on two threads). Smaller values, and
     * any whose mapping fails, are read into the caller's memory.
     */
    @Override
    public Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
        Objects.requireNonNull(memory, "memory");
        Path p = paths.toPath(key);
        try (FileChannel ch = openValue(key, p)) {
            if (ch == null) {
                return Optional.empty();
            }
            long size = ch.size();
            if (size >= MAP_FROM && size <= MAX_BUFFER && Unmapper.available()) {
                MappedByteBuffer m;
                try {
                    m = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
                } catch (IOException | UnsupportedOperationException e) {
                    m = null; // out of mappings or address space, or a file system that cannot map: read it
                }
                if (m != null) {
                    MappedByteBuffer mapped = m;
                    memory.onRelease(() -> Unmapper.unmap(mapped));
                    return Optional.of(mapped);
                }
            }
            return Optional.of(readRange(key, ch, null, memory::allocate));
        } catch (IOException e) {
            throw failure("read", key, e);
        }
    }

    private Optional<ByteBuffer> read(StoreKey key, ByteRange range) {
        return read(key, range, ByteBuffer::allocate);
    }

    private Optional<ByteBuffer> read(StoreKey key, ByteRange range, IntFunction<ByteBuffer> allocate) {
        Path p = paths.toPath(key);
        try (FileChannel ch = openValue(key, p)) {
            return ch == null ? Optional.empty() : Optional.of(readRange(key, ch, range, allocate));
        } catch (IOException e) {
            throw failure("read", key, e);
        }
    }

    /**
     * Opens the value of a key for reading, or returns null when the key is absent.
     *
     * @throws StoreException when something other than a value is at the key's path
     */
    private FileChannel openValue(StoreKey key, Path p) throws IOException {
        if (valueAttributes(key, p) == null) {
            return null;
        }
        try {
            return FileChannel.open(p, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The attributes of a key's value (a regular file, or a link to one inside the root), or null
     * when nothing at all is at its path, including below a value. Decided from the attributes
     * alone: opening a fifo to find out would block.
     *
     * @throws StoreException when a directory, fifo, socket, device or a link to one, or a link
     *                        that leads nowhere, is there: reading it as absent would read fill
     *                        values in place of data
     */
    private BasicFileAttributes valueAttributes(StoreKey key, Path p) throws IOException {
        BasicFileAttributes a = attributes(p, LinkOption.NOFOLLOW_LINKS);
        if (a == null) {
            return null;
        }
        boolean link = a.isSymbolicLink();
        if (link) {
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class);
            } catch (NoSuchFileException e) {
                paths.checkInside(p, label(key));
                throw notAValue(key, p, "a symbolic link to nothing");
            }
        }
        paths.checkInside(p, label(key));
        if (!a.isRegularFile()) {
            throw notAValue(key, p, (link ? "a symbolic link to " : "") + kind(p, a));
        }
        return a;
    }

    private StoreException notAValue(StoreKey key, Path p, String found) {
        return new StoreException(describe() + ": key '" + key + "': " + p + " is " + found
                + ", not a file holding a value", null);
    }

    /** What a path that is not a regular file is, for messages. */
    private static String kind(Path p, BasicFileAttributes a) {
        if (a.isDirectory()) {
            return "a directory";
        }
        int mode;
        try {
            mode = (Integer) Files.getAttribute(p, "unix:mode");
        } catch (IOException | RuntimeException e) {
            return "neither a regular file nor a directory";
        }
        return switch (mode & 0170000) {
            case 0010000 -> "a fifo (named pipe)";
            case 0140000 -> "a socket";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            default -> "neither a regular file nor a directory";
        };
    }

    /** Reads {@code range} (the whole value when null) of an open value. */
    private ByteBuffer readRange(StoreKey key, FileChannel ch, ByteRange range) throws IOException {
        return readRange(key, ch, range, ByteBuffer::allocate);
    }

    private ByteBuffer readRange(StoreKey key, FileChannel ch, ByteRange range, IntFunction<ByteBuffer> allocate)
            throws IOException {
        long size = ch.size();
        long start = 0;
        long end = size;
        if (range != null) {
            try {
                long[] r = range.resolve(size);
                start = r[0];
                end = r[1];
            } catch (IllegalArgumentException e) {
                throw new StoreException(describe() + ": key '" + key + "': " + e.getMessage(), e);
            }
        }
        long length = end - start;
        if (length > MAX_BUFFER) {
            throw new StoreException(describe() + ": key '" + key + "': " + length
                    + " bytes do not fit in one buffer; read the value in ranges", null);
        }
        ByteBuffer buf = allocate.apply((int) length);
        if (buf.position() != 0 || buf.remaining() < length) {
            throw new IllegalArgumentException("the allocator gave " + buf + " for " + length + " bytes");
        }
        buf.limit((int) length);
        while (buf.hasRemaining()) {
            ByteBuffer piece = piece(buf);
            int n = ch.read(piece, start + buf.position());
            if (n > 0 && piece != buf) {
                buf.position(buf.position() + n);
            }
            if (n < 0) {
                throw new StoreException(describe() + ": key '" + key + "': the value ended at byte "
                        + (start + buf.position()) + " while reading up to " + end
                        + "; it was truncated in place by another writer", null);
            }
        }
        return buf.flip();
    }

    /**
     * {@code b} itself when it is direct or small; else a view of its next
     * {@link #HEAP_IO_PIECE} bytes, after whose transfer {@code b}'s position must be advanced.
     */
    private static ByteBuffer piece(ByteBuffer b) {
        if (b.isDirect() || b.remaining() <= HEAP_IO_PIECE) {
            return b;
        }
        return b.slice(b.position(), HEAP_IO_PIECE);
    }

    /**
     * Reads on from the file the first read opened, until closed: a value is replaced by renaming
     * a new file over it, and an open file keeps the bytes it had, so every range comes from one
     * version. A first read that finds the key absent keeps nothing, and the next read looks again.
     */
    @Override
    public RangeReader rangeReader(StoreKey key) {
        Objects.requireNonNull(key, "key");
        return new RangeReader() {
            private FileChannel channel;
            private boolean closed;

            /** The file opened by the first read that found it, or null while the key is absent. */
            private synchronized FileChannel channel() throws IOException {
                if (closed) {
                    throw new IllegalStateException(describe() + ": a range reader of '" + key + "' used after closing");
                }
                if (channel == null) {
                    channel = openValue(key, paths.toPath(key));
                }
                return channel;
            }

            @Override
            public Optional<ByteBuffer> get(ByteRange range) {
                Objects.requireNonNull(range, "range");
                try {
                    FileChannel ch = channel();
                    return ch == null ? Optional.empty() : Optional.of(readRange(key, ch, range));
                } catch (IOException e) {
                    throw failure("read", key, e);
                }
            }

            /** Reads each range straight into the buffer it is given: no copy through a temporary one when that is direct. */
            @Override
            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges, IntFunction<ByteBuffer> allocate) {
                Objects.requireNonNull(allocate, "allocate");
                List<Optional<ByteBuffer>> out = new ArrayList<>(ranges.size());
                try {
                    FileChannel ch = channel();
                    for (ByteRange r : ranges) {
                        Objects.requireNonNull(r, "range");
                        out.add(ch == null ? Optional.empty() : Optional.of(readRange(key, ch, r, allocate)));
                    }
                } catch (IOException e) {
                    throw failure("read", key, e);
                }
                return out;
            }

            @Override
            public boolean versioned() {
                return true;
            }

            @Override
            public synchronized void close() {
                closed = true;
                if (channel != null) {
                    closeReader(Optional.of(channel));
                    channel = null;
                }
            }
        };
    }

    /** Opens each key once, however many ranges of it are requested. */
    @Override
    public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
        Map<StoreKey, Integer> lastUse = new HashMap<>();
        for (int i = 0; i < ranges.size(); i++) {
            lastUse.put(ranges.get(i).key(), i);
        }
        List<Optional<ByteBuffer>> out = new ArrayList<>(ranges.size());
        Map<StoreKey, Optional<FileChannel>> open = new HashMap<>();
        StoreKey key = null;
        try {
            for (int i = 0; i < ranges.size(); i++) {
                key = ranges.get(i).key();
                Optional<FileChannel> ch = open.get(key);
                if (ch == null) {
                    ch = Optional.ofNullable(openValue(key, paths.toPath(key)));
                    open.put(key, ch);
                }
                out.add(ch.isEmpty() ? Optional.empty() : Optional.of(readRange(key, ch.get(), ranges.get(i).range())));
                if (lastUse.get(key) == i) {
                    open.remove(key);
                    closeReader(ch);
                }
            }
        } catch (IOException e) {
            throw failure("read", key, e);
        } finally {
            open.values().forEach(FileStore::closeReader);
        }
        return out;
    }

    private static void closeReader(Optional<FileChannel> ch) {
        if (ch.isPresent()) {
            try {
                ch.get().close();
            } catch (IOException ignored) {
                // A channel opened for reading only: the bytes read from it are complete.
            }
        }
    }

    @Override
    public OptionalLong size(StoreKey key) {
        Path p = paths.toPath(key);
        try {
            BasicFileAttributes a = valueAttributes(key, p);
            return a == null ? OptionalLong.empty() : OptionalLong.of(a.size());
        } catch (IOException e) {
            throw failure("read", key, e);
        }
    }

    @Override
    public boolean exists(StoreKey key) {
        return size(key).isPresent();
    }

    // ---- writable ----

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        requireWritable("set '" + key + "'");
        Objects.requireNonNull(value, "value");
        Path target = paths.toPath(key);
        try {
            Temporary tmp = writeTemporary(key, target.getParent(), value);
            try {
                // Closed before the rename, so that an error the close reports (a write-back that
                // failed) keeps the old value. That releases the file's lock; this JVM's registry
                // still says the file is live, and another process's removeLeftovers spares it by
                // its age (it was written just now).
                tmp.channel().close();
                Files.move(tmp.path(), target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException e) {
                discard(tmp, e);
                throw e;
            } finally {
                WRITING.remove(tmp.name());
            }
            if (fsync) {
                syncDirectory(target.getParent());
            }
        } catch (IOException e) {
            throw failure("set", key, e);
        }
    }

    /**
     * A temporary file that {@code set} writes: registered in {@link #WRITING} before it is
     * created, locked from its creation until its channel is closed, just before the rename.
     */
    private record Temporary(Path path, String name, FileChannel channel) {}

    /**
     * Writes a value to a new temporary file in {@code dir}, creating {@code dir} as needed, and
     * returns it still open and locked.
     */
    private Temporary writeTemporary(StoreKey key, Path dir, ByteBuffer value) throws IOException {
        for (int attempt = 1; ; attempt++) {
            paths.checkInside(dir, label(key));
            String name = KeyToPath.newTempName();
            Path tmp = dir.resolve(name);
            FileChannel ch;
            // Retried: a concurrent erase may prune a directory on the way while it is still empty
            // (a directory holding the temporary file is never pruned), or the random name is taken.
            try {
                Files.createDirectories(dir);
            } catch (NoSuchFileException | FileAlreadyExistsException e) {
                // FileAlreadyExists also reports a directory that vanished while being checked.
                if (attempt < WRITE_ATTEMPTS && !(e instanceof FileAlreadyExistsException f && isNonDirectory(f.getFile()))) {
                    continue;
                }
                throw e;
            }
            // Registered before it exists, so that no lookup for leftovers in this JVM ever sees
            // it unregistered and probes (then closes) a channel of a file this JVM has locked.
            if (!WRITING.add(name)) {
                continue;
            }
            try {
                ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (NoSuchFileException | FileAlreadyExistsException e) {
                WRITING.remove(name);
                if (attempt < WRITE_ATTEMPTS) {
                    continue;
                }
                throw e;
            } catch (IOException | RuntimeException e) {
                WRITING.remove(name);
                throw e;
            }
            Temporary t = new Temporary(tmp, name, ch);
            try {
                lock(ch);
                ByteBuffer src = value.duplicate();
                while (src.hasRemaining()) {
                    ByteBuffer piece = piece(src);
                    int n = ch.write(piece);
                    if (piece != src) {
                        src.position(src.position() + n);
                    }
                }
                if (fsync) {
                    ch.force(true);
                }
                return t;
            } catch (IOException | RuntimeException e) {
                discard(t, e);
                throw e;
            }
        }
    }

    /**
     * Takes the exclusive lock that tells other processes a file is being written; the operating
     * system releases it when the process dies, which is how a crash's leftover is told apart.
     */
    private static void lock(FileChannel ch) throws IOException {
        try {
            ch.lock(); // waits out another process's probe, which holds a lock only for a moment
        } catch (ClosedChannelException | FileLockInterruptionException e) {
            throw e;
        } catch (IOException e) {
            // A file system without locks (some network mounts): the file is written unlocked, and
            // other processes tell it from a leftover by its age alone.
        }
    }

    /** Deletes a temporary file after a failed write, then closes and unregisters it. */
    private static void discard(Temporary t, Exception failure) {
        deleteAfterFailure(t.path(), failure);
        try {
            t.channel().close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        } finally {
            WRITING.remove(t.name());
        }
    }

    private static boolean isNonDirectory(String file) {
        // One look, not exists() then isDirectory(): a directory pruned between the two would
        // count as a file, and a set racing an erase would fail instead of retrying.
        try {
            return !Files.readAttributes(Path.of(file), BasicFileAttributes.class).isDirectory();
        } catch (IOException e) {
            return false; // gone (or unreadable): retry, and report the original error at the end
        }
    }

    private static void deleteAfterFailure(Path tmp, Exception failure) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /** Makes a rename in {@code dir} durable. */
    private static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some platforms (Windows) cannot open a directory; the rename is then as durable as
            // the file system makes it.
        }
    }

    /** Conditional writes that hold across processes; see the class comment for how. */
    @Override
    public Optional<ConditionalWrites> conditionalWrites() {
        return Optional.of(conditional);
    }

    private final class Conditional implements ConditionalWrites {
        @Override
        public Optional<VersionedValue> getVersioned(StoreKey key) {
            return read(key, null).map(v -> new VersionedValue(v, digest(v)));
        }

        @Override
        public boolean setIfAbsent(StoreKey key, ByteBuffer value) {
            requireWritable("set '" + key + "'");
            Objects.requireNonNull(value, "value");
            Path target = paths.toPath(key);
            try {
                Temporary tmp = writeTemporary(key, target.getParent(), value);
                try {
                    tmp.channel().close(); // as in set: a failed write-back stores nothing
                    try {
                        Files.createLink(target, tmp.path());
                    } catch (FileAlreadyExistsException e) {
                        valueAttributes(key, target); // throws when no value is there
                        return false;
                    } catch (UnsupportedOperationException e) {
                        throw new StoreException(describe() + ": cannot set key '" + key + "' only if absent: the file"
                                + " system does not support hard links", e);
                    }
                } finally {
                    try {
                        Files.deleteIfExists(tmp.path());
                    } finally {
                        WRITING.remove(tmp.name());
                    }
                }
                if (fsync) {
                    syncDirectory(target.getParent());
                }
                return true;
            } catch (IOException e) {
                throw failure("set (if absent)", key, e);
            }
        }

        @Override
        public boolean setIfMatch(StoreKey key, ByteBuffer value, String version) {
            requireWritable("set '" + key + "'");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(version, "version");
            Path target = paths.toPath(key);
            try {
                if (valueAttributes(key, target) == null) {
                    return false;
                }
                Temporary tmp = writeTemporary(key, target.getParent(), value);
                try {
                    tmp.channel().close();
                    try (KeyLock lock = lockKey(key, target)) {
                        Optional<ByteBuffer> current = lock == null ? Optional.empty() : read(key, null);
                        if (current.isEmpty() || !digest(current.get()).equals(version)) {
                            return false;
                        }
                        Files.move(tmp.path(), target, StandardCopyOption.ATOMIC_MOVE,
                                StandardCopyOption.REPLACE_EXISTING);
                    }
                } finally {
                    try {
                        Files.deleteIfExists(tmp.path()); // nothing there once it was renamed
                    } finally {
                        WRITING.remove(tmp.name());
                    }
                }
                if (fsync) {
                    syncDirectory(target.getParent());
                }
                return true;
            } catch (IOException e) {
                throw failure("set (if it matches a version)", key, e);
            }
        }
    }

    /** The version of a value: the hex SHA-256 digest of its remaining bytes. */
    private static String digest(ByteBuffer value) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        md.update(value.duplicate());
        return HexFormat.of().formatHex(md.digest());
    }

    /** The name of the lock file of the value named {@code fileName}, in the same directory. */
    static String lockName(String fileName) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        byte[] d = md.digest(fileName.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return KeyToPath.lockName(HexFormat.of().formatHex(d, 0, 16));
    }

    /**
     * The exclusive, cross-process lock of one key, held from {@link #lockKey} until closed:
     * the key's stripe of {@link #KEY_LOCKS} in this JVM, then a {@link FileLock} on the key's
     * lock file, which is deleted when the lock is released.
     */
    static final class KeyLock implements AutoCloseable {
        private final ReentrantLock stripe;
        private final String name;
        private final Path file;
        private FileChannel channel;

        KeyLock(ReentrantLock stripe, String name, Path file) {
            this.stripe = stripe;
            this.name = name;
            this.file = file;
        }

        @Override
        public void close() throws IOException {
            try {
                if (channel != null) {
                    // Deleted before it is unlocked: a process waiting on this file finds, once it
                    // holds the lock, that the path no longer names it, and opens the new one.
                    try {
                        Files.deleteIfExists(file);
                    } finally {
                        channel.close();
                    }
                }
            } finally {
                synchronized (PROBE) {
                    LOCKING.computeIfPresent(name, (k, n) -> n == 1 ? null : n - 1);
                }
                stripe.unlock();
            }
        }
    }

    /**
     * Takes the lock of a key (see {@link KeyLock}); null when the key's directory is gone, so
     * the key is absent. A lock file is trusted only when the path names the same file before
     * it was opened and after it was locked: a holder deletes it before releasing it, and
     * {@link #removeLeftovers} may delete an unlocked one, so the file a writer locked may be
     * one no one else will ever open again. The file opened keeps its inode number from being
     * reused, so an unchanged file key means the path still names it.
     */
    KeyLock lockKey(StoreKey key, Path target) throws IOException {
        String name = lockName(target.getFileName().toString());
        Path file = target.resolveSibling(name);
        ReentrantLock stripe = KEY_LOCKS[Math.floorMod(name.hashCode(), KEY_LOCKS.length)];
        stripe.lock();
        synchronized (PROBE) {
            LOCKING.merge(name, 1, Integer::sum);
        }
        KeyLock held = new KeyLock(stripe, name, file);
        try {
            for (int attempt = 1; attempt <= LOCK_ATTEMPTS; attempt++) {
                BasicFileAttributes before = attributes(file, LinkOption.NOFOLLOW_LINKS);
                FileChannel ch;
                try {
                    ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException e) {
                    held.close();
                    return null;
                }
                try {
                    ch.lock();
                } catch (IOException | RuntimeException e) {
                    ch.close();
                    if (e instanceof IOException && !(e instanceof ClosedChannelException
                            || e instanceof FileLockInterruptionException)) {
                        throw new StoreException(describe() + ": cannot lock key '" + key + "' for a conditional"
                                + " write: the file system refused a lock on " + file + ": " + explain((IOException) e), e);
                    }
                    discardUnheldLockFile(file);
                    throw e;
                }
                BasicFileAttributes after = attributes(file, LinkOption.NOFOLLOW_LINKS);
                if (before != null && after != null && (before.fileKey() == null
                        || before.fileKey().equals(after.fileKey()))) {
                    held.channel = ch;
                    return held;
                }
                ch.close(); // created by this call, or replaced since: only this thread of this JVM holds it
            }
            throw new StoreException(describe() + ": cannot lock key '" + key + "' for a conditional write: its lock"
                    + " file " + file + " was replaced " + LOCK_ATTEMPTS + " times while being locked", null);
        } catch (IOException | RuntimeException | Error e) {
            if (held.channel == null) {
                try {
                    held.close();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /**
     * After an interrupt stopped {@link #lockKey} between creating a lock file and locking it,
     * deletes the file if no one holds it, so that an interrupted write leaves nothing behind.
     * Deleting is safe only while holding its lock (a holder's file must stay, and a process
     * waiting on a deleted file notices and opens the new one), so it is locked first, without
     * waiting, and deleted only if the path still names the file locked. The caller holds the
     * key's stripe, so no other thread of this JVM holds a lock on this file; the interrupt status
     * is kept.
     */
    private void discardUnheldLockFile(Path file) {
        boolean interrupted = Thread.interrupted();
        try {
            BasicFileAttributes before = attributes(file, LinkOption.NOFOLLOW_LINKS);
            if (before == null) {
                return;
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                FileLock lock = ch.tryLock();
                if (lock == null) {
                    return; // another process holds it, and deletes it when it releases it
                }
                BasicFileAttributes after = attributes(file, LinkOption.NOFOLLOW_LINKS);
                if (after != null && before.fileKey() != null && before.fileKey().equals(after.fileKey())) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException | OverlappingFileLockException e) {
            // Left for removeLeftovers, which reports an unlocked lock file as a leftover.
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * {@link #set} on one of the threads this JVM's file stores write on ({@link WriteThreads}),
     * so that the caller goes on while the file is written and renamed into place. The caller
     * keeps {@code value} unchanged until the future completes.
     */
    @Override
    public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
        if (readOnly) {
            return CompletableFuture.failedFuture(readOnly("set '" + key + "'"));
        }
        return WriteThreads.run(() -> {
            set(key, value);
            return null;
        });
    }

    /** {@link #erase} on the threads {@link #setAsync} uses. */
    @Override
    public CompletableFuture<Void> eraseAsync(StoreKey key) {
        if (readOnly) {
            return CompletableFuture.failedFuture(readOnly("erase '" + key + "'"));
        }
        return WriteThreads.run(() -> {
            erase(key);
            return null;
        });
    }

    /** Twice the cores, at least 4: files being replaced overlap with the chunks being encoded. */
    @Override
    public int writeConcurrency() {
        return WriteThreads.COUNT;
    }

    @Override
    public void erase(StoreKey key) {
        requireWritable("erase '" + key + "'");
        Path p = paths.toPath(key);
        try {
            BasicFileAttributes a = attributes(p, LinkOption.NOFOLLOW_LINKS);
            if (a == null || a.isDirectory() || a.isSymbolicLink() && Files.isDirectory(p)) {
                return; // a directory, or a link to one, is a prefix rather than a key
            }
            paths.checkInside(p.getParent(), label(key));
            Files.deleteIfExists(p);
            pruneEmptyDirectories(p.getParent());
        } catch (IOException e) {
            throw failure("erase", key, e);
        }
    }

    @Override
    public void erasePrefix(String prefix) {
        requireWritable("erase prefix '" + prefix + "'");
        Path dir = paths.toPath(prefix);
        String label = "prefix '" + prefix + "'";
        try {
            if (prefix.isEmpty()) {
                if (paths.realRoot() != null) {
                    deleteChildren(dir);
                }
                return;
            }
            BasicFileAttributes a = attributes(dir, LinkOption.NOFOLLOW_LINKS);
            if (a == null) {
                return;
            }
            paths.checkInside(dir.getParent(), label);
            if (a.isDirectory()) {
                deleteTree(dir);
            } else if (a.isSymbolicLink() && Files.isDirectory(dir)) {
                Files.deleteIfExists(dir);
            } else {
                return; // a value (or something else) named like the prefix holds no keys under it
            }
            pruneEmptyDirectories(dir.getParent());
        } catch (IOException e) {
            throw new StoreException(describe() + ": cannot erase " + label + ": " + explain(e), e);
        }
    }

    private static void deleteChildren(Path dir) throws IOException {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
                    deleteTree(child);
                } else {
                    Files.deleteIfExists(child);
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }

    /** Deletes a directory tree; links inside it are deleted, not followed. */
    private static void deleteTree(Path top) throws IOException {
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                try {
                    Files.deleteIfExists(dir);
                } catch (DirectoryNotEmptyException ignored) {
                    // A concurrent set wrote a key here; it survives, as if it came after.
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Removes {@code dir} and its ancestors while they are empty, stopping below the root. */
    private void pruneEmptyDirectories(Path dir) {
        Path root = paths.root();
        for (Path d = dir; d != null && d.startsWith(root) && !d.equals(root); d = d.getParent()) {
            try {
                if (!Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
                    return; // a link to a directory: deleting it would not delete an empty directory
                }
                Files.delete(d);
            } catch (IOException e) {
                // Not empty, already gone, or not ours to delete: the erase itself succeeded, and an
                // empty directory left behind holds no key.
                return;
            }
        }
    }

    private void requireWritable(String what) {
        if (readOnly) {
            throw readOnly(what);
        }
    }

    private ReadOnlyException readOnly(String what) {
        return new ReadOnlyException(describe() + " is read-only; cannot " + what);
    }

    // ---- listable ----

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        List<StoreKey> out = new ArrayList<>();
        walkPrefix(prefix, (key, attributes) -> out.add(key));
        Collections.sort(out);
        return out;
    }

    /**
     * One walk of the prefix's directories: the sizes come from the attributes it reads anyway.
     * A key whose entry is not a regular file (a fifo, a dangling link) is asked of
     * {@link #size}, which fails for it as every read does.
     */
    @Override
    public List<KeySize> listPrefixSizes(String prefix) {
        Map<StoreKey, BasicFileAttributes> found = new TreeMap<>();
        walkPrefix(prefix, found::put);
        List<KeySize> out = new ArrayList<>(found.size());
        for (Map.Entry<StoreKey, BasicFileAttributes> e : found.entrySet()) {
            BasicFileAttributes a = e.getValue();
            if (a != null && a.isRegularFile()) {
                out.add(new KeySize(e.getKey(), a.size()));
            } else {
                size(e.getKey()).ifPresent(size -> out.add(new KeySize(e.getKey(), size)));
            }
        }
        return out;
    }

    private void walkPrefix(String prefix, ValueSink sink) {
        Path dir = paths.toPath(prefix);
        try {
            Path real = realDirectory(dir, prefix);
            if (real != null) {
                walk(dir, prefix, real, new HashSet<>(), sink);
            }
        } catch (IOException e) {
            throw new StoreException(describe() + ": cannot list prefix '" + prefix + "': " + explain(e), e);
        }
    }

    /** Receives each value a walk finds, with its attributes (null for a link that leads nowhere). */
    @FunctionalInterface
    private interface ValueSink {
        void accept(StoreKey key, BasicFileAttributes attributes);
    }

    @Override
    public ListDirResult listDir(String prefix) {
        Path dir = paths.toPath(prefix);
        List<StoreKey> keys = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        try {
            Path real = realDirectory(dir, prefix);
            if (real != null) {
                forEachChild(dir, real, (name, child, kind, attributes) -> {
                    if (kind == Kind.VALUE) {
                        keys.add(StoreKey.of(prefix + name));
                    } else {
                        prefixes.add(prefix + name + "/");
                    }
                });
            }
        } catch (IOException e) {
            throw new StoreException(describe() + ": cannot list directory '" + prefix + "': " + explain(e), e);
        }
        Collections.sort(keys);
        Collections.sort(prefixes);
        return new ListDirResult(keys, prefixes);
    }

    /**
     * The real path of a prefix's directory, or null when there is none.
     *
     * @throws StoreException when it lies outside the root
     */
    private Path realDirectory(Path dir, String prefix) throws IOException {
        if (paths.realRoot() == null) {
            return null;
        }
        BasicFileAttributes a = attributes(dir);
        if (a == null || !a.isDirectory()) {
            return null;
        }
        Path real;
        try {
            real = dir.toRealPath();
        } catch (NoSuchFileException e) {
            return null; // erased since
        }
        paths.requireInside(dir, real, "prefix '" + prefix + "'");
        return real;
    }

    /**
     * Collects the keys below {@code dir}. {@code onPath} holds the real paths of the directories
     * being walked, so that a link back to one of them is not followed again.
     */
    private void walk(Path dir, String keyPrefix, Path realDir, Set<Path> onPath, ValueSink out)
            throws IOException {
        onPath.add(realDir);
        forEachChild(dir, realDir, (name, child, kind, attributes) -> {
            if (kind == Kind.VALUE) {
                out.accept(StoreKey.of(keyPrefix + name), attributes);
            } else if (!onPath.contains(child)) {
                walk(dir.resolve(name), keyPrefix + name + "/", child, onPath, out);
            }
        });
        onPath.remove(realDir);
    }

    private enum Kind { VALUE, DIRECTORY }

    @FunctionalInterface
    private interface ChildVisitor {
        /** {@code attributes}: of the entry, or of its target when a link; null for a dangling link. */
        void visit(String name, Path realChild, Kind kind, BasicFileAttributes attributes) throws IOException;
    }

    /**
     * Visits the entries directly in {@code dir}: directories (and links to them) as directories,
     * anything else as a value, so that a fifo or a dangling link at a key's path is listed and
     * fails when read. Skips temporary files, names that cannot be keys, and links that lead
     * outside the root.
     */
    private void forEachChild(Path dir, Path realDir, ChildVisitor visitor) throws IOException {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                String name = child.getFileName().toString();
                if (!KeyToPath.isKeySegment(name)) {
                    continue;
                }
                BasicFileAttributes a = attributes(child, LinkOption.NOFOLLOW_LINKS);
                Path real = realDir.resolve(name);
                if (a != null && a.isSymbolicLink()) {
                    try {
                        real = child.toRealPath();
                    } catch (IOException e) {
                        visitor.visit(name, null, Kind.VALUE, null); // dangling or a loop: a key that fails to read
                        continue;
                    }
                    if (!real.startsWith(paths.realRoot())) {
                        continue;
                    }
                    a = attributes(real);
                }
                if (a != null) {
                    visitor.visit(name, real, a.isDirectory() ? Kind.DIRECTORY : Kind.VALUE, a);
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            // Removed while being listed: it holds no keys now.
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }

    // ---- maintenance ----

    /**
     * The temporary files of {@code set} under the root ({@code .zarrj-<hex>.tmp}), sorted by
     * path: those of writes a crash interrupted, and those of writes in progress, which are live
     * (this JVM is writing it, or another process holds the lock {@code set} takes on it). Also
     * the lock files of conditional writes ({@code .zarrj-lock-<hex>.tmp}): live while a writer
     * holds them, else left by a process that died holding one; removing one is safe, since a
     * writer re-checks after locking that the path still names its lock file.
     * Directories reached through symbolic links are not searched.
     */
    @Override
    public List<Leftover> leftovers() {
        List<Leftover> out = new ArrayList<>();
        for (Found f : temporaries()) {
            Owner o = owner(f.file());
            if (o != Owner.GONE) {
                out.add(new Leftover(f.file().toString(), f.attributes().size(),
                        f.attributes().lastModifiedTime().toInstant(), o == Owner.LIVE));
            }
        }
        return out;
    }

    /**
     * Deletes the temporary files of {@link #leftovers()} that are not live and were last
     * written at least {@code minimumAge} ago, and the directories that leaves empty (below the
     * root); allowed on a read-only store, since no value changes.
     */
    @Override
    public List<Leftover> removeLeftovers(Duration minimumAge) {
        Objects.requireNonNull(minimumAge, "minimumAge");
        if (minimumAge.isNegative()) {
            throw new IllegalArgumentException("negative minimumAge " + minimumAge);
        }
        Instant cutoff;
        try {
            cutoff = Instant.now().minus(minimumAge);
        } catch (DateTimeException | ArithmeticException e) {
            cutoff = Instant.MIN; // older than anything
        }
        List<Leftover> removed = new ArrayList<>();
        for (Found f : temporaries()) {
            Instant modified = f.attributes().lastModifiedTime().toInstant();
            // Probed just before deleting, file by file, so that the answer is fresh.
            if (modified.isAfter(cutoff) || owner(f.file()) != Owner.NONE) {
                continue;
            }
            try {
                if (Files.deleteIfExists(f.file())) {
                    removed.add(new Leftover(f.file().toString(), f.attributes().size(), modified, false));
                    pruneEmptyDirectories(f.file().getParent());
                }
            } catch (IOException e) {
                throw new StoreException(describe() + ": cannot remove the leftover " + f.file() + " (removed "
                        + removed.size() + " before it): " + explain(e), e);
            }
        }
        return removed;
    }

    private record Found(Path file, BasicFileAttributes attributes) {}

    private List<Found> temporaries() {
        List<Found> out = new ArrayList<>();
        try {
            if (paths.realRoot() != null) {
                collectTemporaries(paths.root(), out);
            }
        } catch (IOException e) {
            throw new StoreException(describe() + ": cannot look for leftovers: " + explain(e), e);
        }
        out.sort(Comparator.comparing(Found::file));
        return out;
    }

    private void collectTemporaries(Path dir, List<Found> out) throws IOException {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                BasicFileAttributes a = attributes(child, LinkOption.NOFOLLOW_LINKS);
                if (a == null) {
                    continue;
                }
                if (a.isDirectory()) {
                    collectTemporaries(child, out);
                } else if (a.isRegularFile() && KeyToPath.isTempName(child.getFileName().toString())) {
                    out.add(new Found(child, a));
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            // Removed while being searched: nothing is left in it.
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }

    private enum Owner { LIVE, NONE, GONE }

    /**
     * Whether a writer still owns a temporary file: a {@code set} of this JVM, or another process
     * holding its lock; {@code GONE} when the file was renamed or removed since it was found. When
     * the lock cannot be probed (unreadable file, no locks on this file system) the answer is
     * {@code NONE}, and the age given to {@link #removeLeftovers} alone protects the file.
     */
    private static Owner owner(Path file) {
        if (WRITING.contains(file.getFileName().toString())) {
            return Owner.LIVE;
        }
        // Never a file this JVM writes (checked above): closing this channel would release this
        // JVM's lock on it. A shared lock conflicts with the writer's exclusive one and needs no
        // write permission.
        synchronized (PROBE) {
            if (LOCKING.containsKey(file.getFileName().toString())) {
                return Owner.LIVE; // a lock file this JVM is locking: probing it would release the lock
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                FileLock lock = ch.tryLock(0, Long.MAX_VALUE, true);
                if (lock == null) {
                    return Owner.LIVE;
                }
                lock.release();
                return Owner.NONE;
            } catch (OverlappingFileLockException e) {
                return Owner.LIVE; // held in this JVM, by a writer this registry does not know
            } catch (NoSuchFileException e) {
                return Owner.GONE;
            } catch (IOException e) {
                return Owner.NONE;
            }
        }
    }

    // ---- helpers ----

    /**
     * The attributes of a path, or null when nothing is there, including when a part of the path
     * is a value rather than a directory (so {@code a/b} is absent when {@code a} is a value).
     */
    private BasicFileAttributes attributes(Path p, LinkOption... options) throws IOException {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, options);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return null;
        } catch (FileSystemException e) {
            // "Not a directory" (ENOTDIR) has no exception class of its own.
            if (underValue(p)) {
                return null;
            }
            throw e;
        }
    }

    /** Whether an ancestor of {@code p} below the root exists and is not a directory. */
    private boolean underValue(Path p) {
        Path root = paths.root();
        for (Path q = p.getParent(); q != null && q.startsWith(root) && !q.equals(root); q = q.getParent()) {
            if (Files.exists(q) && !Files.isDirectory(q)) {
                return true;
            }
        }
        return false;
    }

    private static String label(StoreKey key) {
        return "key '" + key + "'";
    }

    private StoreException failure(String operation, StoreKey key, IOException e) {
        return new StoreException(describe() + ": cannot " + operation + " key '" + key + "': " + explain(e), e);
    }

    private static String explain(IOException e) {
        if (e instanceof FileAlreadyExistsException f) {
            return f.getFile() + " exists and is not a directory";
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    @Override
    public String toString() {
        return "FileStore[" + describe() + (readOnly ? ", read-only" : "") + "]";
    }
}
