/**
 * Typed configuration of the {@code zstd} codec, for users who build array metadata in code.
 * The codec itself is found by the registry through {@link java.util.ServiceLoader}.
 */
package dev.zarrj.codec.zstd;
