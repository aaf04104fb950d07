package dev.zarrj.codec.sharding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.CodecConfiguration;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.codec.blosc.BloscConfiguration;
import dev.zarrj.codec.gzip.GzipConfiguration;
import dev.zarrj.core.BytesConfiguration;
import dev.zarrj.core.Crc32cConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.TransposeConfiguration;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The array builder with the plugins' typed configurations, and {@code shards(...)}: the metadata
 * they write equals that of the JSON forms, and sharded arrays read back.
 */
class TypedShardsTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    private static final String GZIP1 = "{\"name\":\"gzip\",\"configuration\":{\"level\":1}}";
    private static final String INDEX = "[" + LE + ",{\"name\":\"crc32c\"}]";

    @TempDir
    Path tmp;

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void typedCompressorsWriteTheSameMetadataAsTheirJson() {
        assertEquals(ZARR.array(DataTypes.FLOAT32, 10, 10).chunks(5, 5)
                        .codecs("[" + LE + ",{\"name\":\"gzip\",\"configuration\":{\"level\":5}}]").toMetadata(),
                ZARR.array(DataTypes.FLOAT32, 10, 10).chunks(5, 5).codec(GzipConfiguration.level(5)).toMetadata());
        // blosc's typesize is left to the data type in both forms, and recorded as 4.
        String blosc = "{\"name\":\"blosc\",\"configuration\":{\"cname\":\"zstd\",\"clevel\":5,\"shuffle\":\"bitshuffle\","
                + "\"blocksize\":0}}";
        assertEquals(ZARR.array(DataTypes.FLOAT32, 10).codecs("[" + LE + "," + blosc + "]").toMetadata(),
                ZARR.array(DataTypes.FLOAT32, 10).codec(BloscConfiguration.of(BloscConfiguration.Compressor.ZSTD, 5,
                        BloscConfiguration.Shuffle.BITSHUFFLE)).toMetadata());
        assertEquals(4, ZARR.array(DataTypes.FLOAT32, 10).codec(BloscConfiguration.of(BloscConfiguration.Compressor.LZ4,
                1, BloscConfiguration.Shuffle.SHUFFLE)).toMetadata().at("/codecs/1/configuration/typesize").intValue());
    }

    @Test
    void aTypedShardingConfigurationWritesTheSameMetadataAsItsJson() throws Exception {
        String sharding = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,4],\"codecs\":["
                + "{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}}," + LE + "," + GZIP1
                + "],\"index_codecs\":[" + LE + "],\"index_location\":\"start\"}}";
        ShardingConfiguration typed = ShardingConfiguration.of(4, 4)
                .withCodecs(TransposeConfiguration.of(1, 0), BytesConfiguration.LITTLE_ENDIAN, GzipConfiguration.level(1))
                .withIndexCodecs(BytesConfiguration.LITTLE_ENDIAN)
                .withIndexLocation(IndexLocation.START);
        assertEquals(json(sharding), typed.toJson());
        assertEquals(ZARR.array(DataTypes.UINT16, 16, 16).chunks(8, 8).codecs("[" + sharding + "]").toMetadata(),
                ZARR.array(DataTypes.UINT16, 16, 16).chunks(8, 8).codec(typed).toMetadata());
        CodecConfiguration asInterface = typed;
        assertEquals(ShardingConfiguration.NAME, asInterface.name());
    }

    @Test
    void shardsBuildOneShardingCodecWhoseChunksRunTheCodecsGiven() throws Exception {
        JsonNode expected = ZARR.array(DataTypes.UINT16, 16, 12).chunks(8, 12)
                .codecs("[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,4],\"codecs\":[" + LE + ","
                        + GZIP1 + "],\"index_codecs\":" + INDEX + ",\"index_location\":\"end\"}}]")
                .toMetadata();
        JsonNode built = ZARR.array(DataTypes.UINT16, 16, 12).chunks(4, 4).shards(8, 12)
                .codec(GzipConfiguration.level(1)).toMetadata();
        assertEquals(expected, built);
        assertEquals("[8,12]", built.at("/chunk_grid/configuration/chunk_shape").toString());
        // The whole chain given, in order, becomes the chunks' chain.
        assertEquals(json("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"crc32c\"}]"),
                ZARR.array(DataTypes.UINT16, 16, 12).chunks(4, 4).shards(8, 12)
                        .codecs(BytesConfiguration.BIG_ENDIAN, Crc32cConfiguration.of())
                        .toMetadata().at("/codecs/0/configuration/codecs"));
        // Without chunks, a shard holds one chunk of its own shape.
        assertEquals("[8,12]", ZARR.array(DataTypes.UINT16, 16, 12).shards(8, 12).toMetadata()
                .at("/codecs/0/configuration/chunk_shape").toString());
    }

    @Test
    void aShardedArrayStoresOneObjectPerShardAndReadsBack() {
        short[] values = new short[16 * 12];
        for (int i = 0; i < values.length; i++) {
            values[i] = (short) (i * 7 + 1);
        }
        Path dir = tmp.resolve("sharded.zarr");
        try (ZarrArray a = ZARR.array(DataTypes.UINT16, 16, 12).chunks(4, 4).shards(8, 12)
                .codec(GzipConfiguration.level(1)).create(dir.toString(), "/a")) {
            a.write(new long[] {0, 0}, new long[] {16, 12}, values);
            Store store = a.store();
            List<StoreKey> stored = store.listPrefix("a/c/");
            assertEquals(List.of(StoreKey.of("a/c/0/0"), StoreKey.of("a/c/1/0")), stored, "two shards of 8×12");
        }
        try (Zarr other = Zarr.builder().threads(1).build();
                ZarrArray a = other.openArray(dir.toString(), "/a", true)) {
            assertArrayEquals(new long[] {4, 4}, innerChunkShape(a));
            assertArrayEquals(values, a.read().toShortArray());
            short[] region = a.read(new long[] {6, 3}, new long[] {4, 2}).toShortArray();
            assertEquals(values[6 * 12 + 3], region[0]);
            assertEquals(values[9 * 12 + 4], region[7]);
        }
    }

    private static long[] innerChunkShape(ZarrArray a) {
        JsonNode s = a.codecs().at("/0/configuration/chunk_shape");
        return new long[] {s.get(0).longValue(), s.get(1).longValue()};
    }

    @Test
    void shardsThatDoNotHoldWholeChunksAreRefused() {
        InvalidMetadataException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.UINT16, 16, 12).chunks(4, 5).shards(8, 12).toMetadata());
        assertTrue(e.getMessage().contains("[8, 12]") && e.getMessage().contains("[4, 5]"), e.getMessage());
    }
}
