/**
 * Zarr hierarchies inside zip archives: {@link dev.zarrj.store.zip.ZipStores} opens, creates and
 * fills them from Java code, with {@link dev.zarrj.store.zip.ZipStoreOptions}; stores named by
 * {@code zip:} URIs are found through the {@code zip} {@link dev.zarrj.api.store.StoreProvider}.
 *
 * <h2>{@code zip:} URIs</h2>
 *
 * <table>
 *   <caption>Accepted forms</caption>
 *   <tr><th>URI</th><th>names</th></tr>
 *   <tr><td>{@code zip:/data/set.zip}</td><td>the hierarchy at the root of {@code /data/set.zip}</td></tr>
 *   <tr><td>{@code zip:///data/set.zip}, {@code zip://localhost/data/set.zip}</td><td>the same</td></tr>
 *   <tr><td>{@code zip:file:///data/set.zip}, {@code zip:file:/data/set.zip}</td><td>the same, the archive
 *       given as a {@code file:} URI</td></tr>
 *   <tr><td>{@code zip:/data/set.zip!/inner/folder}</td><td>the hierarchy under the folder
 *       {@code inner/folder/} inside the archive (a trailing {@code /} is allowed; {@code !/} alone
 *       names the root)</td></tr>
 *   <tr><td>{@code zip:/data/my%20set.zip!/a%20b}</td><td>percent-escapes are decoded (UTF-8) after
 *       the split: the archive {@code /data/my set.zip}, the folder {@code a b/}</td></tr>
 *   <tr><td>{@code zip:/data/set.zip?wait=30s}</td><td>opened for writing, waits up to 30 s for
 *       another writer of the archive to finish ({@code 500ms}, {@code 2m}, {@code 1h}, {@code PT30S},
 *       {@code forever}; {@code ?wait} alone waits forever); without it, fails at once</td></tr>
 * </table>
 *
 * <p>The archive path is split from the folder at the first {@code !/}, as in {@code jar:} URIs;
 * write a {@code !} that belongs to a file name as {@code %21}. Refused with an
 * {@link java.lang.IllegalArgumentException}: a relative path ({@code zip:data/set.zip}), a host
 * other than {@code localhost}, a query other than {@code wait}, a fragment, and a folder that is not a valid key path
 * ({@code ..}, empty segments, backslashes). {@code Zarr.openStore("/data/set.zip")} maps a plain path
 * ending in {@code .zip} to {@code zip:/data/set.zip}. ({@code Zarr.openStore} reports a location its provider refuses as a
 * {@link dev.zarrj.api.StoreException} naming it.)
 *
 * <p>A store opened through the provider with {@code readOnly} false is an updatable store (see
 * {@link dev.zarrj.store.zip.ZipStores#update}): the archive need not exist, and <b>it is written
 * when the store is closed</b>, if anything changed, and not before (to a temporary file moved over
 * the old archive in one atomic rename, so that a crash, even SIGKILL, before that rename, or a
 * close that runs out of space, leaves the previous archive intact and loses the changes): close the store, or the
 * array or group that owns it ({@code zarr.openArray("data/set.zip", "/a")},
 * {@code builder.create("data/set.zip", "/a")}), best with try-with-resources. A store open for
 * writing that is never closed is reported: a {@link System.Logger} warning
 * ({@code dev.zarrj.store.zip}) when it is garbage-collected, a line on standard error when the
 * JVM exits with its changes not written.
 *
 * <h2>One writer at a time</h2>
 *
 * <p>A store open for writing (update, create, copy) holds the archive's write lock from before it
 * reads the archive until the new archive is in place: an exclusive file lock on the file
 * {@code .<name>.zarrj.lock} beside the archive, released by the operating system if the process
 * dies and deleted on release. A second writer, in another process or in the same one, fails when
 * it opens with a {@link dev.zarrj.api.StoreException} naming the archive and the holder
 * ("<i>zip:/data/set.zip</i> is being written by another process (pid 4711, since …)"), or waits
 * ({@link dev.zarrj.store.zip.ZipStoreOptions#withLockWait}, {@code ?wait=} in a URI) and then
 * reads what the first wrote. Read-only stores take no lock. A writer that crashed leaves spill
 * and temporary files beside the archive; {@link dev.zarrj.api.store.Store#leftovers()} reports
 * them, marked live while a writer holds the lock, and
 * {@link dev.zarrj.api.store.Store#removeLeftovers} removes the dead ones.
 */
package dev.zarrj.store.zip;
