package dev.zarrj.api.transformer;

import dev.zarrj.api.ExtensionProvider;

/** Creates {@link StorageTransformer}s. A {@link java.util.ServiceLoader} service. */
public interface StorageTransformerProvider extends ExtensionProvider<StorageTransformer> {}
