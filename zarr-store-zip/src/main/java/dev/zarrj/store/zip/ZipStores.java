package dev.zarrj.store.zip;

import static org.apiguardian.api.API.Status.STABLE;

import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.store.zip.internal.ZipStore;
import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Opens, creates and fills zip archives that hold a Zarr hierarchy, at the archive's root or under
 * a folder inside it.
 *
 * <p>A key {@code c/0/1} is the entry {@code <folder>/c/0/1}; directory entries are not keys.
 * Stored entries are read in place with positional reads (a range read reads only the range);
 * deflated entries are inflated. Every store returned is thread-safe. Archives whose entry names
 * could leave the archive ({@code ..}, absolute, backslashes, NUL), or that have no
 * end-of-central-directory record, are refused when opened; a key whose name is listed twice, or
 * is a directory entry, fails when read, naming the key. See the
 * {@linkplain dev.zarrj.store.zip package} for {@code zip:} URIs.
 *
 * <p><b>One writer at a time.</b> {@link #update}, {@link #create} and {@link #copy} take the
 * archive's write lock before they read it, and hold it until the new archive is in place: an
 * exclusive file lock on {@code .<name>.zarrj.lock} beside the archive, which the operating
 * system releases if the process dies, and which is deleted on release. A second writer, in
 * another process or in this one, fails with a {@link StoreException} "<i>archive</i> is being
 * written by another process (pid …)", or waits for the first to finish when
 * {@link ZipStoreOptions#withLockWait} says so, and then reads what the first wrote. {@link #open}
 * (read-only) takes no lock and is never blocked; it reads the archive as it was when opened.
 *
 * <pre>{@code
 * try (Store zip = ZipStores.create(Path.of("out.zip"))) {      // written when closed
 *     zip.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(json));
 * }
 * try (Store zip = ZipStores.open(Path.of("out.zip"), "")) {    // read-only
 *     ByteBuffer json = zip.get(StoreKey.of("zarr.json")).orElseThrow();
 * }
 * ZipStores.copy(FileStores.open(Path.of("set.zarr"), true), Path.of("set.zip"));
 * }</pre>
 *
 * <p><b>Written on close.</b> A store from {@link #update} or {@link #create} writes the archive
 * only in {@link Store#close()}, to a temporary file moved over the old archive in one atomic
 * rename: a crash before that rename (the process killed, the machine stopped) or a {@code close}
 * that fails (the disk full) leaves the previous archive intact, and every change of the store is
 * lost. A store that is never closed loses every change. Use
 * try-with-resources (or {@code Zarr.openArray(uri, path)}, whose array owns and closes its
 * store). A writer that is never closed is reported: when it is garbage-collected, a warning
 * through {@link System.Logger} {@code dev.zarrj.store.zip} (and its lock and spill file are
 * released); when the JVM exits with changes not written, a line on standard error.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class ZipStores {
    private ZipStores() {}

    /**
     * Opens an archive for reading. The store is readable and listable; every write is refused with
     * a {@link dev.zarrj.api.ReadOnlyException} naming the archive. Close it to release the file.
     *
     * @param zip         the archive
     * @param innerFolder the folder inside the archive that holds the hierarchy, for example
     *                    {@code "data/set.zarr"}; {@code ""} or null for the archive's root
     * @throws StoreException      when the archive is missing, incomplete, corrupt, has an unsafe
     *                             entry name, or has no entry under {@code innerFolder}
     * @throws InvalidKeyException when {@code innerFolder} is not a valid key path
     */
    public static Store open(Path zip, String innerFolder) {
        return ZipStore.open(Objects.requireNonNull(zip, "zip"), innerFolder, ZipStore.Mode.READ_ONLY,
                ZipStoreOptions.defaults());
    }

    /**
     * Opens an archive, or a path where one will be, for reading and writing; <b>the archive is
     * written when the store is closed, and only then</b>: close it. Reads see the archive
     * with the writes made through this store; {@code set} replaces a value (the last write wins)
     * and {@code erase} removes one. Zip cannot replace an entry in place, so written values are
     * kept in a temporary file beside the archive, and {@link Store#close()} writes the new archive
     * to another temporary file and moves it over {@code zip} atomically, copying every unchanged
     * entry as it is (entries outside {@code innerFolder} included). Nothing changed: the file is
     * not touched. The archive on disk stays the old one, byte for byte, until that move near the
     * end of {@code close}: a process that dies before it (killed, even with SIGKILL, or out of
     * memory) or a {@code close} that fails (a full disk) leaves the old archive intact and loses
     * this store's changes; the temporary files ({@code .<name>.zarrj-*.spill} and {@code .tmp})
     * are left for {@link Store#removeLeftovers}. The store holds the archive's write lock from
     * this call until {@code close} returns (see above).
     *
     * @param zip         the archive; it need not exist, and then is created by {@code close}
     *                    (its folder is created now, when missing, to hold the lock file)
     * @param innerFolder the folder that holds the hierarchy; {@code ""} or null for the root
     * @param options     how new entries are written, and how long to wait for another writer
     * @throws StoreException      when {@code zip} exists and is not a readable, complete, safe
     *                             archive, or another writer holds it (for longer than
     *                             {@link ZipStoreOptions#lockWait()})
     * @throws InvalidKeyException when {@code innerFolder} is not a valid key path
     */
    public static Store update(Path zip, String innerFolder, ZipStoreOptions options) {
        return ZipStore.open(Objects.requireNonNull(zip, "zip"), innerFolder, ZipStore.Mode.UPDATE,
                Objects.requireNonNull(options, "options"));
    }

    /** Creates a new archive with {@linkplain ZipStoreOptions#defaults() stored entries}; see {@link #create(Path, ZipStoreOptions)}. */
    public static Store create(Path zip) {
        return create(zip, ZipStoreOptions.defaults());
    }

    /**
     * Creates a new archive, <b>written when the store is closed, and only then</b> (an empty
     * archive if nothing was set), as {@link #update} does; the hierarchy is at the archive's root.
     *
     * @throws StoreException when {@code zip} already exists (also checked again on close), or
     *                        another writer holds it
     */
    public static Store create(Path zip, ZipStoreOptions options) {
        return ZipStore.open(Objects.requireNonNull(zip, "zip"), "", ZipStore.Mode.CREATE,
                Objects.requireNonNull(options, "options"));
    }

    /** Copies a store into a new archive with stored entries; see {@link #copy(Store, Path, ZipStoreOptions)}. */
    public static long copy(Store source, Path zip) {
        return copy(source, zip, ZipStoreOptions.defaults());
    }

    /**
     * Copies every key of a listable store into a new archive, at its root, in key order. The
     * archive is written to a temporary file and moved into place when complete; values are read
     * one at a time. ZIP64 records are written when the archive passes 4 GiB or 65 535 entries.
     * The archive's write lock is held throughout.
     *
     * @return the number of keys copied
     * @throws StoreException           when {@code zip} already exists, another writer holds it,
     *                                  or reading or writing fails
     * @throws IllegalArgumentException when {@code source} is not listable
     */
    public static long copy(Store source, Path zip, ZipStoreOptions options) {
        return ZipStore.copy(Objects.requireNonNull(source, "source"), Objects.requireNonNull(zip, "zip"),
                Objects.requireNonNull(options, "options"));
    }
}
