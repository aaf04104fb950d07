package dev.zarrj.core.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Forms older writers produced that the spec no longer allows: zarrj reads them with a logged
 * warning and writes the canonical form back; anything else stays refused, naming the field.
 */
class LegacyFormsTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CORE_DATA_TYPE = "dev.zarrj.core.internal.datatype.CoreDataType";
    private static final String TRANSPOSE = "dev.zarrj.core.internal.codec.transpose.TransposeCodecProvider";

    private static String boolArray(String fill) {
        return "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [5], \"data_type\": \"bool\","
                + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [5]}},"
                + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": " + fill + ","
                + " \"codecs\": [{\"name\": \"bytes\"}]}";
    }

    private static String int16Array(String order) {
        return "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [2, 3], \"data_type\": \"int16\","
                + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2, 3]}},"
                + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0,"
                + " \"codecs\": [{\"name\": \"transpose\", \"configuration\": {\"order\": " + order + "}},"
                + " {\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}";
    }

    private static void put(Store store, String json) {
        store.set(StoreKey.of("a/zarr.json"), ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static JsonNode stored(Store store) throws Exception {
        return JSON.readTree(store.get(StoreKey.of("a/zarr.json")).orElseThrow().array());
    }

    @Test
    void aBoolFillValueOfZeroOrOneReadsWithAWarningAndIsWrittenBackAsABoolean() throws Exception {
        for (String fill : new String[] {"0", "1"}) {
            Store store = ZARR.openStore("memory:");
            put(store, boolArray(fill));
            String log;
            ZarrArray a;
            try (LogCapture capture = new LogCapture(CORE_DATA_TYPE)) {
                a = ZARR.openArray(store, "/a");
                log = capture.text();
            }
            boolean value = fill.equals("1");
            assertTrue(log.contains("WARNING") && log.contains("/fill_value") && log.contains("legacy"), log);
            assertArrayEquals(new boolean[] {value, value, value, value, value}, a.read().toBooleanArray(),
                    "the unwritten chunk reads as the fill value");
            assertEquals(value, a.metadata().get("fill_value").booleanValue());
            a.setAttributes(JSON.createObjectNode().put("k", 1));
            JsonNode written = stored(store).get("fill_value");
            assertTrue(written.isBoolean() && written.booleanValue() == value, written.toString());
        }
    }

    /** "F" is the reversed permutation: data written with [1, 0] reads the same through "F". */
    @Test
    void transposeOrderCOrFReadsAsItsPermutationWithAWarning() throws Exception {
        short[] data = {1, 2, 3, 4, 5, 6};
        for (String[] c : new String[][] {{"\"F\"", "[1, 0]"}, {"\"C\"", "[0, 1]"}}) {
            Store store = ZARR.openStore("memory:");
            put(store, int16Array(c[1]));
            ZARR.openArray(store, "/a").write(NdArray.copyOf(DataTypes.INT16, data, 2, 3));
            put(store, int16Array(c[0]));
            String log;
            ZarrArray a;
            try (LogCapture capture = new LogCapture(TRANSPOSE)) {
                a = ZARR.openArray(store, "/a");
                log = capture.text();
            }
            assertTrue(log.contains("WARNING") && log.contains("/codecs/0/configuration/order")
                    && log.contains(c[0]), log);
            assertArrayEquals(data, a.read().toShortArray(), c[0]);
            JsonNode canonical = JSON.readTree("{\"name\": \"transpose\", \"configuration\": {\"order\": " + c[1] + "}}");
            assertEquals(canonical, a.codecs().get(0));
            a.write(NdArray.copyOf(DataTypes.INT16, new short[] {6, 5, 4, 3, 2, 1}, 2, 3));
            a.setAttributes(JSON.createObjectNode());
            assertEquals(canonical, stored(store).get("codecs").get(0), "written back canonically");
            assertArrayEquals(new short[] {6, 5, 4, 3, 2, 1}, ZARR.openArray(store, "/a").read().toShortArray());
        }
    }

    /** Given to the builder, the legacy forms are read as such and written canonically too. */
    @Test
    void anArrayCreatedWithLegacyFormsIsWrittenCanonically() throws Exception {
        Store store = ZARR.openStore("memory:");
        ZARR.array(DataTypes.BOOL, 4).fillValue(1).create(store, "/a");
        assertEquals(JSON.readTree("true"), stored(store).get("fill_value"));
        store = ZARR.openStore("memory:");
        ZARR.array(DataTypes.INT16, 2, 3).codecs("[{\"name\": \"transpose\", \"configuration\": {\"order\": \"F\"}},"
                + " {\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]").create(store, "/a");
        assertEquals(JSON.readTree("[1, 0]"), stored(store).get("codecs").get(0).get("configuration").get("order"));
    }

    @Test
    void otherFormsStayRefusedNamingTheField() {
        for (String fill : new String[] {"2", "-1", "\"true\"", "null", "0.0"}) {
            Store store = ZARR.openStore("memory:");
            put(store, boolArray(fill));
            InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.openArray(store, "/a"));
            assertEquals("/fill_value", e.pointer(), fill);
        }
        Store store = ZARR.openStore("memory:");
        put(store, int16Array("\"A\""));
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.openArray(store, "/a"));
        assertEquals("/codecs/0/configuration/order", e.pointer());
        put(store, int16Array("\"F\"").replace("\"shape\": [2, 3]", "\"shape\": [2, 3, 1]")
                .replace("\"chunk_shape\": [2, 3]", "\"chunk_shape\": [2, 3, 1]"));
        assertEquals(3, ZARR.openArray(store, "/a").codecs().get(0).get("configuration").get("order").size(),
                "\"F\" takes the chunk's rank");
    }
}
