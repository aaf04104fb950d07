package dev.zarrj.api.codec;

import dev.zarrj.api.ExtensionProvider;

/**
 * Creates {@link Codec}s from entries of an array's {@code codecs}. A
 * {@link java.util.ServiceLoader} service.
 */
public interface CodecProvider extends ExtensionProvider<Codec> {}
