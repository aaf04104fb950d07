package dev.zarrj.core.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Sizes derived from metadata (bytes per chunk, chunks per array, the end of the last chunk) are
 * checked when an array is opened, created or resized; what cannot fit in a {@code long} is an
 * {@link InvalidMetadataException} naming the field and the value, never an
 * {@code ArithmeticException}. Large metadata that fits still reads by region.
 */
class MetadataLimitsTest {
    private static final Zarr ZARR = Zarr.defaults();

    private static String doc(String shape, String chunks, String codecs) {
        return """
                {"zarr_format": 3, "node_type": "array", "shape": %s, "data_type": "int16",
                 "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": %s}},
                 "chunk_key_encoding": {"name": "default"}, "fill_value": 7, "codecs": %s}"""
                .formatted(shape, chunks, codecs);
    }

    private static final String BYTES = "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]";
    private static final String CRC = "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}},"
            + " {\"name\": \"crc32c\"}]";

    private static Store storeWith(String json) {
        Store s = ZARR.openStore("memory:");
        s.set(StoreKey.of("a/zarr.json"), ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
        return s;
    }

    private static InvalidMetadataException refused(String json, String pointer, String... mentions) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.open(storeWith(json), "/a"));
        assertEquals(pointer, e.pointer(), e.getMessage());
        assertTrue(e.getMessage().contains("a/zarr.json"), e.getMessage());
        for (String m : mentions) {
            assertTrue(e.getMessage().contains(m), "should mention '" + m + "': " + e.getMessage());
        }
        return e;
    }

    @Test
    void aChunkOfMoreThan2To63BytesNamesChunkShapeAndItsSize() {
        refused(doc("[64, 64]", "[3037000500, 3037000500]", BYTES), "/chunk_grid/configuration/chunk_shape",
                "chunk_grid.configuration.chunk_shape [3037000500, 3037000500] of int16 is 1.8e19 bytes, more than a"
                        + " chunk can hold");
        refused(doc("[10]", "[9223372036854775807]", BYTES), "/chunk_grid/configuration/chunk_shape",
                "[9223372036854775807] of int16 is 1.8e19 bytes");
    }

    @Test
    void moreThan2To63ChunksNamesTheShape() {
        refused(doc("[4611686018427387904, 4611686018427387904]", "[2, 2]", BYTES), "/shape",
                "[4611686018427387904, 4611686018427387904]", "more than an array can hold");
    }

    @Test
    void aLastChunkEndingPast2To63NamesTheDimension() {
        refused(doc("[9223372036854775807]", "[4611686018427387904]", BYTES), "/shape/0",
                "starts at 4611686018427387904 and is 4611686018427387904 long");
    }

    @Test
    void resizingIntoAnImpossibleShapeIsRefusedAndChangesNothing() {
        Store s = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.INT16, 4, 4).chunks(2, 2).codecs(BYTES).create(s, "/a");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> a.resize(new long[] {Long.MAX_VALUE, Long.MAX_VALUE}, false));
        assertTrue(e.getMessage().contains("/shape"), e.getMessage());
        assertArrayEquals(new long[] {4, 4}, a.shape());
        assertArrayEquals(new long[] {4, 4}, ZARR.openArray(s, "/a").shape());
    }

    @Test
    void creatingAnArrayWithChunksTooLargeIsRefused() {
        Store s = ZARR.openStore("memory:");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.INT16, 10, 10).chunks(3037000500L, 3037000500L).codecs(BYTES).create(s, "/a"));
        assertTrue(e.getMessage().contains("more than a chunk can hold"), e.getMessage());
    }

    /** Chunks of 2^40 int16 (2 TiB) are valid: absent ones read as fill values by region, as before. */
    @Test
    void chunksLargerThanABufferStillReadByRegion() {
        ZarrArray a = ZARR.openArray(storeWith(doc("[4611686018427387904, 3]", "[1099511627776, 3]", BYTES)), "/a");
        NdArray r = a.read(new long[] {4611686018427387900L, 1}, new long[] {4, 2});
        for (int i = 0; i < 8; i++) {
            assertEquals(7, r.getDouble(i));
        }
    }

    /** A region whose end passes 2^63 is outside the array, not a wrapped-around region inside it. */
    @Test
    void aRegionThatOverflowsIsOutsideTheArray() {
        ZarrArray a = ZARR.openArray(storeWith(doc("[100]", "[10]", BYTES)), "/a");
        assertThrows(IllegalArgumentException.class, () -> a.read(new long[] {Long.MAX_VALUE}, new long[] {2}));
        assertThrows(IllegalArgumentException.class,
                () -> a.readInto(new long[] {Long.MAX_VALUE - 1}, NdArray.allocate(DataTypes.INT16, 3)));
    }

    /**
     * A checksummed chunk of 1 MiB whose stored value holds 96 bytes: refused from what the bytes
     * say (crc32c: the value less 4) before anything is decoded.
     */
    @Test
    void storedBytesThatCannotHoldTheChunkAreRefusedBeforeDecoding() {
        Store s = storeWith(doc("[524288]", "[524288]", CRC));
        s.set(StoreKey.of("a/c/0"), ByteBuffer.allocate(100));
        ZarrArray a = ZARR.openArray(s, "/a");
        ChunkDecodeException e = assertThrows(ChunkDecodeException.class, () -> a.readChunk(0));
        assertEquals("a/c/0", e.key());
        assertTrue(e.getMessage().contains("crc32c: the 100 encoded bytes say they decode to 96 bytes, but the"
                + " array's metadata makes them 1048576 bytes"), e.getMessage());
    }
}
