package dev.zarrj.ext.strings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Arrays of strings and byte strings written and read through the whole pipeline. */
class StringArraysTest {
    private static final Zarr ZARR = Zarr.defaults();

    private static String[] sample(int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = switch (i % 5) {
                case 0 -> "";
                case 1 -> "row " + i;
                case 2 -> "é, \"quoted\"\nline " + i;
                case 3 -> "世界🎉".repeat(i % 7 + 1);
                default -> "x".repeat(i * 13);
            };
        }
        return out;
    }

    private static byte[] value(Store store, String key) {
        ByteBuffer b = store.get(StoreKey.of(key)).orElseThrow();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Test
    void aStringArrayRoundTripsWithEdgeChunksMissingChunksAndPartialWrites() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(StringTypes.STRING, 7, 5).chunks(3, 2).fillValue("n/a").codec("zstd").create(store, "/s");
        assertEquals("vlen-utf8", a.codecs().get(0).get("name").asText(), "the default array→bytes codec of string");
        String[] values = sample(35);
        NdArray data = NdArray.copyOf(StringTypes.STRING, values, 7, 5);
        a.write(data);
        ZarrArray back = ZARR.openArray(store, "/s");
        assertTrue(back.read().contentEquals(data));
        assertArrayEquals(new String[] {values[11], values[12], values[13], values[16], values[17], values[18]},
                back.read(new long[] {2, 1}, new long[] {2, 3}).toStringArray());

        // Rewrite part of one chunk: the rest of it stays.
        a.write(new long[] {1, 1}, new long[] {1, 2}, new String[] {"new a", "new b"});
        values[6] = "new a";
        values[7] = "new b";
        assertArrayEquals(values, back.read().toStringArray());

        // A chunk that holds only the fill value is not stored, and reads as the fill value.
        ZarrArray sparse = ZARR.array(StringTypes.STRING, 4).chunks(2).fillValue("n/a").create(store, "/sparse");
        sparse.write(new long[] {2}, new long[] {2}, new String[] {"n/a", "z"});
        assertTrue(store.get(StoreKey.of("sparse/c/0")).isEmpty());
        assertArrayEquals(new String[] {"n/a", "n/a", "n/a", "z"}, sparse.read().toStringArray());
        sparse.write(new long[] {3}, new long[] {1}, new String[] {"n/a"});
        assertTrue(sparse.read().isAll(sparse.fillValue()));
    }

    @Test
    void vlenUtf8WritesNumcodecsBytes() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(StringTypes.STRING, 3).chunks(3).create(store, "/s");
        a.write(new long[] {0}, new long[] {3}, new String[] {"a", "é", ""});
        // Count 3, then (length, UTF-8) per element, all little endian.
        assertEquals("03000000" + "01000000" + "61" + "02000000" + "c3a9" + "00000000",
                HexFormat.of().formatHex(value(store, "s/c/0")));
    }

    @Test
    void aBytesArrayRoundTripsAndWritesVlenBytes() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(StringTypes.BYTES, 5).chunks(2).fillValue("AQID").create(store, "/b");
        assertEquals("vlen-bytes", a.codecs().get(0).get("name").asText());
        assertEquals("\"AQID\"", a.metadata().get("fill_value").toString(), "fill value written as base64");
        a.write(new long[] {0}, new long[] {3}, new byte[][] {{}, {0, (byte) 0xff}, {1, 2, 3}});
        assertArrayEquals(new byte[][] {{}, {0, (byte) 0xff}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}},
                ZARR.openArray(store, "/b").read().toBytesArray());
        assertEquals("02000000" + "00000000" + "02000000" + "00ff", HexFormat.of().formatHex(value(store, "b/c/0")));
        ZarrArray ints = ZARR.array(StringTypes.BYTES, 1).fillValue(java.util.List.of(7, 255)).create(store, "/i");
        assertArrayEquals(new byte[] {7, (byte) 255}, ints.read().getBytes(0));
    }

    @Test
    void shardedStringsReadAndWriteInnerChunks() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(StringTypes.STRING, 8, 6).chunks(2, 3).shards(4, 6).codec("zstd").create(store, "/sh");
        assertEquals("sharding_indexed", a.codecs().get(0).get("name").asText());
        String[] values = sample(48);
        a.write(NdArray.copyOf(StringTypes.STRING, values, 8, 6));
        assertArrayEquals(values, ZARR.openArray(store, "/sh").read().toStringArray());
        assertArrayEquals(new String[] {values[27], values[28], values[33], values[34]},
                a.read(new long[] {4, 3}, new long[] {2, 2}).toStringArray());
        a.write(new long[] {5, 5}, new long[] {1, 1}, new String[] {"inside a shard"});
        values[35] = "inside a shard";
        assertArrayEquals(values, ZARR.openArray(store, "/sh").read().toStringArray());
    }

    @Test
    void transposedStringsRoundTrip() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(StringTypes.STRING, 3, 4).chunks(3, 4)
                .codecs("[{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 0]}}, {\"name\": \"vlen-utf8\"}]")
                .create(store, "/t");
        String[] values = sample(12);
        a.write(NdArray.copyOf(StringTypes.STRING, values, 3, 4));
        assertArrayEquals(values, ZARR.openArray(store, "/t").read().toStringArray());
        // Stored column by column: element (0, 1) comes fourth.
        ByteBuffer chunk = ByteBuffer.wrap(value(store, "t/c/0/0")).order(ByteOrder.LITTLE_ENDIAN);
        chunk.getInt();
        for (int skip = 0; skip < 3; skip++) {
            int length = chunk.getInt();
            chunk.position(chunk.position() + length);
        }
        byte[] fourth = new byte[chunk.getInt()];
        chunk.get(fourth);
        assertEquals(values[1], new String(fourth, StandardCharsets.UTF_8));
    }

    @Test
    void codecsAndTypesThatDoNotFitAreRefusedWhenTheArrayIsCreated() {
        Store store = ZARR.openStore("memory:");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(StringTypes.STRING, 3).codecs("[{\"name\": \"bytes\"}]").create(store, "/x"));
        assertTrue(e.getMessage().contains("vlen-utf8") && e.getMessage().contains("vary in length"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(dev.zarrj.core.DataTypes.INT32, 3).codecs("[{\"name\": \"vlen-utf8\"}]").create(store, "/y"));
        assertTrue(e.getMessage().contains("vlen-utf8") && e.getMessage().contains("int32"), e.getMessage());
        assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(StringTypes.BYTES, 3).codecs("[{\"name\": \"vlen-utf8\"}]").create(store, "/z"));
        assertFalse(store.get(StoreKey.of("x/zarr.json")).isPresent(), "nothing was created");
    }

    @Test
    void aStringWithNoUtf8FormFailsTheWriteAndLeavesTheChunk() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(StringTypes.STRING, 2).chunks(2).create(store, "/s");
        a.write(new long[] {0}, new long[] {2}, new String[] {"kept", "too"});
        byte[] before = value(store, "s/c/0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> a.write(new long[] {1}, new long[] {1}, new String[] {"bad \uD800 surrogate"}));
        assertTrue(e.getMessage().contains("element 1") && e.getMessage().contains("s/c/0"), e.getMessage());
        assertArrayEquals(before, value(store, "s/c/0"));
    }

    @Test
    void corruptChunksFailNamingTheKeyAndWhatIsWrong() {
        Map<String, String> cases = Map.of(
                "02000000" + "01000000" + "61", "holds 2 elements",
                "03000000" + "01000000" + "61" + "05000000" + "6263", "element 1 of 3 says 5 bytes",
                "03000000" + "01000000" + "61" + "01000000" + "ff" + "00000000", "element 1 of 3 is not valid UTF-8",
                "03000000" + "00000000" + "00000000" + "00000000" + "00", "1 bytes follow",
                "0300", "cannot hold the 4-byte element count",
                "03000000" + "00000000" + "0000", "ends inside the length of element 1");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Store store = ZARR.openStore("memory:");
            ZarrArray a = ZARR.array(StringTypes.STRING, 3).chunks(3).create(store, "/s");
            store.set(StoreKey.of("s/c/0"), ByteBuffer.wrap(HexFormat.of().parseHex(c.getKey())));
            ChunkDecodeException e = assertThrows(ChunkDecodeException.class, a::read, c.getKey());
            assertTrue(e.getMessage().contains("s/c/0") && e.getMessage().contains(c.getValue()), e.getMessage());
            assertInstanceOf(dev.zarrj.api.CorruptDataException.class, e.getCause(), c.getKey());
        }
    }

    @Test
    void zarrPython30sNameOfBytesReadsAsBytes() {
        Store store = ZARR.openStore("memory:");
        store.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(("{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [2],"
                + " \"data_type\": \"variable_length_bytes\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\":"
                + " {\"chunk_shape\": [2]}}, \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": \"\","
                + " \"codecs\": [{\"name\": \"vlen-bytes\", \"configuration\": {}}]}").getBytes(StandardCharsets.UTF_8)));
        ZarrArray a = ZARR.openArray(store, "/");
        assertEquals(StringTypes.BYTES, a.dataType());
        assertEquals("bytes", a.dataType().name());
        // Changing attributes keeps the document's other members as the writer left them.
        a.setAttributes(new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("k", 1));
        assertEquals("\"variable_length_bytes\"", ZARR.openArray(store, "/").metadata().get("data_type").toString());
        // A new array of the type names it as the registry does.
        assertEquals("\"bytes\"", ZARR.array(a.dataType(), 2).create(ZARR.openStore("memory:"), "/new").metadata().get("data_type").toString());
    }
}
