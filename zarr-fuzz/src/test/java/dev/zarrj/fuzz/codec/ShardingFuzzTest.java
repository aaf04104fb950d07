package dev.zarrj.fuzz.codec;

import static dev.zarrj.fuzz.codec.CodecFuzz.array;
import static dev.zarrj.fuzz.codec.CodecFuzz.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.core.DataTypes;
import java.util.List;

/**
 * {@code sharding_indexed} on fuzzed shards: the shard index at the start and at the end, with and
 * without {@code crc32c} on the index, inner chunks with their own codecs, and a shard of shards.
 * The whole array is read (every inner chunk decoded), then a region (one element, or from a point
 * to the end of the shard) through the partial decoder, which fetches the index and only the inner
 * chunks the region needs; the two must agree. An input is a menu byte, a region byte and the
 * shard (see {@link CodecFuzz}).
 */
class ShardingFuzzTest {
    static final long[] SHAPE = {8, 6};
    static final long[] SHARD = {8, 6};
    private static final String LE = codec("bytes", "{\"endian\":\"little\"}");
    private static final String CRC = codec("crc32c", null);

    static final CodecFuzz.Menu SHARDS = new CodecFuzz.Menu(List.of(
            array("shard-end-crc-bytes", DataTypes.INT16, SHAPE, SHARD,
                    sharding("[2,3]", "end", "[" + LE + "]", "[" + LE + "," + CRC + "]")),
            array("shard-start-crc-gzip", DataTypes.INT32, SHAPE, SHARD,
                    sharding("[4,2]", "start", "[" + LE + "," + codec("gzip", "{\"level\":1}") + "]",
                            "[" + LE + "," + CRC + "]")),
            array("shard-end-nocrc-innercrc", DataTypes.UINT8, SHAPE, SHARD,
                    sharding("[2,2]", "end", "[" + codec("bytes", null) + "," + CRC + "]", "[" + LE + "]")),
            array("shard-start-nocrc-transpose-zstd", DataTypes.FLOAT32, SHAPE, SHARD,
                    sharding("[4,3]", "start", "[" + codec("transpose", "{\"order\":[1,0]}") + ","
                            + codec("bytes", "{\"endian\":\"big\"}") + ","
                            + codec("zstd", "{\"level\":1,\"checksum\":false}") + "]", "[" + LE + "]")),
            array("shard-nested-end-crc", DataTypes.INT16, SHAPE, SHARD,
                    sharding("[4,6]", "end", "[" + sharding("[2,3]", "start", "[" + LE + "]", "[" + LE + "," + CRC
                            + "]") + "]", "[" + LE + "," + CRC + "]")),
            array("shard-end-crc-blosc", DataTypes.FLOAT64, SHAPE, SHARD,
                    sharding("[8,3]", "end", "[" + LE + "," + codec("blosc", "{\"cname\":\"lz4\",\"clevel\":5,"
                            + "\"shuffle\":\"shuffle\",\"typesize\":8,\"blocksize\":0}") + "]", "[" + LE + "," + CRC
                            + "]"))));

    static String sharding(String chunkShape, String indexLocation, String codecs, String indexCodecs) {
        return codec("sharding_indexed", "{\"chunk_shape\":" + chunkShape + ",\"codecs\":" + codecs
                + ",\"index_codecs\":" + indexCodecs + ",\"index_location\":\"" + indexLocation + "\"}");
    }

    @FuzzTest(maxDuration = "10s")
    void shard(byte[] input) {
        SHARDS.decode(input);
    }
}
