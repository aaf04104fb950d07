/**
 * zarrs' {@code optional} data type and codec: {@link dev.zarrj.ext.optional.OptionalType} (elements
 * that may be missing, with typed access to masks and values) and
 * {@link dev.zarrj.ext.optional.OptionalConfiguration} (the codec's mask and data chains).
 */
package dev.zarrj.ext.optional;
