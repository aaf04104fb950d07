package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The binary shard format, checked byte for byte against layouts worked out by hand from the
 * spec: a 2×2 grid of int16 inner chunks of 2×2, the index as little-endian uint64 (offset,
 * nbytes) pairs in C order, 2^64 − 1 twice for an empty inner chunk.
 */
class ShardLayoutTest {
    private static final String LE = TestChains.codec("bytes", "{\"endian\":\"little\"}");
    private static final String BE = TestChains.codec("bytes", "{\"endian\":\"big\"}");
    private static final String CRC = TestChains.codec("crc32c", null);
    private static final FillValue ZERO = DataTypes.INT16.parseFillValue(IntNode.valueOf(0), "/fill_value");
    private static final ChunkSpec SHARD = new ChunkSpec(DataTypes.INT16, new long[] {4, 4}, ZERO);
    private static final String EMPTY = "ffffffffffffffff";

    private static ShardingCodec codec(String indexCodecs, String location) {
        return TestChains.sharding("{\"chunk_shape\":[2,2],\"codecs\":[" + LE + "],\"index_codecs\":[" + indexCodecs
                + "]" + (location == null ? "" : ",\"index_location\":\"" + location + "\"") + "}");
    }

    /** y*4 + x + 1, except inner chunk (0, 1) (rows 0–1, columns 2–3), which is all fill value. */
    private static NdArray sample() {
        short[] v = new short[16];
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) {
                v[y * 4 + x] = (short) (y < 2 && x >= 2 ? 0 : y * 4 + x + 1);
            }
        }
        return NdArray.copyOf(DataTypes.INT16, v, 4, 4);
    }

    private static final String C00 = "0100" + "0200" + "0500" + "0600";
    private static final String C10 = "0900" + "0a00" + "0d00" + "0e00";
    private static final String C11 = "0b00" + "0c00" + "0f00" + "1000";

    private static String u64(long v) {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v);
        return HexFormat.of().formatHex(b.array());
    }

    private static String hex(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return HexFormat.of().formatHex(a);
    }

    @Test
    void indexAtTheEndFollowsTheInnerChunksInCOrderAndLeavesOutTheEmptyOne() {
        ByteBuffer shard = codec(LE, null).encode(sample(), SHARD);
        String index = u64(0) + u64(8) + EMPTY + EMPTY + u64(8) + u64(8) + u64(16) + u64(8);
        assertEquals(C00 + C10 + C11 + index, hex(shard));
        assertEquals(24 + 64, shard.remaining());
    }

    @Test
    void indexAtTheStartComesFirstAndOffsetsCountItsBytes() {
        ByteBuffer shard = codec(LE, "start").encode(sample(), SHARD);
        String index = u64(64) + u64(8) + EMPTY + EMPTY + u64(72) + u64(8) + u64(80) + u64(8);
        assertEquals(index + C00 + C10 + C11, hex(shard));
    }

    @Test
    void bigEndianIndexCodecsStoreBigEndianPairs() {
        ByteBuffer shard = codec(BE, null).encode(sample(), SHARD);
        String index = "0000000000000000" + "0000000000000008" + EMPTY + EMPTY
                + "0000000000000008" + "0000000000000008" + "0000000000000010" + "0000000000000008";
        assertEquals(C00 + C10 + C11 + index, hex(shard));
    }

    @Test
    void crc32cAfterTheIndexCoversItsSixtyFourBytes() {
        ShardingCodec c = codec(LE + "," + CRC, null);
        ByteBuffer shard = c.encode(sample(), SHARD);
        assertEquals(24 + 68, shard.remaining());
        CRC32C crc = new CRC32C();
        crc.update(shard.duplicate().position(24).limit(88));
        assertEquals((int) crc.getValue(), shard.order(ByteOrder.LITTLE_ENDIAN).getInt(88));
    }

    @Test
    void theSpecsExampleIndexHasSixtyEightBytes() {
        ShardingCodec c = TestChains.sharding("{\"chunk_shape\":[32,32],\"codecs\":[" + LE + "],\"index_codecs\":["
                + LE + "," + CRC + "]}");
        ShardLayout layout = c.layout(new ChunkSpec(DataTypes.INT16, new long[] {64, 64}, ZERO));
        assertEquals(68, layout.indexSize());
        assertArrayEquals(new long[] {2, 2, 2}, layout.indexSpec().shape());
    }

    @Test
    void aShardOfOnlyFillValuesIsAnIndexOfEmptyMarkers() {
        ByteBuffer shard = codec(LE, null).encode(NdArray.allocate(DataTypes.INT16, 4, 4), SHARD);
        assertEquals(EMPTY.repeat(8), hex(shard));
    }

    /** Inner chunks in reverse order, with unused bytes between them, as the spec allows. */
    @Test
    void readsAnyOrderWithGaps() {
        ShardingCodec c = codec(LE, null);
        String data = "eeee" + C11 + "dddddd" + C10 + C00;
        long c11 = 2;
        long c10 = 2 + 8 + 3;
        long c00 = c10 + 8;
        String index = u64(c00) + u64(8) + EMPTY + EMPTY + u64(c10) + u64(8) + u64(c11) + u64(8);
        ByteBuffer shard = ByteBuffer.wrap(HexFormat.of().parseHex(data + index));
        assertTrue(c.decode(shard, SHARD).contentEquals(sample()));
        NdArray part = c.partialDecoder(ByteSource.of(shard), SHARD).orElseThrow()
                .decode(Region.of(new long[] {1, 1}, new long[] {3, 2})).orElseThrow();
        assertTrue(part.contentEquals(sample().region(Region.of(new long[] {1, 1}, new long[] {3, 2}))));
    }

    @Test
    void indexEncodesAndDecodesEveryValueIncludingTheTopBit() {
        ShardingCodec c = codec(LE + "," + CRC, null);
        ShardLayout layout = c.layout(SHARD);
        ShardIndex index = ShardIndex.of(1, 2, -1, -1, Long.MIN_VALUE, 7, 0x0123456789abcdefL, 0);
        ShardIndex back = ShardIndex.decode(index.encode(layout, c.indexCodecs()), layout, c.indexCodecs());
        assertArrayEquals(index.entries(), back.entries());
        assertTrue(back.isEmpty(1));
    }

    @Test
    void touchedInnerChunksAreListedInCOrder() {
        ShardLayout layout = TestChains.sharding("{\"chunk_shape\":[2,3],\"codecs\":[" + LE + "],\"index_codecs\":["
                + LE + "]}").layout(new ChunkSpec(DataTypes.INT16, new long[] {6, 9}, ZERO));
        assertArrayEquals(new int[] {4, 5, 7, 8}, layout.touched(Region.of(new long[] {3, 4}, new long[] {2, 5})));
        assertArrayEquals(new int[] {0}, layout.touched(Region.of(new long[] {0, 0}, new long[] {1, 1})));
        assertArrayEquals(new int[0], layout.touched(Region.of(new long[] {0, 0}, new long[] {0, 3})));
        assertArrayEquals(new long[] {1, 2}, layout.coords(5));
        assertArrayEquals(new long[] {2, 6}, layout.origin(5));
    }
}
