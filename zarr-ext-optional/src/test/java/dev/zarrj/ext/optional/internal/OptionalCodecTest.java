package dev.zarrj.ext.optional.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.ext.optional.OptionalConfiguration;
import dev.zarrj.ext.optional.OptionalType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The optional codec's stored form (zarrs' {@code optional_codec.rs}: u64 LE mask length, u64 LE
 * data length, the mask through {@code mask_codecs}, the present values only through
 * {@code data_codecs}, nothing when none is present), written through the user API; its refusals
 * and its errors on corrupt chunks.
 */
class OptionalCodecTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OptionalType I16 = OptionalType.of(DataTypes.INT16);
    private static final OptionalType NESTED = OptionalType.of(OptionalType.of(DataTypes.UINT8));

    private static JsonNode bytesChain() {
        return JSON.createArrayNode().add(JSON.createObjectNode().put("name", "bytes"));
    }

    private static byte[] get(Store store, String key) {
        ByteBuffer b = store.get(StoreKey.of(key)).orElseThrow(() -> new AssertionError(key + " is not stored"));
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static NdArray int16(short[] values, boolean[] missing, long... shape) {
        return OptionalType.fromValues(I16, NdArray.copyOf(DataTypes.INT16, values, shape), missing);
    }

    @Test
    void aChunkIsHeaderMaskThenPresentValuesOnly() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(I16, 2, 4).chunks(2, 2)
                .codec(OptionalConfiguration.of(I16, bytesChain(), OptionalConfiguration.littleEndianBytes()))
                .create(store, "/a");
        NdArray data = int16(new short[] {5, 0, 0, 0, 0, -2, 0, 0}, new boolean[] {false, true, true, true, true,
            false, true, true}, 2, 4);
        a.write(data);
        assertEquals("0400000000000000" + "0400000000000000" + "01000001" + "0500feff",
                HexFormat.of().formatHex(get(store, "a/c/0/0")), "mask [1, 0, 0, 1], values 5 and -2 little-endian");
        assertFalse(store.get(StoreKey.of("a/c/0/1")).isPresent(), "a chunk of missing elements is the fill value");
        assertTrue(ZARR.openArray(store, "/a").read().contentEquals(data));
    }

    @Test
    void aNestedChunkOfOuterMissingElementsHasEmptyData() throws Exception {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(NESTED, 2, 4).chunks(2, 2).fillValue(JSON.readTree("[null]"))
                .codec(OptionalConfiguration.of(NESTED, bytesChain(), OptionalConfiguration.littleEndianBytes()))
                .create(store, "/a");
        byte[] someNone = {0, 0, 1};
        byte[] bytes = new byte[8 * 3];
        for (int i : new int[] {2, 3, 6, 7}) {
            System.arraycopy(someNone, 0, bytes, i * 3, 3);
        }
        NdArray data = NdArray.copyOf(NESTED, bytes, 2, 4);
        a.write(data);
        assertEquals("0400000000000000" + "0000000000000000" + "00000000", HexFormat.of().formatHex(get(store, "a/c/0/0")),
                "all missing: a mask of zeros and no data, which zarrs writes without running data_codecs");
        assertFalse(store.get(StoreKey.of("a/c/0/1")).isPresent(), "Some(None) everywhere is the fill value [null]");
        assertTrue(ZARR.openArray(store, "/a").read().contentEquals(data));
    }

    @Test
    void nonCanonicalElementsComeBackCanonical() {
        CodecChain chain = chain("[{\"name\": \"optional\", \"configuration\": {\"mask_codecs\": [{\"name\": \"bytes\"}],"
                + " \"data_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}]}}]");
        ChunkSpec spec = new ChunkSpec(I16, new long[] {3}, I16.defaultFillValue());
        ByteBuffer in = ByteBuffer.allocate(9).order(ByteOrder.nativeOrder());
        in.putShort((short) 9).put((byte) 0).putShort((short) 300).put((byte) 7).putShort((short) -1).put((byte) 1);
        NdArray decoded = chain.decode(chain.encode(NdArray.wrap(I16, in.flip(), 3), spec), spec);
        ByteBuffer out = decoded.bytes();
        assertEquals(0, out.getShort(0), "a missing element's value is zero");
        assertEquals(0, out.get(2));
        assertEquals(300, out.getShort(3));
        assertEquals(1, out.get(5), "a present element's mask byte is 1");
        assertEquals(-1, out.getShort(6));
    }

    private static CodecChain chain(String json) {
        try {
            return ZARR.providerContext().codecChain(JSON.readTree(json), "/codecs");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void corruptChunksAreCorruptDataExceptions() {
        CodecChain chain = chain("[{\"name\": \"optional\", \"configuration\": {\"mask_codecs\": [{\"name\": \"bytes\"}],"
                + " \"data_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}}]");
        ChunkSpec spec = new ChunkSpec(I16, new long[] {2}, I16.defaultFillValue());
        String[] corrupt = {
            "0200000000000000", // shorter than the header
            "0200000000000000" + "0200000000000000" + "0101" + "0500", // data shorter than its length
            "0200000000000000" + "0000000000000000" + "0101" + "05000600", // data longer than its length
            "ffffffffffffffff" + "0000000000000000" + "0000", // a mask length beyond the chunk
            "0200000000000000" + "0200000000000000" + "0000" + "0500", // data but no element present
            "0200000000000000" + "0200000000000000" + "0101" + "0500", // two present, one value
        };
        for (String hex : corrupt) {
            ZarrException e = assertThrows(ZarrException.class,
                    () -> chain.decode(ByteBuffer.wrap(HexFormat.of().parseHex(hex)), spec), hex);
            assertTrue(e instanceof CorruptDataException, hex + ": " + e);
        }
    }

    @Test
    void nestedValuesNeedTheOptionalCodecAsTheirArrayToBytesCodec() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.array(NESTED, 4)
                .codec(OptionalConfiguration.of(bytesChain(), OptionalConfiguration.littleEndianBytes()))
                .create(ZARR.openStore("memory:"), "/a"));
        // bytes itself refuses the inner optional type, naming the codec that stores it.
        assertEquals("/codecs/0/configuration/data_codecs/0", e.pointer(), e.getMessage());
        assertTrue(e.getMessage().contains("bytes cannot store data type 'zarrs.optional'")
                && e.getMessage().contains("mask_codecs"), e.getMessage());
    }

    @Test
    void onlyOptionalTypesAreEncoded() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.array(DataTypes.INT16, 4)
                .codec(OptionalConfiguration.of(bytesChain(), OptionalConfiguration.littleEndianBytes()))
                .create(ZARR.openStore("memory:"), "/a"));
        assertTrue(e.getMessage().contains("int16"), e.getMessage());
    }

    @Test
    void configurationErrorsNameTheField() {
        InvalidMetadataException missing = assertThrows(InvalidMetadataException.class,
                () -> chain("[{\"name\": \"optional\", \"configuration\": {\"mask_codecs\": [{\"name\": \"bytes\"}]}}]"));
        assertEquals("/codecs/0/configuration/data_codecs", missing.pointer(), missing.getMessage());
        InvalidMetadataException unknown = assertThrows(InvalidMetadataException.class,
                () -> chain("[{\"name\": \"optional\", \"configuration\": {\"mask_codecs\": [], \"data_codecs\": [],"
                        + " \"level\": 1}}]"));
        assertEquals("/codecs/0/configuration/level", unknown.pointer(), unknown.getMessage());
    }

    @Test
    void optionalChunksInsideShardsReadInParts() {
        OptionalType nested = OptionalType.of(OptionalType.of(DataTypes.INT16));
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(nested, 8, 6).chunks(2, 3).shards(4, 6)
                .codec(OptionalConfiguration.of(nested, OptionalConfiguration.packbits(),
                        OptionalConfiguration.littleEndianBytes()))
                .create(store, "/a");
        ByteBuffer b = ByteBuffer.allocate(48 * 4).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 48; i++) {
            int level = i % 4; // 0 missing, 1 present with a missing value, 2 and 3 present with a value
            b.putShort(level >= 2 ? (short) (i * 100 - 2000) : 0).put((byte) (level >= 2 ? 1 : 0))
                    .put((byte) (level >= 1 ? 1 : 0));
        }
        NdArray data = NdArray.wrap(nested, b.flip(), 8, 6);
        a.write(data);
        ZarrArray back = ZARR.openArray(store, "/a");
        assertTrue(back.read().contentEquals(data));
        NdArray part = back.read(new long[] {3, 1}, new long[] {3, 4});
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 4; c++) {
                assertEquals(OptionalType.toJson(data, (3 + r) * 6 + 1 + c), OptionalType.toJson(part, r * 4 + c));
            }
        }
    }

    @Test
    void packedMasksRoundTripOnOddShapes() {
        OptionalType f64 = OptionalType.of(DataTypes.FLOAT64);
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(f64, 7, 5, 3).chunks(4, 3, 2)
                .codec(OptionalConfiguration.of(f64, OptionalConfiguration.packbits(),
                        OptionalConfiguration.littleEndianBytes()))
                .create(store, "/a");
        double[] values = new double[105];
        boolean[] missing = new boolean[105];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5 - 3;
            missing[i] = i % 3 == 1 || i % 7 == 0;
        }
        NdArray data = OptionalType.fromValues(f64, NdArray.copyOf(DataTypes.FLOAT64, values, 7, 5, 3), missing);
        a.write(data);
        NdArray back = ZARR.openArray(store, "/a").read();
        assertTrue(back.contentEquals(data));
        assertArrayEquals(missing, OptionalType.missingMask(back));
    }
}
