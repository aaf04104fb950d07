package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ExtensionConfigTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AT = "/codecs/0/configuration";

    private static ExtensionConfig config(String json) {
        try {
            return ExtensionConfig.of("test", JSON.readTree(json), AT);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Asserts an InvalidMetadataException at {@code pointer} whose message holds every fragment. */
    private static InvalidMetadataException error(String pointer, Executable call, String... fragments) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, call);
        assertEquals(pointer, e.pointer());
        assertEquals("ZARR-META", e.code());
        assertTrue(e.getMessage().startsWith("[ZARR-META] " + pointer + ": test: "), e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "missing '" + f + "' in: " + e.getMessage());
        }
        return e;
    }

    @Test
    void intFieldInRange() {
        ExtensionConfig c = config("{\"level\": 5, \"low\": 0, \"high\": 9}");
        assertEquals(5, c.intField("level", 0, 9));
        assertEquals(0, c.intField("low", 0, 9));
        assertEquals(9, c.intField("high", 0, 9));
    }

    @Test
    void intFieldOutOfRange() {
        ExtensionConfig c = config("{\"level\": 12}");
        error(AT + "/level", () -> c.intField("level", 0, 9), "'level'", "[0, 9]", "12");
        ExtensionConfig n = config("{\"level\": -1}");
        error(AT + "/level", () -> n.intField("level", 0, 9), "found -1");
    }

    @Test
    void intFieldNotAnInteger() {
        error(AT + "/level", () -> config("{\"level\": 5.5}").intField("level", 0, 9), "must be an integer", "5.5");
        error(AT + "/level", () -> config("{\"level\": 5.0}").intField("level", 0, 9), "must be an integer");
        error(AT + "/level", () -> config("{\"level\": \"5\"}").intField("level", 0, 9), "\"5\"");
        error(AT + "/level", () -> config("{\"level\": true}").intField("level", 0, 9), "true");
        error(AT + "/level", () -> config("{\"level\": 99999999999999999999999}").intField("level", 0, 9),
                "99999999999999999999999");
    }

    @Test
    void intFieldMissing() {
        error(AT + "/level", () -> config("{}").intField("level", 0, 9), "required field 'level' is missing");
        error(AT + "/level", () -> config("{\"level\": null}").intField("level", 0, 9), "missing");
    }

    @Test
    void intFieldWithDefault() {
        assertEquals(3, config("{}").intField("level", 0, 9, 3));
        assertEquals(3, config("{\"level\": null}").intField("level", 0, 9, 3));
        assertEquals(7, config("{\"level\": 7}").intField("level", 0, 9, 3));
        error(AT + "/level", () -> config("{\"level\": 10}").intField("level", 0, 9, 3), "found 10");
    }

    @Test
    void longField() {
        assertEquals(1L << 40, config("{\"n\": 1099511627776}").longField("n", 0, Long.MAX_VALUE));
        assertEquals(Long.MIN_VALUE, config("{\"n\": -9223372036854775808}").longField("n", Long.MIN_VALUE, 0));
        error(AT + "/n", () -> config("{\"n\": 9223372036854775808}").longField("n", 0, Long.MAX_VALUE),
                "must be an integer");
        error(AT + "/n", () -> config("{\"n\": 5}").longField("n", 6, 8), "[6, 8]", "found 5");
    }

    @Test
    void booleanField() {
        assertTrue(config("{\"b\": true}").booleanField("b"));
        assertFalse(config("{\"b\": false}").booleanField("b"));
        assertTrue(config("{}").booleanField("b", true));
        assertFalse(config("{\"b\": false}").booleanField("b", true));
        error(AT + "/b", () -> config("{\"b\": 1}").booleanField("b"), "must be true or false", "found 1");
        error(AT + "/b", () -> config("{\"b\": \"true\"}").booleanField("b", false), "\"true\"");
        error(AT + "/b", () -> config("{}").booleanField("b"), "missing");
    }

    @Test
    void stringFieldWithAllowedValues() {
        ExtensionConfig c = config("{\"endian\": \"little\", \"cname\": \"zzz\"}");
        assertEquals("little", c.stringField("endian", "little", "big"));
        assertEquals("zzz", c.stringField("cname"), "any string when none are listed");
        error(AT + "/cname", () -> c.stringField("cname", "lz4", "zstd"),
                "'cname' must be one of \"lz4\", \"zstd\"", "found \"zzz\"");
        error(AT + "/endian", () -> config("{\"endian\": 1}").stringField("endian", "little", "big"),
                "must be a string one of \"little\", \"big\"", "found 1");
        error(AT + "/endian", () -> config("{\"endian\": 1}").stringField("endian"), "must be a string, found 1");
    }

    @Test
    void optionalStringField() {
        assertEquals(Optional.empty(), config("{}").optionalStringField("endian", "little", "big"));
        assertEquals(Optional.empty(), config("{\"endian\": null}").optionalStringField("endian"));
        assertEquals(Optional.of("big"), config("{\"endian\": \"big\"}").optionalStringField("endian", "little", "big"));
        error(AT + "/endian", () -> config("{\"endian\": \"middle\"}").optionalStringField("endian", "little", "big"),
                "\"middle\"", "\"little\", \"big\"");
    }

    @Test
    void longAndIntArrayFields() {
        ExtensionConfig c = config("{\"order\": [2, 0, 1], \"empty\": [], \"big\": [4294967296]}");
        assertArrayEquals(new int[] {2, 0, 1}, c.intArrayField("order", 0, 2));
        assertArrayEquals(new long[] {2, 0, 1}, c.longArrayField("order", 0, 2));
        assertArrayEquals(new int[0], c.intArrayField("empty", 0, 2));
        assertArrayEquals(new long[] {1L << 32}, c.longArrayField("big", 0, Long.MAX_VALUE));
    }

    @Test
    void arrayElementErrorsPointAtTheElement() {
        error(AT + "/order/2", () -> config("{\"order\": [0, 1, 3]}").intArrayField("order", 0, 2),
                "'order' must hold integers in [0, 2]", "found 3");
        error(AT + "/order/1", () -> config("{\"order\": [0, \"1\", 2]}").intArrayField("order", 0, 2), "\"1\"");
        error(AT + "/order/0", () -> config("{\"order\": [0.5]}").longArrayField("order", 0, 2), "0.5");
        error(AT + "/order/0", () -> config("{\"order\": [null]}").longArrayField("order", 0, 2), "null");
        error(AT + "/order", () -> config("{\"order\": 3}").intArrayField("order", 0, 2),
                "must be an array of integers", "found 3");
        error(AT + "/order", () -> config("{}").intArrayField("order", 0, 2), "missing");
    }

    @Test
    void nodeFieldAndRawAccess() {
        ExtensionConfig c = config("{\"codecs\": [{\"name\": \"bytes\"}], \"n\": null}");
        assertTrue(c.nodeField("codecs").isArray());
        assertTrue(c.has("codecs"));
        assertFalse(c.has("n"), "JSON null counts as absent");
        assertTrue(c.field("n").isPresent(), "but the raw field is there");
        assertFalse(c.field("x").isPresent());
        error(AT + "/x", () -> c.nodeField("x"), "'x' is missing");
    }

    @Test
    void rejectUnknownFieldsListsTheAllowedOnes() {
        ExtensionConfig c = config("{\"level\": 1, \"typo\": 2}");
        c.rejectUnknownFields("typo", "level");
        error(AT + "/typo", () -> c.rejectUnknownFields("level", "blocksize", "cname"),
                "unknown configuration field 'typo'", "allowed: blocksize, cname, level");
        error(AT + "/level", () -> c.rejectUnknownFields(), "allowed: none");
        config("{}").rejectUnknownFields();
    }

    @Test
    void nonObjectConfigurationRefused() throws Exception {
        for (String json : new String[] {"[]", "3", "\"x\"", "true"}) {
            JsonNode node = JSON.readTree(json);
            InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                    () -> ExtensionConfig.of("gzip", node, "/codecs/1/configuration"));
            assertEquals("/codecs/1/configuration", e.pointer());
            assertTrue(e.getMessage().contains("'gzip'") && e.getMessage().contains("must be a JSON object")
                    && e.getMessage().contains(json), e.getMessage());
        }
    }

    @Test
    void absentConfigurationIsEmpty() throws Exception {
        assertTrue(ExtensionConfig.of("bytes", null, AT).json().isEmpty());
        assertTrue(ExtensionConfig.of("bytes", JSON.readTree("null"), AT).json().isEmpty());
        assertTrue(ExtensionConfig.of("bytes", JSON.createObjectNode().path("missing"), AT).json().isEmpty());
        ExtensionConfig e = ExtensionConfig.empty("crc32c");
        assertEquals("crc32c", e.name());
        assertEquals("/configuration", e.pointer());
        assertTrue(e.json().isEmpty());
    }

    @Test
    void configurationIsCopiedInAndOut() {
        ObjectNode node = JSON.createObjectNode().put("level", 1);
        ExtensionConfig c = ExtensionConfig.of("gzip", node, AT);
        node.put("level", 9);
        assertEquals(1, c.intField("level", 0, 9));
        c.json().put("level", 8);
        assertEquals(1, c.intField("level", 0, 9));
    }

    @Test
    void pointerEscapesTildeThenSlash() {
        ExtensionConfig c = config("{}");
        assertEquals(AT + "/a~1b", c.pointer("a/b"));
        assertEquals(AT + "/a~0b", c.pointer("a~b"));
        assertEquals(AT + "/~01", c.pointer("~1"), "'~' is escaped first, so '~1' stays distinct from '/'");
        assertEquals(AT + "/~0~1~1", c.pointer("~//"));
        error(AT + "/x~1y", () -> config("{\"x/y\": 1}").rejectUnknownFields("z"), "'x/y'");
    }

    @Test
    void errorHelperNamesExtensionAndPointer() {
        InvalidMetadataException e = config("{}").error("shape", "bad shape");
        assertEquals(AT + "/shape", e.pointer());
        assertEquals("[ZARR-META] " + AT + "/shape: test: bad shape", e.getMessage());
    }
}
