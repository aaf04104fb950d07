package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.TaskRunner;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The inner chunks of a shard run on the task runner of the context that created the codec, so
 * they stay within the thread budget of the zarrj instance: every operation, and the codec that
 * {@code resolveDefaults} returns.
 */
class ShardTasksTest {
    /** 8×8 shard of 2×4 inner chunks: 8 of them. */
    private static final String CONFIG = "{\"chunk_shape\":[2,4],\"codecs\":[{\"name\":\"bytes\","
            + "\"configuration\":{\"endian\":\"little\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":1}}],"
            + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}]}";
    private static final ChunkSpec SHARD = new ChunkSpec(DataTypes.INT32, new long[] {8, 8}, fill(0));

    private static FillValue fill(int v) {
        return DataTypes.INT32.parseFillValue(IntNode.valueOf(v), "/fill_value");
    }

    private final List<Integer> calls = new CopyOnWriteArrayList<>();

    private final ProviderContext recording = new ProviderContext() {
        @Override
        public CodecChain codecChain(JsonNode codecs, String pointer) {
            return Zarr.defaults().providerContext().codecChain(codecs, pointer);
        }

        @Override
        public TaskRunner tasks() {
            return (n, task) -> {
                calls.add(n);
                TaskRunner.sequential().forEach(n, task);
            };
        }
    };

    private ShardingCodec codec() {
        return (ShardingCodec) new ShardingCodecProvider().create(
                ExtensionConfig.of("sharding_indexed", TestChains.json(CONFIG), "/codecs/0/configuration"), recording);
    }

    private static NdArray values() {
        int[] v = new int[64];
        for (int i = 0; i < v.length; i++) {
            v[i] = 1 + i;
        }
        return NdArray.copyOf(DataTypes.INT32, v, 8, 8);
    }

    @Test
    void everyOperationRunsItsInnerChunksOnTheContextsRunner() {
        ShardingCodec codec = codec();
        ByteBuffer shard = codec.encode(values(), SHARD);
        assertEquals(List.of(8), calls, "encode: all 8 inner chunks");

        calls.clear();
        assertTrue(codec.decode(shard, SHARD).contentEquals(values()));
        assertEquals(List.of(8), calls, "decode: all 8 inner chunks");

        calls.clear();
        NdArray dst = NdArray.allocate(DataTypes.INT32, 8, 8);
        codec.decodeInto(shard, SHARD, Region.of(new long[] {0, 0}, new long[] {4, 8}), dst, new long[] {0, 0});
        assertEquals(List.of(4), calls, "decodeInto of the top half: 4 inner chunks");

        calls.clear();
        NdArray part = codec.partialDecoder(ByteSource.of(shard), SHARD).orElseThrow()
                .decode(Region.of(new long[] {2, 0}, new long[] {2, 8})).orElseThrow();
        assertTrue(part.contentEquals(values().region(Region.of(new long[] {2, 0}, new long[] {2, 8}))));
        assertEquals(List.of(2), calls, "partial decode of one row of inner chunks: 2");

        calls.clear();
        Optional<ByteBuffer> updated = codec.partialEncoder(SHARD).orElseThrow().encode(Optional.of(shard),
                NdArray.filled(DataTypes.INT32, fill(5), 2, 2), new long[] {0, 3});
        assertTrue(updated.isPresent());
        assertEquals(List.of(2), calls, "a 2×2 region across two inner chunks re-encodes those 2");
    }

    @Test
    void theCodecWithDefaultsResolvedKeepsTheRunner() {
        ShardingCodec resolved = (ShardingCodec) codec().resolveDefaults(SHARD);
        resolved.encode(values(), SHARD);
        assertEquals(List.of(8), calls);
    }
}
