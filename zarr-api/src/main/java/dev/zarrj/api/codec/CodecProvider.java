package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ExtensionProvider;
import org.apiguardian.api.API;

/**
 * Creates {@link Codec}s from entries of an array's {@code codecs}. A
 * {@link java.util.ServiceLoader} service.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface CodecProvider extends ExtensionProvider<Codec> {}
