package dev.zarrj.spark;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.api.grid.ChunkGridProvider;

/**
 * A chunk grid other than {@code regular}, as a plugin could bring one (test only, registered in
 * this module's test {@code META-INF/services}): chunks of 3 along every dimension, named
 * {@code test_threes}. The data source must refuse what it cannot plan.
 */
public final class ThreesGridProvider implements ChunkGridProvider {
    /** For {@link java.util.ServiceLoader}. */
    public ThreesGridProvider() {}

    @Override
    public String name() {
        return "test_threes";
    }

    @Override
    public ChunkGrid create(ExtensionConfig config, ProviderContext context) {
        int rank = (int) config.longArrayField("ranks", 1, 32)[0];
        return new ChunkGrid() {
            @Override
            public String name() {
                return "test_threes";
            }

            @Override
            public ObjectNode configuration() {
                ObjectNode c = JsonNodeFactory.instance.objectNode();
                c.putArray("ranks").add(rank);
                return c;
            }

            @Override
            public int rank() {
                return rank;
            }

            @Override
            public void validate(long[] arrayShape) {}

            @Override
            public long gridLength(int d, long arrayLength) {
                return (arrayLength + 2) / 3;
            }

            @Override
            public long chunkIndex(int d, long coordinate) {
                return coordinate / 3;
            }

            @Override
            public long chunkStart(int d, long index) {
                return index * 3;
            }

            @Override
            public long chunkLength(int d, long index) {
                return 3;
            }
        };
    }
}
