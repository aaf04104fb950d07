package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What a store supports, grouped as the spec's abstract store interface groups it. Callers check
 * these instead of calling and catching; a store refuses an operation it does not declare with a
 * {@link dev.zarrj.api.ReadOnlyException} or {@link UnsupportedOperationException}.
 *
 * @param readable          get, get_partial_values
 * @param writable          set, erase, erase_values, erase_prefix
 * @param partialWrites     set_partial_values
 * @param listable          list, list_prefix, list_dir
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record StoreCapabilities(boolean readable, boolean writable, boolean partialWrites, boolean listable) {
    /** A readable, listable, read-only store. */
    public static final StoreCapabilities READ_ONLY = new StoreCapabilities(true, false, false, true);
    /** A readable, writable, listable store without partial writes. */
    public static final StoreCapabilities READ_WRITE = new StoreCapabilities(true, true, false, true);
}
