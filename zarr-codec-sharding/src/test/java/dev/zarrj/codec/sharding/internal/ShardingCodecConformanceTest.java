package dev.zarrj.codec.sharding.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import dev.zarrj.conformance.CodecSamples;
import java.util.ArrayList;
import java.util.List;

/**
 * sharding_indexed against the kit's array→bytes contract. The provider's examples fix the inner
 * chunk shape (rank 1, 2 and 3), so the shard shapes here are multiples of them, plus one
 * configuration with inner chunks of 205 × 64 for the large shard (1025 rows, so no other example
 * divides it). A configuration whose inner and index chains both end in {@code crc32c} covers
 * every byte of the shard with a checksum, and claims to detect corruption.
 */
class ShardingCodecConformanceTest extends ArrayToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new ShardingCodecProvider();
    }

    @Override
    protected List<ObjectNode> configurations() {
        List<ObjectNode> out = new ArrayList<>(provider().exampleConfigurations());
        out.add((ObjectNode) TestChains.json("{\"chunk_shape\": [205, 64], \"codecs\": [{\"name\": \"bytes\","
                + " \"configuration\": {\"endian\": \"little\"}}], \"index_codecs\": [{\"name\": \"bytes\","
                + " \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"crc32c\"}]}"));
        return out;
    }

    @Override
    protected List<long[]> shapes(DataType dataType) {
        return List.of(new long[] {5}, new long[] {15}, new long[] {35},
                new long[] {2, 2}, new long[] {4, 8}, new long[] {8, 16}, new long[] {12, 24},
                new long[] {1, 2, 3}, new long[] {2, 4, 9}, new long[] {3, 6, 9},
                CodecSamples.largeShape(dataType, 1025, 64));
    }

    @Override
    protected boolean detectsCorruption(ArrayToBytesCodec codec) {
        ObjectNode c = codec.configuration();
        return c.path("codecs").toString().contains("\"crc32c\"")
                && c.path("index_codecs").toString().contains("\"crc32c\"");
    }
}
