package dev.zarrj.core.internal.grid.regular;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.api.grid.ChunkGridProvider;
import java.util.ArrayList;
import java.util.List;

/** Creates {@code regular} chunk grids from their metadata configuration. */
@AutoService(ChunkGridProvider.class)
public final class RegularChunkGridProvider implements ChunkGridProvider {
    static final String NAME = "regular";

    /** For {@link java.util.ServiceLoader}. */
    public RegularChunkGridProvider() {}

    @Override
    public String name() {
        return NAME;
    }

    /** Chunk shapes of rank 0 to 4, the spec's example (5, 20, 400) among them. */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        int[][] shapes = {{}, {1}, {7}, {5, 20, 400}, {2, 1, 3, 64}};
        List<ObjectNode> out = new ArrayList<>();
        for (int[] shape : shapes) {
            ObjectNode c = JsonNodeFactory.instance.objectNode();
            ArrayNode a = c.putArray("chunk_shape");
            for (int s : shape) {
                a.add(s);
            }
            out.add(c);
        }
        return out;
    }

    @Override
    public ChunkGrid create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("chunk_shape");
        return new RegularChunkGrid(config.longArrayField("chunk_shape", 1, Long.MAX_VALUE));
    }
}
