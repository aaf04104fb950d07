package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.codec.sharding.IndexLocation;
import dev.zarrj.codec.sharding.ShardingConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import org.junit.jupiter.api.Test;

/** Configuration parsing and validation: every error names the JSON pointer of the field. */
class ShardingCodecProviderTest {
    private static final String LE = TestChains.codec("bytes", "{\"endian\":\"little\"}");
    private static final String CRC = TestChains.codec("crc32c", null);
    private static final String GZIP = TestChains.codec("gzip", "{\"level\":1}");
    private static final FillValue ZERO = DataTypes.INT32.parseFillValue(IntNode.valueOf(0), "/fill_value");
    private static final String P = "/codecs/0/configuration";

    private static ChunkSpec shard(long... shape) {
        return new ChunkSpec(DataTypes.INT32, shape, ZERO);
    }

    private static InvalidMetadataException createFails(String configuration) {
        return assertThrows(InvalidMetadataException.class, () -> TestChains.sharding(configuration));
    }

    @Test
    void writesEveryFieldBackWithTheDefaultIndexLocation() {
        ShardingCodec c = TestChains.sharding("{\"chunk_shape\":[2,2],\"codecs\":[" + LE + "],\"index_codecs\":["
                + LE + "," + CRC + "]}");
        assertEquals(TestChains.json("{\"chunk_shape\":[2,2],\"codecs\":[" + LE + "],\"index_codecs\":[" + LE + ","
                + CRC + "],\"index_location\":\"end\"}"), c.configuration());
        assertEquals("sharding_indexed", c.toJson().get("name").asText());
        assertEquals(IndexLocation.END, c.shardingConfiguration().indexLocation());
        assertEquals(c, TestChains.sharding(c.configuration().toString()));
    }

    @Test
    void typedConfigurationBuildsTheSameDocument() {
        ShardingConfiguration cfg = ShardingConfiguration.of(2, 2).withIndexLocation(IndexLocation.START);
        ShardingCodec c = TestChains.sharding(cfg.configurationJson().toString());
        assertEquals(cfg, c.shardingConfiguration());
        assertEquals("start", cfg.toJson().get("configuration").get("index_location").asText());
        assertThrows(InvalidMetadataException.class, () -> ShardingConfiguration.of(2, 0));
    }

