package dev.zarrj.store.zip.internal;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.regex.Pattern;

/**
 * A Zarr store inside a zip archive: the key {@code c/0/1} is the entry {@code <folder>/c/0/1}, at
 * the archive's root when the folder is empty.
 *
 * <p>Opened with {@code ZipStores.open(Path.of("/data/set.zip"), "inner/folder")} or by the
 * {@code zip} provider from {@code zip:/data/set.zip}, {@code zip:file:///data/set.zip} or
 * {@code zip:/data/set.zip!/inner/folder} (see the {@code dev.zarrj.store.zip} package for every
 * form). For example:
 *
 * <pre>{@code
 * try (Store s = ZipStores.open(Path.of("/data/set.zip"), "inner/folder")) {
 *     ByteBuffer chunk = s.get(StoreKey.of("c/0/0"), ByteRange.suffix(16)).orElseThrow();
 * }
 * }</pre>
 *
 * <p>Reading ({@link ZipArchive}): stored entries are read in place with positional reads, so a
 * range read ({@link ByteRange.Bounded}, {@link ByteRange.From}, {@link ByteRange.Suffix}) reads
 * only its bytes; deflated entries are inflated from their start up to the end of the range, in
 * bounded memory. The CRC-32 is checked whenever a whole value is read; it covers only whole
 * values, so a range of a damaged entry may return damaged bytes (reading the whole value, as
 * {@code zarr verify} does, finds the damage). Directory entries are not
 * keys; every folder is a prefix in {@code list_dir}. An archive with an entry name that could
 * leave it ({@code ..}, absolute, backslash, NUL) or a symbolic link is refused when opened, as is
 * one without an end-of-central-directory record. Absent means no entry at all: a key whose name
 * is listed twice in the central directory, or is the name of a directory entry, is not absent
 * but fails when read, sized or tested with a {@link StoreException} naming the key (the archive
 * still opens, and its other keys read); a name listed twice is listed once by
 * {@code list_prefix}, so that a check that reads every key finds it. Setting or erasing such a
 * key replaces the entries of its name when the archive is written.
 *
 * <p>Writing (modes {@link Mode#UPDATE} and {@link Mode#CREATE}): zip cannot replace or remove an
 * entry in place, so each {@code set} appends its value to a temporary spill file beside the
 * archive ({@code .<name>.zarrj-<hex>.spill}) and records where it is; {@code erase} records a
 * removal. Reads see these changes at once, and the last {@code set} of a key wins. {@link #close()}
 * writes the new archive to a temporary file (unchanged entries copied still compressed, new ones
 * stored or deflated as the {@link ZipStoreOptions} say, every entry sorted by name), forces it to
 * the device, moves it over the archive atomically, and deletes the spill file. Nothing changed:
 * the archive is left as it is. A crash before the move (SIGKILL included) leaves the old archive
 * intact, as does a {@code close} that fails, for example on a full disk; the changes are lost.
 * {@code set_partial_values} is not supported.
 *
 * <p>So a store open for writing must be closed, or its changes are lost. One that is not is
 * reported (see {@link UnclosedWriterGuard}): when it is garbage-collected, a warning through
 * {@link System.Logger} {@code dev.zarrj.store.zip}, and its lock and spill file are released;
 * when the JVM exits with changes not written, a line on standard error.
 *
 * <p>One writer at a time: a store open for writing holds the archive's write lock, an exclusive
 * file lock on {@code .<name>.zarrj.lock} beside it (see {@link ArchiveLock}), from before it reads
 * the archive until {@code close} has moved the new archive into place and deleted the spill file.
 * Another writer, in this process or another, fails when it opens, naming the archive and the
 * holder, or waits as {@link ZipStoreOptions#lockWait()} says; so no writer's changes are lost to
 * another's. The operating system releases the lock of a process that dies. Read-only stores take
 * no lock. What a writer that crashed left ({@link #leftovers()}) is removed by
 * {@link #removeLeftovers}, never by opening a store.
 *
 * <p>Thread-safe: reads of any entries run concurrently, and so do writes; {@code close} waits for
 * operations in progress, and every operation after it fails with a {@link StoreException}.
 */
public final class ZipStore implements Store {
    /** How a store may change its archive. */
    public enum Mode {
        /** Reads an existing archive; writes are refused. */
        READ_ONLY,
        /** Reads an archive, if one exists, and rewrites it on close if anything changed. */
        UPDATE,
        /** Writes a new archive on close; refuses an existing file. */
        CREATE
    }

