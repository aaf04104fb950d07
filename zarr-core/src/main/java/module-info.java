import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.api.transformer.StorageTransformerProvider;

/**
 * The zarrj user API ({@code Zarr}, {@code ZarrArray}, {@code ZarrGroup}), metadata, the extension
 * registry, the codec pipeline, and the core extensions: data types, the {@code regular} grid, the
 * {@code default} and {@code v2} key encodings, the {@code bytes}, {@code transpose} and
 * {@code crc32c} codecs, and the in-memory store.
 *
 * @uses DataTypeProvider
 * @uses ChunkGridProvider
 * @uses ChunkKeyEncodingProvider
 * @uses CodecProvider
 * @uses StorageTransformerProvider
 * @uses StoreProvider
 * @uses MetadataFormat
 * @provides DataTypeProvider the core data types
 * @provides ChunkGridProvider {@code regular}
 * @provides ChunkKeyEncodingProvider {@code default}, {@code v2}
 * @provides CodecProvider {@code bytes}, {@code transpose}, {@code crc32c}
 * @provides StoreProvider {@code memory}
 */
module dev.zarrj.core {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.core;
    exports dev.zarrj.core.registry;
    exports dev.zarrj.core.selection;

    uses DataTypeProvider;
    uses ChunkGridProvider;
    uses ChunkKeyEncodingProvider;
    uses CodecProvider;
    uses StorageTransformerProvider;
    uses StoreProvider;
    uses MetadataFormat;

    provides DataTypeProvider with
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Bool,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Int8,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Int16,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Int32,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Int64,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.UInt8,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.UInt16,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.UInt32,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.UInt64,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Float16,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Float32,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Float64,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Complex64,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Complex128,
            dev.zarrj.core.internal.datatype.CoreDataTypeProviders.Raw;
    provides ChunkGridProvider with dev.zarrj.core.internal.grid.regular.RegularChunkGridProvider;
    provides ChunkKeyEncodingProvider with
            dev.zarrj.core.internal.keyencoding.DefaultChunkKeyEncodingProvider,
            dev.zarrj.core.internal.keyencoding.V2ChunkKeyEncodingProvider;
    provides CodecProvider with
            dev.zarrj.core.internal.codec.bytes.BytesCodecProvider,
            dev.zarrj.core.internal.codec.transpose.TransposeCodecProvider,
            dev.zarrj.core.internal.codec.crc32c.Crc32cCodecProvider;
    provides StoreProvider with dev.zarrj.core.internal.store.memory.MemoryStoreProvider;

    // provides: each built-in extension adds its line here.
}
