package dev.zarrj.api.grid;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ExtensionProvider;
import org.apiguardian.api.API;

/**
 * Creates {@link ChunkGrid}s from the {@code chunk_grid} of array metadata. A
 * {@link java.util.ServiceLoader} service; chunk grids are never skipped with
 * {@code "must_understand": false}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ChunkGridProvider extends ExtensionProvider<ChunkGrid> {}
