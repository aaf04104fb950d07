package dev.zarrj.core.registry;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.zarrj.api.NamedProvider;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.api.transformer.StorageTransformerProvider;
import org.apiguardian.api.API;

/**
 * The extension points of Zarr v3, plus stores (found by URI scheme) and metadata formats, with
 * their provider types.
 *
 * @since 0.1
 */
@API(status = INTERNAL, since = "0.1")
public enum ExtensionPoint {
    /** {@code data_type}; never skippable. */
    DATA_TYPE("data type", DataTypeProvider.class, false),
    /** {@code chunk_grid}; never skippable. */
    CHUNK_GRID("chunk grid", ChunkGridProvider.class, false),
    /** {@code chunk_key_encoding}; never skippable. */
    CHUNK_KEY_ENCODING("chunk key encoding", ChunkKeyEncodingProvider.class, false),
    /** An entry of {@code codecs}. */
    CODEC("codec", CodecProvider.class, true),
    /** An entry of {@code storage_transformers}. */
    STORAGE_TRANSFORMER("storage transformer", StorageTransformerProvider.class, true),
    /** A store, by URI scheme (not named in metadata). */
    STORE("store", StoreProvider.class, false),
    /** A metadata format other than Zarr v3's, by name ({@code v2}); not named in metadata. */
    METADATA_FORMAT("metadata format", MetadataFormat.class, false);

    private final String label;
    private final Class<? extends NamedProvider> providerType;
    private final boolean skippable;

    ExtensionPoint(String label, Class<? extends NamedProvider> providerType, boolean skippable) {
        this.label = label;
        this.providerType = providerType;
        this.skippable = skippable;
    }

    /** A human-readable name, for messages ({@code "codec"}). */
    public String label() {
        return label;
    }

    /** The provider interface that is the {@link java.util.ServiceLoader} service. */
    public Class<? extends NamedProvider> providerType() {
        return providerType;
    }

    /**
     * Whether an unknown extension of this point may be skipped when it says
     * {@code "must_understand": false} (not for data types, chunk grids and key encodings).
     */
    public boolean skippable() {
        return skippable;
    }
}
