package dev.zarrj.core.internal.keyencoding;

import static dev.zarrj.core.internal.testing.TestConfigs.NO_CONTEXT;
import static dev.zarrj.core.internal.testing.TestConfigs.config;
import static dev.zarrj.core.internal.testing.TestConfigs.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkKeyEncodingTest {
    private static final String POINTER = "/chunk_key_encoding/configuration";
    private static final long[] SPEC_INDEX = {1, 23, 45};

    private static ChunkKeyEncoding create(String name, String configuration) {
        ChunkKeyEncodingProvider provider = name.equals("default")
                ? new DefaultChunkKeyEncodingProvider() : new V2ChunkKeyEncodingProvider();
        assertEquals(name, provider.name());
        return provider.create(config(name, configuration, POINTER), NO_CONTEXT);
    }

    @ParameterizedTest
    @CsvSource({
        "default, /, c/1/23/45",
        "default, ., c.1.23.45",
        "v2, ., 1.23.45",
        "v2, /, 1/23/45"})
    void specExamples(String name, String separator, String key) {
        ChunkKeyEncoding e = create(name, "{\"separator\": \"" + separator + "\"}");
        assertEquals(key, e.encode(SPEC_INDEX));
        assertArrayEquals(SPEC_INDEX, e.decode(key, 3).orElseThrow());
    }

    @Test
    void zeroDimensionalKeys() {
        ChunkKeyEncoding d = create("default", null);
        ChunkKeyEncoding v2 = create("v2", null);
        assertEquals("c", d.encode(new long[0]));
        assertEquals("0", v2.encode(new long[0]));
        assertArrayEquals(new long[0], d.decode("c", 0).orElseThrow());
        assertArrayEquals(new long[0], v2.decode("0", 0).orElseThrow());
        assertTrue(d.decode("c/", 0).isEmpty());
        assertTrue(d.decode("c/0", 0).isEmpty());
        assertTrue(v2.decode("c", 0).isEmpty());
        assertTrue(v2.decode("00", 0).isEmpty());
    }

    @Test
    void defaultsAreWrittenOut() {
        ChunkKeyEncoding d = create("default", null);
        ChunkKeyEncoding v2 = create("v2", "{}");
        assertEquals(json("{\"name\": \"default\", \"configuration\": {\"separator\": \"/\"}}"), d.toJson());
        assertEquals(json("{\"name\": \"v2\", \"configuration\": {\"separator\": \".\"}}"), v2.toJson());
        assertEquals("c/0/7", d.encode(new long[] {0, 7}));
        assertEquals("0.7", v2.encode(new long[] {0, 7}));
    }

    @ParameterizedTest
    @CsvSource({"default, /", "default, .", "v2, /", "v2, ."})
    void configurationRoundTrips(String name, String separator) {
        ChunkKeyEncoding e = create(name, "{\"separator\": \"" + separator + "\"}");
        assertEquals(json("{\"name\": \"" + name + "\", \"configuration\": {\"separator\": \"" + separator + "\"}}"),
                e.toJson());
        assertEquals(e, create(name, e.configuration().toString()));
    }

    @Test
    void decodeRoundTripsLargeAndZeroIndices() {
        long[][] cases = {{0}, {Long.MAX_VALUE}, {0, 0, 0}, {10, 0, 999999999999L}, {3, 1, 4, 1, 5, 9, 2, 6}};
        for (String name : new String[] {"default", "v2"}) {
            for (String sep : new String[] {"/", "."}) {
                ChunkKeyEncoding e = create(name, "{\"separator\": \"" + sep + "\"}");
                for (long[] c : cases) {
                    assertArrayEquals(c, e.decode(e.encode(c), c.length).orElseThrow(), name + sep + e.encode(c));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"zarr.json", "c/1/23", "c/1/23/45/6", "c/01/23/45", "c/1/23/-45", "c/1/+23/45",
            "c/1/2x/45", "c.1.23.45", "c/1//45", "c/1/23/45/", "/c/1/23/45", "c", "c/", "", "d/1/23/45",
            "c/1/23/99999999999999999999", "c1/23/45", "c/1/23/45 "})
    void defaultRefusesWhatItWouldNotWrite(String key) {
        assertEquals(Optional.empty(), create("default", null).decode(key, 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {"zarr.json", "1.23", "1.23.45.6", "1.023.45", "1.23.-45", "c.1.23", "1/23/45", "1..45",
            "1.23.45.", ".1.23.45", "", "0", "1.23.9223372036854775808"})
    void v2RefusesWhatItWouldNotWrite(String key) {
        assertEquals(Optional.empty(), create("v2", null).decode(key, 3));
    }

    @Test
    void zeroIsCanonicalButLeadingZerosAreNot() {
        ChunkKeyEncoding v2 = create("v2", null);
        assertArrayEquals(new long[] {0}, v2.decode("0", 1).orElseThrow());
        assertTrue(v2.decode("00", 1).isEmpty());
        assertTrue(v2.decode("007", 1).isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "v2"})
    void badSeparatorIsRefused(String name) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> create(name, "{\"separator\": \"-\"}"));
        assertEquals("/chunk_key_encoding/configuration/separator", e.pointer());
        assertTrue(e.getMessage().contains("\"-\""), e.getMessage());
        assertEquals("/chunk_key_encoding/configuration/separator",
                assertThrows(InvalidMetadataException.class, () -> create(name, "{\"separator\": 1}")).pointer());
        assertEquals("/chunk_key_encoding/configuration/sep",
                assertThrows(InvalidMetadataException.class, () -> create(name, "{\"sep\": \"/\"}")).pointer());
    }

    /** The two encodings share their equality: by encoding and separator, never across encodings. */
    @Test
    void equalOnlyForTheSameEncodingAndSeparator() {
        assertEquals(new DefaultChunkKeyEncoding('/'), new DefaultChunkKeyEncoding('/'));
        assertEquals(new DefaultChunkKeyEncoding('/').hashCode(), new DefaultChunkKeyEncoding('/').hashCode());
        assertEquals(new V2ChunkKeyEncoding('.'), new V2ChunkKeyEncoding('.'));
        assertNotEquals(new DefaultChunkKeyEncoding('/'), new DefaultChunkKeyEncoding('.'));
        assertNotEquals(new DefaultChunkKeyEncoding('/'), new V2ChunkKeyEncoding('/'));
        assertNotEquals(new V2ChunkKeyEncoding('.'), new DefaultChunkKeyEncoding('.'));
        assertEquals("default(/)", new DefaultChunkKeyEncoding('/').toString());
        assertEquals("v2(.)", new V2ChunkKeyEncoding('.').toString());
    }

    @ParameterizedTest
    @CsvSource({"default, /, .", "v2, ., /"})
    void examplesListBothSeparatorsTheDefaultFirst(String name, String first, String second) {
        ChunkKeyEncodingProvider provider = name.equals("default")
                ? new DefaultChunkKeyEncodingProvider() : new V2ChunkKeyEncodingProvider();
        assertEquals(List.of(json("{\"separator\": \"" + first + "\"}"), json("{\"separator\": \"" + second + "\"}")),
                provider.exampleConfigurations());
    }

    @Test
    void negativeIndicesAreAProgrammingError() {
        assertThrows(IllegalArgumentException.class, () -> new DefaultChunkKeyEncoding('/').encode(new long[] {-1}));
        assertThrows(IllegalArgumentException.class, () -> new V2ChunkKeyEncoding(':'));
    }
}
