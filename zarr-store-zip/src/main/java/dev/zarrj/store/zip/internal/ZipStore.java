package dev.zarrj.store.zip.internal;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

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
 * bounded memory. The CRC-32 is checked whenever a whole value is read. Directory entries are not
 * keys; every folder is a prefix in {@code list_dir}. An archive with an entry name that could
 * leave it ({@code ..}, absolute, backslash, NUL), a repeated name or a symbolic link is refused
 * when opened, as is one without an end-of-central-directory record.
 *
 * <p>Writing (modes {@link Mode#UPDATE} and {@link Mode#CREATE}): zip cannot replace or remove an
 * entry in place, so each {@code set} appends its value to a temporary spill file beside the
 * archive ({@code .<name>.zarrj-<hex>.spill}) and records where it is; {@code erase} records a
 * removal. Reads see these changes at once, and the last {@code set} of a key wins. {@link #close()}
 * writes the new archive to a temporary file (unchanged entries copied still compressed, new ones
 * stored or deflated as the {@link ZipStoreOptions} say, every entry sorted by name), forces it to
 * the device, moves it over the archive atomically, and deletes the spill file. Nothing changed:
 * the archive is left as it is. A crash before {@code close} returns leaves the old archive intact.
 * {@code set_partial_values} is not supported.
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
    /** Keys set (their slot in the spill) or erased ({@link #ERASED}) since the store was opened. */
    private final ConcurrentSkipListMap<String, Spill.Slot> changes = new ConcurrentSkipListMap<>();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile Spill spill;
    private boolean closed;

    private ZipStore(Path archive, String folder, Mode mode, ZipStoreOptions options, ZipArchive base,
            String description) {
        this.archive = archive;
        this.folder = folder;
        this.mode = mode;
        this.options = options;
        this.base = base;
        this.description = description;
    }

    /**
     * Opens a store. {@code innerFolder} is {@code ""}, null, or a key path, with or without
     * leading and trailing {@code /}.
     *
     * @throws StoreException      when the archive cannot be opened in this mode
     * @throws InvalidKeyException when {@code innerFolder} is not a key path
     */
    public static ZipStore open(Path zip, String innerFolder, Mode mode, ZipStoreOptions options) {
        Path path = zip.toAbsolutePath().normalize();
        String folder = folderPrefix(innerFolder);
        String description = "zip:" + path + (folder.isEmpty() ? "" : "!/" + folder.substring(0, folder.length() - 1));
        ZipArchive base = null;
        switch (mode) {
            case READ_ONLY -> {
                base = ZipArchive.open(path, description);
                if (!folder.isEmpty() && !base.hasEntryUnder(folder)) {
                    base.close();
                    throw new StoreException(description + ": the archive has no entry under the folder '" + folder
                            + "'", null);
                }
            }
            case UPDATE -> base = Files.exists(path) ? ZipArchive.open(path, description) : null;
            case CREATE -> {
                if (Files.exists(path)) {
                    throw new StoreException(description + ": " + path + " already exists; a new archive does not "
                            + "replace it (delete it first, or open it with ZipStores.update)", null);
                }
            }
        }
        return new ZipStore(path, folder, mode, options, base, description);
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
        Path path = zip.toAbsolutePath().normalize();
        String description = "zip:" + path;
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
            Spill.Slot slot = changes.get(key.value());
            if (slot == ERASED) {
                return Optional.empty();
            }
            if (slot != null) {
                long[] r = resolve(key, range, slot.length());
                try {
                    return Optional.of(spill.read(slot, r[0], r[1] - r[0]));
                } catch (IOException e) {
                    throw new StoreException(description + ": cannot read key '" + key + "' from the spill file "
                            + spill.path() + ": " + e, e);
                }
            }
            ArchiveEntry e = entry(key);
            if (e == null) {
                return Optional.empty();
            }
            long[] r = resolve(key, range, e.size());
            return Optional.of(base.read(e, r[0], r[1]));
        } finally {
            l.unlock();
        }
    }

    private ArchiveEntry entry(StoreKey key) {
        return base == null ? null : base.files().get(folder + key.value());
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
            List<StoreKey> out = new ArrayList<>(keys.size());
            for (String k : keys) {
                out.add(StoreKey.of(k));
            }
            return out;
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
            if (failure != null) {
                throw failure;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void writeArchive() {
        // Every entry of the new archive by name: an unchanged ArchiveEntry, or a slot in the spill.
        NavigableMap<String, Object> plan = new TreeMap<>();
        if (base != null) {
            for (ArchiveEntry e : base.entries()) {
                if (e.isDirectory() || !e.name().startsWith(folder) || !changes.containsKey(e.name().substring(folder.length()))) {
                    plan.put(e.name(), e);
                }
            }
        }
        for (Map.Entry<String, Spill.Slot> c : changes.entrySet()) {
            if (c.getValue() != ERASED) {
                plan.put(folder + c.getKey(), c.getValue());
            }
        }
        String name = null;
        try (ZipWriter out = ZipWriter.begin(archive, options)) {
            for (Map.Entry<String, Object> p : plan.entrySet()) {
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