    @Test
    void innerChunkShapeOfTheWrongRankNamesChunkShape() {
        ShardingCodec c = TestChains.sharding("{\"chunk_shape\":[2],\"codecs\":[" + LE + "],\"index_codecs\":[" + LE + "]}");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> c.checkSupported(shard(4, 4)));
        assertEquals(P + "/chunk_shape", e.pointer());
        assertTrue(e.getMessage().contains("1 dimensions") && e.getMessage().contains("[4, 4]"), e.getMessage());
    }

    @Test
    void innerChunkShapeThatDoesNotDivideTheShardNamesTheDimension() {
        ShardingCodec c = TestChains.sharding("{\"chunk_shape\":[2,3],\"codecs\":[" + LE + "],\"index_codecs\":[" + LE + "]}");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> c.checkSupported(shard(4, 4)));
        assertEquals(P + "/chunk_shape/1", e.pointer());
        assertTrue(e.getMessage().contains("4 is not a multiple of 3"), e.getMessage());
        c.checkSupported(shard(4, 6));
    }

    @Test
    void compressedIndexCodecsAreRefusedOnCreate() {
        InvalidMetadataException e = createFails("{\"chunk_shape\":[2],\"codecs\":[" + LE + "],\"index_codecs\":["
                + LE + "," + GZIP + "]}");
        assertEquals(P + "/index_codecs", e.pointer());
        assertTrue(e.getMessage().contains("fixed size"), e.getMessage());
    }

    @Test
    void chainsWithoutExactlyOneArrayToBytesCodecNameTheChain() {
        InvalidMetadataException none = createFails("{\"chunk_shape\":[2],\"codecs\":[],\"index_codecs\":[" + LE + "]}");
        assertTrue(none.pointer().startsWith(P + "/codecs"), none.pointer());
        InvalidMetadataException two = createFails("{\"chunk_shape\":[2],\"codecs\":[" + LE + "],\"index_codecs\":["
                + LE + "," + LE + "]}");
        assertTrue(two.pointer().startsWith(P + "/index_codecs"), two.pointer());
        InvalidMetadataException gzipOnly = createFails("{\"chunk_shape\":[2],\"codecs\":[" + GZIP
                + "],\"index_codecs\":[" + LE + "]}");
        assertTrue(gzipOnly.pointer().startsWith(P + "/codecs"), gzipOnly.pointer());
    }

    @Test
    void fieldErrorsNameTheField() {
        assertEquals(P + "/index_location", createFails("{\"chunk_shape\":[2],\"codecs\":[" + LE
                + "],\"index_codecs\":[" + LE + "],\"index_location\":\"middle\"}").pointer());
        assertEquals(P + "/index_codecs", createFails("{\"chunk_shape\":[2],\"codecs\":[" + LE + "]}").pointer());
        assertEquals(P + "/codecs", createFails("{\"chunk_shape\":[2],\"index_codecs\":[" + LE + "]}").pointer());
        assertEquals(P + "/chunk_shape/1", createFails("{\"chunk_shape\":[2,0],\"codecs\":[" + LE
                + "],\"index_codecs\":[" + LE + "]}").pointer());
        assertEquals(P + "/chunk_shape", createFails("{\"codecs\":[" + LE + "],\"index_codecs\":[" + LE + "]}").pointer());
        assertEquals(P + "/extra", createFails("{\"chunk_shape\":[2],\"codecs\":[" + LE + "],\"index_codecs\":["
                + LE + "],\"extra\":1}").pointer());
    }

    @Test
    void encodedSizeIsBoundedByEveryInnerChunkPlusTheIndex() {
        ShardingCodec c = TestChains.sharding("{\"chunk_shape\":[2,2],\"codecs\":[" + LE + "],\"index_codecs\":["
                + LE + "," + CRC + "]}");
        // 4 inner chunks of 2x2 int32 (16 bytes each) + 4 * 16 + 4 index bytes
        assertEquals(EncodedSize.bounded(4 * 16 + 68), c.encodedSize(shard(4, 4)));
        ShardingCodec gz = TestChains.sharding("{\"chunk_shape\":[2,2],\"codecs\":[" + LE + "," + GZIP
                + "],\"index_codecs\":[" + LE + "]}");
        assertInstanceOf(EncodedSize.Bounded.class, gz.encodedSize(shard(4, 4)));
    }

    @Test
    void badConfigurationFailsArrayCreationThroughCore() {
        Zarr zarr = Zarr.defaults();
        String codecs = "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[3,2],\"codecs\":[" + LE
                + "],\"index_codecs\":[" + LE + "]}}]";
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> zarr.array(DataTypes.INT32, 8, 8)
                .chunks(4, 4).codecs(codecs).create(zarr.openStore("memory:"), "/a"));
        assertTrue(e.getMessage().contains("/codecs/0/configuration/chunk_shape/0"), e.getMessage());
    }

    @Test
    void nestedErrorsNameTheNestedPointer() {
        String inner = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2],\"codecs\":[" + LE
                + "],\"index_codecs\":[" + LE + "," + GZIP + "]}}";
        InvalidMetadataException e = createFails("{\"chunk_shape\":[4],\"codecs\":[" + inner + "],\"index_codecs\":["
                + LE + "]}");
        assertEquals(P + "/codecs/0/configuration/index_codecs", e.pointer());
    }

    @Test
    void resolvesInnerDefaults() {
        ShardingCodec c = TestChains.sharding("{\"chunk_shape\":[2],\"codecs\":[" + TestChains.codec("bytes", null)
                + "],\"index_codecs\":[" + LE + "]}");
        var resolved = (ShardingCodec) c.resolveDefaults(shard(4));
        assertEquals("little", resolved.configuration().get("codecs").get(0).get("configuration").get("endian").asText());
        resolved.checkSupported(shard(4));
        assertThrows(InvalidMetadataException.class, () -> c.checkSupported(shard(4)));
    }

    @Test
    void newArraysRecordIndexLocationEvenWhenLeftOut() {
        Zarr zarr = Zarr.defaults();
        String nested = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2],\"codecs\":[" + LE
                + "],\"index_codecs\":[" + LE + "]}}";
        var a = zarr.array(DataTypes.INT32, 8).chunks(8).codecs("[{\"name\":\"sharding_indexed\",\"configuration\":"
                + "{\"chunk_shape\":[4],\"codecs\":[" + nested + "],\"index_codecs\":[" + LE + "]}}]")
                .create(zarr.openStore("memory:"), "/a");
        var sharding = a.metadata().get("codecs").get(0).get("configuration");
        assertEquals("end", sharding.get("index_location").asText());
        assertEquals("end", sharding.get("codecs").get(0).get("configuration").get("index_location").asText());
    }
}
