package dev.zarrj.api.transformer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ExtensionProvider;
import org.apiguardian.api.API;

/**
 * Creates {@link StorageTransformer}s. A {@link java.util.ServiceLoader} service.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface StorageTransformerProvider extends ExtensionProvider<StorageTransformer> {}
