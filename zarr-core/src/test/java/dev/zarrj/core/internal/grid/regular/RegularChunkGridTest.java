package dev.zarrj.core.internal.grid.regular;

import static dev.zarrj.core.internal.testing.TestConfigs.NO_CONTEXT;
import static dev.zarrj.core.internal.testing.TestConfigs.config;
import static dev.zarrj.core.internal.testing.TestConfigs.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.grid.ChunkGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RegularChunkGridTest {
    private static final String POINTER = "/chunk_grid/configuration";

    private static ChunkGrid grid(String configuration) {
        return new RegularChunkGridProvider().create(config("regular", configuration, POINTER), NO_CONTEXT);
    }

    @Test
    void specExampleGridShape() {
        ChunkGrid g = grid("{\"chunk_shape\": [5, 20, 400]}");
        assertEquals(3, g.rank());
        assertArrayEquals(new long[] {2, 10, 8}, g.gridShape(new long[] {10, 200, 3000}));
    }

    @Test
    void specExampleElementLocation() {
        ChunkGrid g = grid("{\"chunk_shape\": [5, 20, 400]}");
        long[] element = {7, 150, 900};
        long[] chunk = new long[3];
        long[] within = new long[3];
        for (int d = 0; d < 3; d++) {
            chunk[d] = g.chunkIndex(d, element[d]);
            within[d] = element[d] - g.chunkStart(d, chunk[d]);
        }
        assertArrayEquals(new long[] {1, 7, 2}, chunk);
        assertArrayEquals(new long[] {2, 10, 100}, within);
        assertArrayEquals(new long[] {5, 140, 800}, g.chunkOrigin(chunk));
    }

    @Test
    void edgeChunksHaveTheFullShape() {
        ChunkGrid g = grid("{\"chunk_shape\": [16, 16]}");
        assertArrayEquals(new long[] {2, 2}, g.gridShape(new long[] {30, 30}));
        assertArrayEquals(new long[] {16, 16}, g.chunkShape(new long[] {1, 1}));
        assertEquals(16, g.chunkLength(1, 1));
        assertEquals(16, g.chunkStart(1, 1));
    }

    @ParameterizedTest
    @CsvSource({"0, 5, 0", "1, 5, 1", "5, 5, 1", "6, 5, 2", "10, 5, 2", "11, 5, 3", "9223372036854775807, 1, 9223372036854775807",
            "9223372036854775807, 2, 4611686018427387904"})
    void gridLengthIsTheCeilingOfTheQuotient(long arrayLength, long chunkLength, long expected) {
        ChunkGrid g = RegularChunkGrid.of(chunkLength);
        assertEquals(expected, g.gridLength(0, arrayLength));
    }

    @Test
    void zeroLengthDimensionHasNoChunks() {
        ChunkGrid g = grid("{\"chunk_shape\": [4, 3]}");
        assertArrayEquals(new long[] {0, 4}, g.gridShape(new long[] {0, 10}));
    }

    @Test
    void zeroDimensionalGridHasRankZeroAndOneChunk() {
        ChunkGrid g = grid("{\"chunk_shape\": []}");
        assertEquals(0, g.rank());
        g.validate(new long[0]);
        assertArrayEquals(new long[0], g.gridShape(new long[0]));
        assertArrayEquals(new long[0], g.chunkShape(new long[0]));
        assertEquals(json("{\"name\": \"regular\", \"configuration\": {\"chunk_shape\": []}}"), g.toJson());
    }

    @Test
    void configurationRoundTrips() {
        ChunkGrid g = grid("{\"chunk_shape\": [5, 20, 400]}");
        assertEquals(json("{\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [5, 20, 400]}}"), g.toJson());
        assertEquals(g, grid(g.configuration().toString()));
        assertEquals(g, RegularChunkGrid.of(5, 20, 400));
        // Lengths beyond int range come back as the node type a parser produces for them.
        String big = "{\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [3000000000, 1]}}";
        assertEquals(json(big), grid("{\"chunk_shape\": [3000000000, 1]}").toJson());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-3"})
    void nonPositiveChunkLengthIsRefusedWithItsPointer(String value) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> grid("{\"chunk_shape\": [5, " + value + ", 2]}"));
        assertEquals("/chunk_grid/configuration/chunk_shape/1", e.pointer());
        assertTrue(e.getMessage().contains(value), e.getMessage());
        InvalidMetadataException inCode = assertThrows(InvalidMetadataException.class,
                () -> RegularChunkGrid.of(5, Long.parseLong(value)));
        assertEquals("/chunk_grid/configuration/chunk_shape/1", inCode.pointer());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"chunk_shape\": [5, 2.5]}", "{\"chunk_shape\": [5, \"2\"]}"})
    void nonIntegerChunkLengthIsRefused(String configuration) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> grid(configuration));
        assertEquals("/chunk_grid/configuration/chunk_shape/1", e.pointer());
    }

    @Test
    void missingOrMalformedChunkShapeIsRefused() {
        assertEquals("/chunk_grid/configuration/chunk_shape",
                assertThrows(InvalidMetadataException.class, () -> grid("{}")).pointer());
        assertEquals("/chunk_grid/configuration/chunk_shape",
                assertThrows(InvalidMetadataException.class, () -> grid(null)).pointer());
        assertEquals("/chunk_grid/configuration/chunk_shape",
                assertThrows(InvalidMetadataException.class, () -> grid("{\"chunk_shape\": 5}")).pointer());
    }

    @Test
    void unknownFieldIsRefused() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> grid("{\"chunk_shape\": [5], \"offset\": [0]}"));
        assertEquals("/chunk_grid/configuration/offset", e.pointer());
    }

    @Test
    void rankMismatchIsRefusedNamingBothRanks() {
        ChunkGrid g = grid("{\"chunk_shape\": [5, 20, 400]}");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> g.validate(new long[] {10, 200}));
        assertEquals("/chunk_grid/configuration/chunk_shape", e.pointer());
        assertTrue(e.getMessage().contains("rank 3") && e.getMessage().contains("rank 2"), e.getMessage());
        g.validate(new long[] {10, 200, 3000});
    }
}
