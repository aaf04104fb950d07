package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A shard that is not stored is an answer, not an error: the partial decoder returns empty (and
 * {@code decodeInto} false, with the destination untouched), also when the shard vanishes between
 * the index request and the inner chunk request.
 */
class ShardAbsenceTest {
    private static final String LE = TestChains.codec("bytes", "{\"endian\":\"little\"}");
    private static final ChunkSpec SHARD = new ChunkSpec(DataTypes.INT16, new long[] {4, 4},
            DataTypes.INT16.parseFillValue(IntNode.valueOf(0), "/fill_value"));

    private static ShardingCodec codec(String location) {
        return TestChains.sharding("{\"chunk_shape\":[2,2],\"codecs\":[" + LE + "],\"index_codecs\":[" + LE
                + "],\"index_location\":\"" + location + "\"}");
    }

    /** A source whose first {@code presentReads} reads see {@code shard}, and every later one nothing. */
    private static ByteSource vanishing(ByteBuffer shard, int presentReads, AtomicInteger reads) {
        ByteSource present = shard == null ? null : ByteSource.of(shard);
        return new ByteSource() {
            @Override
            public Optional<ByteBuffer> read(ByteRange range) {
                return reads.getAndIncrement() < presentReads ? present.read(range) : Optional.empty();
            }

            @Override
            public Optional<List<ByteBuffer>> readAll(List<ByteRange> ranges) {
                return reads.getAndIncrement() < presentReads ? present.readAll(ranges) : Optional.empty();
            }
        };
    }

    private static NdArray sentinel() {
        return NdArray.filled(DataTypes.INT16, DataTypes.INT16.parseFillValue(IntNode.valueOf(-7), "/f"), 4, 4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "end"})
    void anAbsentShardDecodesToEmpty(String location) {
        AtomicInteger reads = new AtomicInteger();
        ArrayPartialDecoder d = codec(location).partialDecoder(vanishing(null, 0, reads), SHARD).orElseThrow();
        assertEquals(Optional.empty(), d.decode(Region.of(new long[] {1, 1}, new long[] {2, 2})));
        NdArray dst = sentinel();
        assertFalse(d.decodeInto(Region.whole(4, 4), dst, new long[] {0, 0}));
        assertTrue(dst.contentEquals(sentinel()), "the destination is untouched");
        assertEquals(1, reads.get(), "one read for the index, remembered");
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "end"})
    void aShardRemovedAfterItsIndexWasReadDecodesToEmpty(String location) {
        ShardingCodec codec = codec(location);
        short[] v = new short[16];
        for (int i = 0; i < v.length; i++) {
            v[i] = (short) (i + 1);
        }
        ByteBuffer shard = codec.encode(NdArray.copyOf(DataTypes.INT16, v, 4, 4), SHARD);
        AtomicInteger reads = new AtomicInteger();
        ArrayPartialDecoder d = codec.partialDecoder(vanishing(shard, 1, reads), SHARD).orElseThrow();
        NdArray dst = sentinel();
        assertFalse(d.decodeInto(Region.of(new long[] {1, 1}, new long[] {2, 3}), dst, new long[] {0, 0}));
        assertTrue(dst.contentEquals(sentinel()), "the destination is untouched");
        assertEquals(2, reads.get(), "the index, then the inner chunks");

        ArrayPartialDecoder present = codec.partialDecoder(ByteSource.of(shard), SHARD).orElseThrow();
        assertArrayEquals(new short[] {6, 7, 10, 11},
                present.decode(Region.of(new long[] {1, 1}, new long[] {2, 2})).orElseThrow().toShortArray());
    }
}
