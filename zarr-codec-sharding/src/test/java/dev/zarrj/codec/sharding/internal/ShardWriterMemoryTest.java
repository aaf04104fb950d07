package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A shard written into lent memory gives back what its inner chunks were gathered and encoded
 * in once the shard is assembled, so that a write waiting on the store holds the shard alone.
 */
class ShardWriterMemoryTest {
    /** 8×8 shard of 2×4 inner chunks (8), gzip inside, so each inner chunk borrows its own output. */
    private static final String CONFIG = "{\"chunk_shape\":[2,4],\"codecs\":[{\"name\":\"bytes\","
            + "\"configuration\":{\"endian\":\"little\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":1}}],"
            + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}]}";
    private static final ChunkSpec SHARD = new ChunkSpec(DataTypes.INT32, new long[] {8, 8},
            DataTypes.INT32.parseFillValue(IntNode.valueOf(0), "/fill_value"));

    /** Lends heap buffers, and fills what it gets back with 0x55 at once, as its next borrower would. */
    private static final class Lender implements BufferLender {
        final List<ByteBuffer> held = new ArrayList<>();
        int lent;
        int givenBack;

        @Override
        public synchronized ByteBuffer borrow(int size) {
            ByteBuffer b = ByteBuffer.allocate(size);
            held.add(b);
            lent++;
            return b;
        }

        @Override
        public synchronized void giveBack(ByteBuffer buffer) {
            assertTrue(held.removeIf(b -> b == buffer), "given back: a buffer not lent, or given back twice");
            for (int i = 0; i < buffer.capacity(); i++) {
                buffer.put(i, (byte) 0x55);
            }
            givenBack++;
        }
    }

    private static ShardingCodec codec() {
        return (ShardingCodec) new ShardingCodecProvider().create(
                ExtensionConfig.of("sharding_indexed", TestChains.json(CONFIG), "/codecs/0/configuration"),
                Zarr.defaults().providerContext());
    }

    @Test
    void onlyTheShardStaysLent() {
        int[] v = new int[64];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 7919;
        }
        NdArray values = NdArray.copyOf(DataTypes.INT32, v, 8, 8);
        ShardingCodec codec = codec();
        Lender lender = new Lender();
        ByteBuffer shard = codec.encode(values, SHARD, lender);

        // 8 inner encodings and at least one gather buffer were lent besides the shard.
        assertTrue(lender.lent >= 10, "lent: " + lender.lent);
        assertEquals(lender.lent - 1, lender.givenBack, "all but the shard given back");
        assertEquals(1, lender.held.size());
        assertSame(lender.held.get(0).array(), shard.array(), "the buffer kept is the shard's");
        // What was given back has been overwritten: the shard does not lie in it.
        assertEquals(codec.encode(values, SHARD), shard);
        assertTrue(codec.decode(shard, SHARD).contentEquals(values));
    }
}
