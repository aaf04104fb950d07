package dev.zarrj.api.grid;

import dev.zarrj.api.ExtensionProvider;

/**
 * Creates {@link ChunkGrid}s from the {@code chunk_grid} of array metadata. A
 * {@link java.util.ServiceLoader} service; chunk grids are never skipped with
 * {@code "must_understand": false}.
 */
public interface ChunkGridProvider extends ExtensionProvider<ChunkGrid> {}