    /** Marks an erased key among the changes. */
    private static final Spill.Slot ERASED = new Spill.Slot(-1, 0);

    private final Path archive;
    private final String folder;
    private final Mode mode;
    private final ZipStoreOptions options;
    private final String description;
    /** The archive as opened, or null when there was none. */
    private final ZipArchive base;
    /** The archive's write lock, held from open until close returns; null when read-only. */
    private final ArchiveLock writeLock;
    /** Keys set (their slot in the spill) or erased ({@link #ERASED}) since the store was opened. */
    private final ConcurrentSkipListMap<String, Spill.Slot> changes = new ConcurrentSkipListMap<>();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile Spill spill;
    private boolean closed;
    /** Reports the store when it is never closed; null when read-only. */
    private final UnclosedWriterGuard guard;

    private ZipStore(Path archive, String folder, Mode mode, ZipStoreOptions options, ZipArchive base,
            ArchiveLock writeLock, String description) {
        this.archive = archive;
        this.folder = folder;
        this.mode = mode;
        this.options = options;
        this.base = base;
        this.writeLock = writeLock;
        this.description = description;
        this.guard = writeLock == null ? null
                : UnclosedWriterGuard.watch(this, description, mode == Mode.CREATE, changes, base, writeLock);
    }

    /**
     * Opens a store. {@code innerFolder} is {@code ""}, null, or a key path, with or without
     * leading and trailing {@code /}. Modes {@link Mode#UPDATE} and {@link Mode#CREATE} take the
     * archive's write lock first (waiting as {@link ZipStoreOptions#lockWait()} says), so that the
     * archive read is the one the previous writer left.
     *
     * @throws StoreException      when the archive cannot be opened in this mode, or another
     *                             writer holds it
     * @throws InvalidKeyException when {@code innerFolder} is not a key path
     */
    public static ZipStore open(Path zip, String innerFolder, Mode mode, ZipStoreOptions options) {
        Path given = zip.toAbsolutePath().normalize();
        String folder = folderPrefix(innerFolder);
        String description = "zip:" + given + (folder.isEmpty() ? "" : "!/" + folder.substring(0, folder.length() - 1));
        Path path = real(given);
        if (mode == Mode.READ_ONLY) {
            ZipArchive base = ZipArchive.open(path, description);
            if (!folder.isEmpty() && !base.hasEntryUnder(folder)) {
                base.close();
                throw new StoreException(description + ": the archive has no entry under the folder '" + folder
                        + "'", null);
            }
            return new ZipStore(path, folder, mode, options, base, null, description);
        }
        ArchiveLock writeLock = lockForWriting(path, description, options, mode == Mode.UPDATE ? "update" : "create");
        try {
            ZipArchive base = null;
            if (mode == Mode.UPDATE) {
                base = Files.exists(path) ? ZipArchive.open(path, description) : null;
            } else if (Files.exists(path)) {
                throw new StoreException(description + ": " + path + " already exists; a new archive does not "
                        + "replace it (delete it first, or open it with ZipStores.update)", null);
            }
            return new ZipStore(path, folder, mode, options, base, writeLock, description);
        } catch (RuntimeException e) {
            writeLock.close();
            throw e;
        }
    }

    /** Creates the archive's folder when missing (the lock file lies in it), then takes the lock. */
    private static ArchiveLock lockForWriting(Path path, String description, ZipStoreOptions options, String what) {
        try {
            Files.createDirectories(path.getParent());
        } catch (IOException e) {
            throw new StoreException(description + ": cannot create the folder " + path.getParent()
                    + " of the archive: " + e, e);
        }
        return ArchiveLock.acquire(path, description, options.lockWait(), what);
    }


    /**
     * The archive's path with symbolic links resolved (in its folders, and the archive itself when
     * it exists): the lock file and leftovers lie beside the real archive, so writers that reach
     * one archive through different links exclude each other, and a write through a link to an
     * archive replaces the archive, not the link.
     */
    private static Path real(Path path) {
        try {
            if (Files.exists(path)) {
                return path.toRealPath();
            }
            Path parent = path.getParent();
            if (parent != null && Files.isDirectory(parent)) {
                return parent.toRealPath().resolve(path.getFileName());
            }
        } catch (IOException e) {
            // Unreadable on the way: the path as given, and the operation says what is wrong.
        }
        return path;
    }

