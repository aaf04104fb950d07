package dev.zarrj.ext.optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import org.junit.jupiter.api.Test;

/**
 * The optional type's metadata and fill values as zarrs writes them (its doc table: None
 * {@code null}, Some(42) {@code [42]}, Some(None) {@code [null]}, Some(Some(42)) {@code [[42]]}),
 * the in-memory layout (value bytes, then one mask byte per level), and the typed helpers.
 */
class OptionalTypeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OptionalType U8 = OptionalType.of(DataTypes.UINT8);
    private static final OptionalType NESTED = OptionalType.of(U8);

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    @Test
    void fillValuesAreZarrsForms() throws Exception {
        assertArrayEquals(new byte[] {0, 0}, U8.parseFillValue(json("null"), "/fill_value").bytes());
        assertArrayEquals(new byte[] {42, 1}, U8.parseFillValue(json("[42]"), "/fill_value").bytes());
        assertArrayEquals(new byte[] {0, 0, 0}, NESTED.parseFillValue(json("null"), "/fill_value").bytes());
        assertArrayEquals(new byte[] {0, 0, 1}, NESTED.parseFillValue(json("[null]"), "/fill_value").bytes());
        assertArrayEquals(new byte[] {42, 1, 1}, NESTED.parseFillValue(json("[[42]]"), "/fill_value").bytes());
        assertEquals(json("null"), U8.fillValueToJson(FillValue.ofBytes(new byte[] {0, 0})));
        assertEquals(json("[42]"), U8.fillValueToJson(FillValue.ofBytes(new byte[] {42, 1})));
        assertEquals(json("[null]"), NESTED.fillValueToJson(FillValue.ofBytes(new byte[] {0, 0, 1})));
        assertEquals(json("[[42]]"), NESTED.fillValueToJson(FillValue.ofBytes(new byte[] {42, 1, 1})));
        assertEquals(json("null"), U8.fillValueToJson(U8.defaultFillValue()), "the default is missing");
    }

    @Test
    void aBareValueIsNotAFillValue() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> U8.parseFillValue(json("42"), "/fill_value"));
        assertEquals("/fill_value", e.pointer());
        assertTrue(e.getMessage().contains("[v]") && e.getMessage().contains("42"), e.getMessage());
        InvalidMetadataException inner = assertThrows(InvalidMetadataException.class,
                () -> NESTED.parseFillValue(json("[[256]]"), "/fill_value"));
        assertEquals("/fill_value/0/0", inner.pointer(), inner.getMessage());
    }

    @Test
    void metadataNamesTheInnerTypeWithItsConfigurationAlways() throws Exception {
        assertEquals(json("{\"name\": \"zarrs.optional\", \"configuration\": {\"name\": \"zarrs.optional\","
                + " \"configuration\": {\"name\": \"uint8\", \"configuration\": {}}}}"), NESTED.toJson());
        assertEquals(3, NESTED.size());
        assertEquals("zarrs.optional<zarrs.optional<uint8>>", NESTED.toString());
    }

    @Test
    void theRegistryCreatesItUnderBothNames() throws Exception {
        Zarr zarr = Zarr.defaults();
        var created = zarr.providerContext().dataType(json("{\"name\": \"optional\", \"configuration\": {\"name\":"
                + " \"r64\", \"configuration\": {}}}"), "/data_type");
        OptionalType t = assertInstanceOf(OptionalType.class, created);
        assertEquals("optional", t.name(), "written back under the name read");
        assertEquals(9, t.size());
        assertEquals("r64", t.inner().name());
        assertEquals(NESTED, zarr.providerContext().dataType(NESTED.toJson(), "/data_type"));
    }

    @Test
    void configurationErrorsNameTheField() throws Exception {
        Zarr zarr = Zarr.defaults();
        InvalidMetadataException missing = assertThrows(InvalidMetadataException.class, () -> zarr.providerContext()
                .dataType(json("{\"name\": \"optional\", \"configuration\": {\"name\": \"uint8\"}}"), "/data_type"));
        assertEquals("/data_type/configuration/configuration", missing.pointer(), missing.getMessage());
        UnknownExtensionException unknown = assertThrows(UnknownExtensionException.class, () -> zarr.providerContext()
                .dataType(json("{\"name\": \"optional\", \"configuration\": {\"name\": \"uint7\", \"configuration\":"
                        + " {}}}"), "/data_type"));
        assertEquals("uint7", unknown.extensionName());
        InvalidMetadataException extra = assertThrows(InvalidMetadataException.class, () -> zarr.providerContext()
                .dataType(json("{\"name\": \"optional\", \"configuration\": {\"name\": \"uint8\", \"configuration\":"
                        + " {}, \"x\": 1}}"), "/data_type"));
        assertEquals("/data_type/configuration/x", extra.pointer(), extra.getMessage());
    }

    @Test
    void helpersReadAndBuildMasksAndValues() {
        NdArray values = NdArray.copyOf(DataTypes.UINT8, new byte[] {1, 2, 3, 4}, 2, 2);
        NdArray a = OptionalType.fromValues(U8, values, new boolean[] {false, true, false, true});
        assertArrayEquals(new byte[] {1, 1, 0, 0, 3, 1, 0, 0}, a.toByteArray(), "a missing value's bytes are zero");
        assertTrue(OptionalType.isPresent(a, 0));
        assertFalse(OptionalType.isPresent(a, 1));
        assertArrayEquals(new boolean[] {false, true, false, true}, OptionalType.missingMask(a));
        assertArrayEquals(new byte[] {1, 0, 3, 0}, OptionalType.innerValues(a).toByteArray());
        assertArrayEquals(new long[] {2, 2}, OptionalType.innerValues(a).shape());
        assertThrows(IllegalArgumentException.class, () -> OptionalType.isPresent(values, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> OptionalType.isPresent(a, 4));
    }

    @Test
    void elementsAsPlainJson() throws Exception {
        NdArray a = NdArray.copyOf(NESTED, new byte[] {0, 0, 0, 0, 0, 1, 7, 1, 1}, 3);
        assertEquals(json("null"), OptionalType.toJson(a, 0));
        assertEquals(json("[null]"), OptionalType.toJson(a, 1));
        assertEquals(json("7"), OptionalType.toJson(a, 2));
        OptionalType triple = OptionalType.of(NESTED);
        assertEquals(json("[[null]]"), triple.toJson(new byte[] {0, 0, 1, 1}));
        assertEquals(json("[null]"), triple.toJson(new byte[] {0, 0, 0, 1}));
        byte[] nan = java.nio.ByteBuffer.allocate(5).order(java.nio.ByteOrder.nativeOrder()).putFloat(Float.NaN)
                .put((byte) 1).array();
        assertEquals(json("\"NaN\""), OptionalType.of(DataTypes.FLOAT32).toJson(nan));
    }
}
