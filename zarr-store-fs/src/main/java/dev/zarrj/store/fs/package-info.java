/**
 * Opens file system stores from Java code: {@link dev.zarrj.store.fs.FileStores} and its
 * {@link dev.zarrj.store.fs.FileStoreOptions}. Stores named by {@code file:} URIs are found through
 * the {@code file} {@link dev.zarrj.api.store.StoreProvider} instead.
 */
package dev.zarrj.store.fs;