    /** {@code ""} for the root, else the folder with one trailing {@code /}. */
    static String folderPrefix(String innerFolder) {
        if (innerFolder == null) {
            return "";
        }
        String f = innerFolder;
        while (f.startsWith("/")) {
            f = f.substring(1);
        }
        while (f.endsWith("/")) {
            f = f.substring(0, f.length() - 1);
        }
        if (f.isEmpty()) {
            return "";
        }
        try {
            return StoreKey.checkPrefix(f + "/");
        } catch (InvalidKeyException e) {
            throw new InvalidKeyException("inner folder '" + innerFolder + "' is not a valid folder path: " + e.detail());
        }
    }

    /**
     * Copies every key of {@code source} into a new archive at {@code zip}.
     *
     * @return the number of keys copied
     */
    public static long copy(Store source, Path zip, ZipStoreOptions options) {
        if (!source.capabilities().listable()) {
            throw new IllegalArgumentException(source.describe() + " is not listable, so it cannot be copied");
        }
        Path given = zip.toAbsolutePath().normalize();
        String description = "zip:" + given;
        Path path = real(given);
        ArchiveLock writeLock = lockForWriting(path, description, options, "copy");
        try {
            return copyLocked(source, path, description, options);
        } finally {
            writeLock.close();
        }
    }

    private static long copyLocked(Store source, Path path, String description, ZipStoreOptions options) {
        if (Files.exists(path)) {
            throw new StoreException(description + ": " + path + " already exists; copy writes a new archive only", null);
        }
        long copied = 0;
        StoreKey key = null;
        try (ZipWriter out = ZipWriter.begin(path, options)) {
            for (StoreKey k : source.list()) {
                key = k;
                Optional<ByteBuffer> v = source.get(k);
                if (v.isPresent()) { // else erased since it was listed
                    out.add(k.value(), v.get());
                    copied++;
                }
            }
            key = null;
            out.commit(false);
        } catch (FileAlreadyExistsException e) {
            throw new StoreException(description + ": " + path + " appeared while it was written; it was left as it is", e);
        } catch (IOException e) {
            throw new StoreException(description + ": cannot write the archive"
                    + (key == null ? "" : " (at key '" + key + "' of " + source.describe() + ")") + ": " + e, e);
        }
        return copied;
    }

    @Override
    public StoreCapabilities capabilities() {
        return mode == Mode.READ_ONLY ? StoreCapabilities.READ_ONLY : StoreCapabilities.READ_WRITE;
    }

