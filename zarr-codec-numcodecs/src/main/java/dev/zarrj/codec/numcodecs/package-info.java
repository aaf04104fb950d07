/**
 * Typed configurations of the {@code numcodecs.*} codecs, for users who build array metadata in
 * code. The codecs themselves are found by the registry through {@link java.util.ServiceLoader}.
 */
package dev.zarrj.codec.numcodecs;
