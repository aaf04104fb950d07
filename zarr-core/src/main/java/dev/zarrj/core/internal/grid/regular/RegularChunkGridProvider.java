package dev.zarrj.core.internal.grid.regular;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.api.grid.ChunkGridProvider;

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

    @Override
    public ChunkGrid create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("chunk_shape");
        return new RegularChunkGrid(config.longArrayField("chunk_shape", 1, Long.MAX_VALUE));
    }
}
