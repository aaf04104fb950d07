package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.vectors.SpecVectors;
import dev.zarrj.conformance.vectors.SpecVectors.InnerChunk;
import dev.zarrj.conformance.vectors.SpecVectors.ShardCase;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The sharding codec against shards built by hand from the spec's binary format
 * ({@code sharding-index.json} of the kit): zarrj reads each one, and what zarrj writes for the
 * same values has the spec's layout, checked here without zarrj (the index parsed by hand, its
 * crc32c by the JDK).
 */
class SpecShardVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final long EMPTY = -1L; // 2^64 - 1

    @TestFactory
    Stream<DynamicTest> zarrjReadsTheHandBuiltShard() {
        List<ShardCase> cases = SpecVectors.shardingIndex();
        assertEquals(4, cases.size());
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            Store store = ZARR.openStore("memory:");
            ZarrArray a = ZARR.createArray(store, "/a", c.metadata(), false);
            store.set(StoreKey.of("a/" + c.shardKey()), ByteBuffer.wrap(c.shard()));
            assertEquals(c.values().toString(), json(a.read()), "every element");
        }));
    }

    @TestFactory
    Stream<DynamicTest> whatZarrjWritesHasTheSpecsLayout() {
        return SpecVectors.shardingIndex().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            Store store = ZARR.openStore("memory:");
            ZarrArray a = ZARR.createArray(store, "/a", c.metadata(), false);
            NdArray values = NdArray.allocate(a.dataType(), a.shape());
            for (int i = 0; i < c.values().size(); i++) {
                values.setLong(i, c.values().get(i).asLong());
            }
            a.write(values);
            Optional<ByteBuffer> stored = store.get(StoreKey.of("a/" + c.shardKey()));
            boolean allEmpty = c.innerChunks().stream().allMatch(i -> i.bytes().isEmpty());
            if (stored.isEmpty()) {
                assertTrue(allEmpty, "the shard may be left out only when every inner chunk is empty");
                return;
            }
            byte[] shard = bytes(stored.get());
            checkLayout(c, shard);
            assertEquals(c.values().toString(), json(a.read()));
        }));
    }

    /** Parses the index as the spec lays it out and checks every inner chunk against the vector. */
    private static void checkLayout(ShardCase c, byte[] shard) {
        JsonNode indexCodecs = c.metadata().path("codecs").path(0).path("configuration").path("index_codecs");
        boolean crc = indexCodecs.size() == 2 && indexCodecs.get(1).path("name").asText().equals("crc32c");
        ByteOrder order = indexCodecs.get(0).path("configuration").path("endian").asText().equals("big")
                ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        int n = c.innerChunks().size();
        int indexSize = 16 * n + (crc ? 4 : 0);
        assertEquals(c.indexBytes().length, indexSize, "the vector's index size");
        assertTrue(shard.length >= indexSize, "shard of " + shard.length + " bytes");
        int indexAt = c.indexLocation().equals("start") ? 0 : shard.length - indexSize;
        ByteBuffer index = ByteBuffer.wrap(shard, indexAt, indexSize).slice().order(order);
        if (crc) {
            CRC32C crc32c = new CRC32C();
            crc32c.update(shard, indexAt, 16 * n);
            long stored = ByteBuffer.wrap(shard, indexAt + 16 * n, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
            assertEquals(crc32c.getValue(), stored, "the index's checksum, little-endian after the index");
        }
        for (int i = 0; i < n; i++) {
            long offset = index.getLong(16 * i);
            long nbytes = index.getLong(16 * i + 8);
            InnerChunk inner = c.innerChunks().get(i);
            String where = "inner chunk " + Arrays.toString(inner.coords());
            if (inner.bytes().isEmpty()) {
                assertEquals(EMPTY, offset, where + ": empty, offset 2^64 - 1");
                assertEquals(EMPTY, nbytes, where + ": empty, nbytes 2^64 - 1");
                continue;
            }
            assertTrue(offset >= 0 && nbytes >= 0 && offset + nbytes <= shard.length, where + " inside the shard");
            assertTrue(offset + nbytes <= indexAt || offset >= indexAt + indexSize, where + " does not overlap the index");
            assertArrayEquals(inner.bytes().get(), Arrays.copyOfRange(shard, (int) offset, (int) (offset + nbytes)), where);
        }
    }

    private static String json(NdArray a) {
        StringBuilder sb = new StringBuilder("[");
        for (long i = 0; i < a.elementCount(); i++) {
            sb.append(i == 0 ? "" : ",").append(a.getLong(i));
        }
        return sb.append(']').toString();
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
