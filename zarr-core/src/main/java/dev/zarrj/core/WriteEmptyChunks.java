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
    /** Do not store it, and erase a stored one: absent chunks read as the fill value. The default. */
    SKIP,
    /** Store it like any other chunk. */
    STORE
}
