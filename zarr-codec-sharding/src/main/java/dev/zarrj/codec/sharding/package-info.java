/**
 * Typed configuration of the {@code sharding_indexed} codec, for users who build array metadata in
 * code. The codec itself is found by the registry through {@link java.util.ServiceLoader}.
 */
package dev.zarrj.codec.sharding;
