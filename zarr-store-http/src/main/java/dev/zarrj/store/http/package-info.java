/**
 * Opens HTTP stores from Java code: {@link dev.zarrj.store.http.HttpStores} and its
 * {@link dev.zarrj.store.http.HttpStoreOptions}. Stores named by {@code http:} and {@code https:}
 * URIs are found through the {@code http} and {@code https}
 * {@link dev.zarrj.api.store.StoreProvider}s instead, with the default options and those of the
 * URI's query ({@code ?connect-timeout=5s&request-timeout=2m&max-concurrent-requests=64}).
 */
package dev.zarrj.store.http;
