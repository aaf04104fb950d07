package dev.zarrj.core;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * What a write does with a chunk whose every element equals the fill value.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public enum WriteEmptyChunks {
    /**
     * Do not store it, and erase a stored one: absent chunks read as the fill value. The default.
     * One exception: on a store with conditional writes ({@code Store.conditionalWrites()}), a
     * stored chunk that a partial write leaves all fill value is stored as such, not erased,
     * since an erase cannot be conditional and could drop another process's concurrent write.
     */
    SKIP,
    /** Store it like any other chunk. */
    STORE
}