    @Override
    public String describe() {
        return description;
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

    private Optional<ByteBuffer> read(StoreKey key, ByteRange range) {
        Lock l = open();
        try {
            Object where = locate(key);
            return where == null ? Optional.empty() : Optional.of(readAt(key, where, range));
        } finally {
            l.unlock();
        }
    }

    /**
     * Where the value of a key is now: its {@link Spill.Slot} when set since the store was opened,
     * else its {@link ArchiveEntry}; null when absent. Neither ever changes: the spill only grows,
     * and this store reads the archive it opened until it is closed. Called under {@link #open()}.
     */
    private Object locate(StoreKey key) {
        Spill.Slot slot = changes.get(key.value());
        if (slot == ERASED) {
            return null;
        }
        return slot != null ? slot : entry(key);
    }

    /** Reads {@code range} (the whole value when null) of a value {@link #locate} found. Called under {@link #open()}. */
    private ByteBuffer readAt(StoreKey key, Object where, ByteRange range) {
        if (where instanceof Spill.Slot slot) {
            long[] r = resolve(key, range, slot.length());
            try {
                return spill.read(slot, r[0], r[1] - r[0]);
            } catch (IOException e) {
                throw new StoreException(description + ": cannot read key '" + key + "' from the spill file "
                        + spill.path() + ": " + e, e);
            }
        }
        ArchiveEntry e = (ArchiveEntry) where;
        long[] r = resolve(key, range, e.size());
        return base.read(e, r[0], r[1]);
    }

    /**
     * Reads on from where the first read found the value (its place in the spill or its entry in
     * the archive this store opened), both of which never change, so a key set again meanwhile
     * does not mix two values in one partial decode. An archive replaced by another process is
     * not seen by a store that has it open in any case.
     */
    @Override
    public RangeReader rangeReader(StoreKey key) {
        Objects.requireNonNull(key, "key");
        return new RangeReader() {
            private volatile Object where;

            @Override
            public Optional<ByteBuffer> get(ByteRange range) {
                Objects.requireNonNull(range, "range");
                Lock l = open();
                try {
                    Object w = where;
                    if (w == null) {
                        w = locate(key);
                        where = w;
                    }
                    return w == null ? Optional.empty() : Optional.of(readAt(key, w, range));
                } finally {
                    l.unlock();
                }
            }

            @Override
            public boolean versioned() {
                return true;
            }
        };
    }

    /**
     * The archive's entry of an unchanged key, or null when there is none.
     *
     * @throws StoreException when the name is listed twice, or is a directory entry: such a key is
     *                        not absent, and its value cannot be told
     */
    private ArchiveEntry entry(StoreKey key) {
        if (base == null) {
            return null;
        }
        String conflict = base.conflict(folder + key.value());
        if (conflict != null) {
            throw new StoreException(description + ": key '" + key + "' " + conflict + " (entry '" + folder
                    + key.value() + "'); setting or erasing the key replaces it", null);
        }
        return base.files().get(folder + key.value());
    }

    private long[] resolve(StoreKey key, ByteRange range, long size) {
        if (range == null) {
            return new long[] {0, size};
        }
        try {
            return range.resolve(size);
        } catch (IllegalArgumentException e) {
            throw new StoreException(description + ": key '" + key + "': " + e.getMessage(), e);
        }
    }

    @Override
    public OptionalLong size(StoreKey key) {
        Lock l = open();
        try {
            Spill.Slot slot = changes.get(key.value());
            if (slot != null) {
                return slot == ERASED ? OptionalLong.empty() : OptionalLong.of(slot.length());
            }
            ArchiveEntry e = entry(key);
            return e == null ? OptionalLong.empty() : OptionalLong.of(e.size());
        } finally {
            l.unlock();
        }
    }

    @Override
    public boolean exists(StoreKey key) {
        return size(key).isPresent();
    }

    // ---- writable ----

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        requireWritable("set '" + key + "'");
        Lock l = open();
        try {
            Spill s = spill();
            try {
                changes.put(key.value(), s.append(value));
            } catch (IOException e) {
                throw new StoreException(description + ": cannot set key '" + key + "': writing the spill file "
                        + s.path() + " failed: " + e, e);
            }
        } finally {
            l.unlock();
        }
    }

    @Override
    public void erase(StoreKey key) {
        Objects.requireNonNull(key, "key");
        requireWritable("erase '" + key + "'");
        Lock l = open();
        try {
            changes.put(key.value(), ERASED);
        } finally {
            l.unlock();
        }
    }

    private void requireWritable(String what) {
        if (mode == Mode.READ_ONLY) {
            throw new ReadOnlyException(description + " is opened read-only; cannot " + what);
        }
    }

    /** The spill file, created beside the archive on the first write. */
    private Spill spill() {
        Spill s = spill;
        if (s == null) {
            synchronized (this) {
                s = spill;
                if (s == null) {
                    Path p = ZipWriter.sibling(archive, ".spill");
                    try {
                        Files.createDirectories(archive.getParent());
                        s = Spill.create(p);
                        guard.spill(s);
                    } catch (IOException e) {
                        throw new StoreException(description + ": cannot create the spill file " + p
                                + " that holds written values until the archive is written: " + e, e);
                    }
                    spill = s;
                }
            }
        }
        return s;
    }

