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
 * </table>
 *
 * <p>The archive path is split from the folder at the first {@code !/}, as in {@code jar:} URIs;
 * write a {@code !} that belongs to a file name as {@code %21}. Refused with an
 * {@link java.lang.IllegalArgumentException}: a relative path ({@code zip:data/set.zip}), a host
 * other than {@code localhost}, a query, a fragment, and a folder that is not a valid key path
 * ({@code ..}, empty segments, backslashes). {@code Zarr.openStore("/data/set.zip")} maps a plain path
 * ending in {@code .zip} to {@code zip:/data/set.zip}.
 *
 * <p>A store opened through the provider with {@code readOnly} false is an updatable store (see
 * {@link dev.zarrj.store.zip.ZipStores#update}): the archive need not exist, and it is written
 * when the store is closed, if anything changed.
 */
package dev.zarrj.store.zip;
