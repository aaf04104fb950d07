package dev.zarrj.core.api;

import static dev.zarrj.core.internal.testing.TestConfigs.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.codec.CodecConfiguration;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.BytesConfiguration;
import dev.zarrj.core.Crc32cConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.TransposeConfiguration;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteOrder;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The array builder with typed codec configurations and shards, against the JSON forms. */
class TypedCodecsTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    @Test
    void coreConfigurationsWriteTheSameMetadataAsTheirJson() {
        String chain = "[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},"
                + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"crc32c\"}]";
        assertEquals(ZARR.array(DataTypes.INT32, 6, 4).chunks(3, 2).codecs(chain).toMetadata(),
                ZARR.array(DataTypes.INT32, 6, 4).chunks(3, 2)
                        .codecs(TransposeConfiguration.of(1, 0), BytesConfiguration.BIG_ENDIAN, Crc32cConfiguration.of())
                        .toMetadata());
        assertEquals(json(chain), ZARR.array(DataTypes.INT32, 6, 4).chunks(3, 2)
                .codecs(TransposeConfiguration.of(1, 0), BytesConfiguration.of(ByteOrder.BIG_ENDIAN),
                        CodecConfiguration.of("crc32c"))
                .toMetadata().get("codecs"));
    }

    @Test
    void codecsAddedOneByOneGoInTheirPlace() {
        // Added in the "wrong" order: crc32c first, big endian bytes replacing the default, transpose last.
        ZarrArray a = ZARR.array(DataTypes.INT32, 6, 4).chunks(3, 2)
                .codec(Crc32cConfiguration.of())
                .codec(BytesConfiguration.BIG_ENDIAN)
                .codec(TransposeConfiguration.of(1, 0))
                .create(ZARR.openStore("memory:"), "/a");
        assertEquals(json("[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},"
                + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"crc32c\"}]"), a.codecs());
        int[] values = new int[24];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 1_000_003;
        }
        a.write(new long[] {0, 0}, new long[] {6, 4}, values);
        assertArrayEquals(values, a.read().toIntArray());
    }

    @Test
    void aByteWithoutEndianIsWrittenWithoutConfiguration() {
        assertEquals(json("[{\"name\":\"bytes\"}]"),
                ZARR.array(DataTypes.UINT8, 4).codecs(BytesConfiguration.NO_ENDIAN).toMetadata().get("codecs"));
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.INT16, 4).codecs(BytesConfiguration.NO_ENDIAN).toMetadata());
        assertTrue(e.getMessage().contains("bytes") && e.getMessage().contains("endian"), e.getMessage());
    }

    @Test
    void twoArrayToBytesCodecsAreRefusedNamingBoth() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.array(DataTypes.INT32, 4)
                .codec(BytesConfiguration.BIG_ENDIAN).codec(BytesConfiguration.LITTLE_ENDIAN).toMetadata());
        assertTrue(e.getMessage().contains("'bytes' and 'bytes'") && e.getMessage().contains("exactly one"),
                e.getMessage());
    }

    @Test
    void aBadConfigurationNamesTheCodecAndTheField() {
        InvalidMetadataException order = assertThrows(InvalidMetadataException.class,
                () -> TransposeConfiguration.of(0, 0));
        assertTrue(order.getMessage().contains("transpose") && order.getMessage().contains("[0, 0]"),
                order.getMessage());
        InvalidMetadataException rank = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.INT32, 4, 4).codec(TransposeConfiguration.of(2, 1, 0)).toMetadata());
        assertTrue(rank.getMessage().contains("transpose"), rank.getMessage());
        InvalidMetadataException field = assertThrows(InvalidMetadataException.class, () -> ZARR.array(DataTypes.INT32, 4)
                .codec(CodecConfiguration.of("crc32c", Map.of("level", 3))).toMetadata());
        assertTrue(field.getMessage().contains("crc32c") && field.getMessage().contains("level"), field.getMessage());
    }

    @Test
    void aCodecThatIsNotInstalledIsNamed() {
        UnknownExtensionException e = assertThrows(UnknownExtensionException.class,
                () -> ZARR.array(DataTypes.INT32, 4).codec(CodecConfiguration.of("no_such_codec")).toMetadata());
        assertEquals("no_such_codec", e.extensionName());
    }

    @Test
    void typedConfigurationsAreValues() {
        assertEquals(TransposeConfiguration.of(1, 0), TransposeConfiguration.of(1, 0));
        assertEquals(TransposeConfiguration.of(1, 0).hashCode(), TransposeConfiguration.of(1, 0).hashCode());
        int[] order = {1, 0};
        TransposeConfiguration t = TransposeConfiguration.of(order);
        order[0] = 0;
        t.order()[1] = 1;
        assertArrayEquals(new int[] {1, 0}, t.order());
        assertEquals("{\"name\":\"crc32c\"}", Crc32cConfiguration.of().toString());
        assertEquals("bytes", BytesConfiguration.LITTLE_ENDIAN.name());
    }

    @Test
    void shardsThatAreNotAMultipleOfTheChunksAreRefusedNamingBoth() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.INT32, 100, 100).chunks(30, 25).shards(90, 60).toMetadata());
        assertTrue(e.getMessage().contains("[90, 60]") && e.getMessage().contains("[30, 25]")
                && e.getMessage().contains("60 is not a multiple of 25"), e.getMessage());
        InvalidMetadataException rank = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.INT32, 100, 100).chunks(10, 10).shards(20).toMetadata());
        assertTrue(rank.getMessage().contains("[20]") && rank.getMessage().contains("[100, 100]"), rank.getMessage());
        InvalidMetadataException chunkRank = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.INT32, 100, 100).chunks(10).shards(20, 20).toMetadata());
        assertTrue(chunkRank.getMessage().contains("[10]"), chunkRank.getMessage());
        assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.INT32, 100).chunks(10).shards(0).toMetadata());
        assertThrows(IllegalArgumentException.class, () -> ZARR.array(DataTypes.INT32, 100).shards(10)
                .chunkGrid(json("{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[10]}}")).toMetadata());
    }

    @Test
    void shardsWithoutTheShardingModuleNameIt() {
        // zarr-core's tests run without zarr-codec-sharding.
        Store store = ZARR.openStore("memory:");
        UnknownExtensionException e = assertThrows(UnknownExtensionException.class,
                () -> ZARR.array(DataTypes.INT32, 100).chunks(10).shards(50).create(store, "/a"));
        assertEquals("sharding_indexed", e.extensionName());
        assertTrue(e.getMessage().contains("zarr-codec-sharding") || e.getMessage().contains("dev.zarrj.codec.sharding"),
                e.getMessage());
    }
}
