package dev.zarrj.conformance.core;

import static dev.zarrj.conformance.internal.extension.Extensions.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.conformance.ChunkGridContract;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.util.List;

/** The {@code regular} chunk grid against the chunk grid contract, with the spec's worked examples. */
class RegularChunkGridConformanceTest extends ChunkGridContract {
    @Override
    protected ChunkGridProvider provider() {
        return ExtensionRegistry.discover().find(ExtensionPoint.CHUNK_GRID, "regular", ChunkGridProvider.class)
                .orElseThrow();
    }

    /**
     * chunk-grids-regular-grid.rst: shape (10, 200, 3000) in chunks (5, 20, 400) is a (2, 10, 8)
     * grid, and element (7, 150, 900) is in chunk (1, 7, 2) at (2, 10, 100); its note: shape
     * (30, 30) in chunks (16, 16) has chunk (0, 1) overhanging the edge.
     */
    @Override
    protected List<GridExample> specExamples() {
        return List.of(
                new GridExample((ObjectNode) json("{\"chunk_shape\": [5, 20, 400]}"), new long[] {10, 200, 3000},
                        new long[] {2, 10, 8}, new long[] {7, 150, 900}, new long[] {1, 7, 2}, new long[] {2, 10, 100}),
                new GridExample((ObjectNode) json("{\"chunk_shape\": [16, 16]}"), new long[] {30, 30},
                        new long[] {2, 2}, new long[] {0, 29}, new long[] {0, 1}, new long[] {0, 13}),
                new GridExample((ObjectNode) json("{\"chunk_shape\": []}"), new long[0], new long[0], new long[0],
                        new long[0], new long[0]));
    }
}