    // ---- listable ----

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        StoreKey.checkPrefix(prefix);
        Lock l = open();
        try {
            List<String> keys = keys(prefix);
            List<StoreKey> out = new ArrayList<>(keys.size());
            for (String k : keys) {
                out.add(StoreKey.of(k));
            }
            return out;
        } finally {
            l.unlock();
        }
    }

    /** The sizes come from the central directory and the pending changes: no entry is read. */
    @Override
    public List<KeySize> listPrefixSizes(String prefix) {
        StoreKey.checkPrefix(prefix);
        Lock l = open();
        try {
            List<String> keys = keys(prefix);
            List<KeySize> out = new ArrayList<>(keys.size());
            for (String k : keys) {
                StoreKey key = StoreKey.of(k);
                Spill.Slot slot = changes.get(k);
                out.add(new KeySize(key, slot != null ? slot.length() : entry(key).size()));
            }
            return out;
        } finally {
            l.unlock();
        }
    }

    /** The keys under a prefix, sorted: the archive's entries merged with the pending changes. */
    private List<String> keys(String prefix) {
        List<String> keys = new ArrayList<>();
        if (base != null) {
            String from = folder + prefix;
            for (String name : base.files().tailMap(from, true).keySet()) {
                if (!name.startsWith(from)) {
                    break;
                }
                String key = name.substring(folder.length());
                if (!changes.containsKey(key)) {
                    keys.add(key);
                }
            }
        }
        boolean merged = false;
        for (Map.Entry<String, Spill.Slot> c : changes.tailMap(prefix, true).entrySet()) {
            if (!c.getKey().startsWith(prefix)) {
                break;
            }
            if (c.getValue() != ERASED) {
                keys.add(c.getKey());
                merged = true;
            }
        }
        if (merged) {
            keys.sort(null);
        }
        return keys;
    }

    // ---- maintenance ----

    /**
     * This archive's spill files ({@code .<name>.zarrj-<hex>.spill}) and unfinished archives
     * ({@code .<name>.zarrj-<hex>.tmp}) beside it. They are {@linkplain Leftover#live() live} when
     * a writer holds the archive's write lock (all of them: which are its own cannot be told from
     * outside), except that a store that is itself the writer knows its own spill file, and
     * that every other one is dead. Finding out whether another writer holds the lock takes the
     * lock for an instant.
     */
    @Override
    public List<Leftover> leftovers() {
        Lock l = open();
        try {
            List<Path> found = leftoverFiles();
            if (found.isEmpty()) {
                return List.of();
            }
            boolean otherWriter = writeLock == null && ArchiveLock.holder(archive).isPresent();
            List<Leftover> out = new ArrayList<>();
            for (Path p : found) {
                Leftover f = leftover(p, otherWriter || isOwn(p));
                if (f != null) {
                    out.add(f);
                }
            }
            return out;
        } catch (IOException e) {
            throw new StoreException(description + ": cannot look for leftovers beside the archive: " + e, e);
        } finally {
            l.unlock();
        }
    }

    /**
     * Removes the dead leftovers (see {@link #leftovers()}) last written at least
     * {@code minimumAge} ago. A store that is not the writer takes the archive's write lock while
     * it removes them, without waiting, so that no writer starts meanwhile; when another writer
     * holds it, nothing is removed.
     */
    @Override
    public List<Leftover> removeLeftovers(Duration minimumAge) {
        Objects.requireNonNull(minimumAge, "minimumAge");
        Lock l = open();
        try {
            if (leftoverFiles().isEmpty()) {
                return List.of();
            }
            ArchiveLock held = null;
            if (writeLock == null) {
                try {
                    held = ArchiveLock.acquire(archive, description, Duration.ZERO, "removing leftovers");
                } catch (ArchiveLock.HeldException busy) {
                    return List.of(); // a writer is running: its files are live
                }
            }
            RuntimeException failure = null;
            List<Leftover> removed = new ArrayList<>();
            try {
                Instant before = Instant.now().minus(minimumAge);
                for (Path p : leftoverFiles()) {
                    Leftover f = isOwn(p) ? null : leftover(p, false);
                    if (f != null && !f.modified().isAfter(before)) {
                        Files.deleteIfExists(p);
                        removed.add(f);
                    }
                }
            } catch (IOException e) {
                failure = new StoreException(description + ": cannot remove a leftover beside the archive ("
                        + removed.size() + " removed before): " + e, e);
            } finally {
                if (held != null) {
                    held.close();
                }
            }
            if (failure != null) {
                throw failure;
            }
            return removed;
        } catch (IOException e) {
            throw new StoreException(description + ": cannot look for leftovers beside the archive: " + e, e);
        } finally {
            l.unlock();
        }
    }

    /** The spill and temporary files of this archive beside it, sorted by name. */
    private List<Path> leftoverFiles() throws IOException {
        Pattern mine = Pattern.compile("\\." + Pattern.quote(archive.getFileName().toString())
                + "\\.zarrj-[0-9a-f]+\\.(spill|tmp)");
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(archive.getParent())) {
            for (Path p : dir) {
                if (mine.matcher(p.getFileName().toString()).matches()) {
                    out.add(p);
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        out.sort(null);
        return out;
    }

    private boolean isOwn(Path p) {
        Spill s = spill;
        return s != null && s.path().equals(p);
    }

    /** A leftover's description, or null when it is gone already. */
    private static Leftover leftover(Path p, boolean live) throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return new Leftover(p.toString(), a.size(), a.lastModifiedTime().toInstant(), live);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * As the default, plus the folders that only a directory entry names (an empty folder, or a
     * directory entry where a value is read): a folder is a prefix even with nothing in it, so
     * that a check walking the folders, like {@code zarr verify}, finds a directory entry where a
     * chunk should be.
     */
    @Override
    public ListDirResult listDir(String prefix) {
        ListDirResult fromKeys = Store.super.listDir(prefix);
        if (base == null || base.directories().isEmpty()) {
            return fromKeys;
        }
        Lock l = open();
        try {
            TreeSet<String> prefixes = new TreeSet<>(fromKeys.prefixes());
            String from = folder + prefix;
            for (String d : base.directories().tailSet(from, false)) {
                if (!d.startsWith(from)) {
                    break;
                }
                String child = d.substring(from.length());
                if (child.indexOf('/') < 0 && !changes.containsKey(prefix + child)) {
                    prefixes.add(prefix + child + "/");
                }
            }
            return new ListDirResult(fromKeys.keys(), new ArrayList<>(prefixes));
        } finally {
            l.unlock();
        }
    }

    // ---- lifecycle ----

    /** Takes the read lock, or fails when the store is closed. */
    private Lock open() {
        Lock l = lock.readLock();
        l.lock();
        if (closed) {
            l.unlock();
            throw new StoreException(description + " is closed", null);
        }
        return l;
    }

    /**
     * Writes the archive when this store changed it (or created it), then releases the archive and
     * deletes the spill file. A second call does nothing.
     *
     * @throws StoreException when the archive cannot be written; the old one (or none) is left in
     *                        place, and the writes made through this store are lost
     */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (guard != null) {
                guard.closing();
            }
            RuntimeException failure = null;
            try {
                if (mode == Mode.CREATE || (mode == Mode.UPDATE && !changes.isEmpty())) {
                    writeArchive();
                }
            } catch (RuntimeException e) {
                failure = e;
            }
            if (base != null) {
                base.close();
            }
            if (spill != null) {
                try {
                    spill.close();
                } catch (IOException e) {
                    StoreException s = new StoreException(description + ": cannot delete the spill file "
                            + spill.path() + ": " + e, e);
                    if (failure == null) {
                        failure = s;
                    } else {
                        failure.addSuppressed(s);
                    }
                }
            }
            if (writeLock != null) {
                // Released last: the next writer reads the archive moved into place above.
                writeLock.close();
                guard.closed();
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void writeArchive() {
        // Every entry of the new archive, sorted by name (stably: a name listed twice and not
        // changed stays so): an unchanged ArchiveEntry, or a slot in the spill. A key set or erased
        // replaces every entry of its name, and a directory entry of its name too.
        List<Map.Entry<String, Object>> plan = new ArrayList<>();
        if (base != null) {
            for (ArchiveEntry e : base.entries()) {
                String n = e.isDirectory() ? e.name().substring(0, e.name().length() - 1) : e.name();
                if (!n.startsWith(folder) || !changes.containsKey(n.substring(folder.length()))) {
                    plan.add(Map.entry(e.name(), e));
                }
            }
        }
        for (Map.Entry<String, Spill.Slot> c : changes.entrySet()) {
            if (c.getValue() != ERASED) {
                plan.add(Map.entry(folder + c.getKey(), c.getValue()));
            }
        }
        plan.sort(Map.Entry.comparingByKey());
        String name = null;
        try (ZipWriter out = ZipWriter.begin(archive, options)) {
            for (Map.Entry<String, Object> p : plan) {
                name = p.getKey();
                if (p.getValue() instanceof ArchiveEntry e) {
                    out.addRaw(e, base.raw(e));
                } else {
                    Spill.Slot s = (Spill.Slot) p.getValue();
                    out.add(name, s.length(), spill.stream(s));
                }
            }
            name = null;
            out.commit(mode == Mode.UPDATE);
        } catch (FileAlreadyExistsException e) {
            throw new StoreException(description + ": " + archive + " appeared after this store was created; "
                    + "it was left as it is and the new archive was not written", e);
        } catch (IOException e) {
            throw new StoreException(description + ": cannot write the archive" + (name == null ? "" : " (at entry '"
                    + name + "')") + "; the file on disk is unchanged: " + e, e);
        }
    }

    /** Bytes read from the archive file for values since it was opened (for tests). */
    long bytesReadFromArchive() {
        return base == null ? 0 : base.bytesRead();
    }

    @Override
    public String toString() {
        return "ZipStore[" + description + ", " + mode + "]";
    }
}
