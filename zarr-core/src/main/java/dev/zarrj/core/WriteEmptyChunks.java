package dev.zarrj.core;

/**
 * What a write does with a chunk whose every element equals the fill value.
 */
public enum WriteEmptyChunks {
    /** Do not store it, and erase a stored one: absent chunks read as the fill value. The default. */
    SKIP,
    /** Store it like any other chunk. */
    STORE
}
