package dev.zarrj.api.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Codecs named by {@link CodecConfiguration#of}: the metadata entry they stand for. */
class CodecConfigurationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void aCodecWithoutConfigurationIsWrittenWithItsNameOnly() throws Exception {
        CodecConfiguration c = CodecConfiguration.of("crc32c");
        assertEquals("crc32c", c.name());
        assertTrue(c.configurationJson().isEmpty());
        assertEquals(json("{\"name\":\"crc32c\"}"), c.toJson());
        assertEquals(c.toJson(), CodecConfiguration.of("crc32c", (Map<String, ?>) null).toJson());
    }

    @Test
    void aMapBecomesTheConfigurationObject() throws Exception {
        CodecConfiguration c = CodecConfiguration.of("bitround", Map.of("keepbits", 10, "modes", List.of("a", "b")));
        assertEquals(json("{\"name\":\"bitround\",\"configuration\":{\"keepbits\":10,\"modes\":[\"a\",\"b\"]}}"),
                c.toJson());
    }

    @Test
    void fromJsonKeepsNameAndConfigurationAndRoundTrips() throws Exception {
        JsonNode entry = json("{\"name\":\"gzip\",\"configuration\":{\"level\":5},\"must_understand\":true}");
        CodecConfiguration c = CodecConfiguration.fromJson(entry);
        assertEquals(json("{\"name\":\"gzip\",\"configuration\":{\"level\":5}}"), c.toJson());
        assertEquals(c, CodecConfiguration.of("gzip", Map.of("level", 5)));
        assertEquals(c.hashCode(), CodecConfiguration.of("gzip", Map.of("level", 5)).hashCode());
        assertNotEquals(c, CodecConfiguration.of("gzip", Map.of("level", 6)));
    }

    @Test
    void theValueIsImmutable() {
        ObjectNode given = JsonNodeFactory.instance.objectNode().put("level", 1);
        CodecConfiguration c = CodecConfiguration.of("gzip", given);
        given.put("level", 9);
        c.configurationJson().put("level", 7);
        c.toJson().put("name", "zstd");
        assertEquals(1, c.configurationJson().get("level").intValue());
        assertEquals("gzip", c.toJson().get("name").textValue());
    }

    @Test
    void badInputIsRefusedNamingWhatIsWrong() {
        assertThrows(NullPointerException.class, () -> CodecConfiguration.of(null));
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> CodecConfiguration.of(""));
        assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
        IllegalArgumentException notObject = assertThrows(IllegalArgumentException.class,
                () -> CodecConfiguration.of("gzip", JsonNodeFactory.instance.numberNode(5)));
        assertTrue(notObject.getMessage().contains("5"), notObject.getMessage());
        IllegalArgumentException noName = assertThrows(IllegalArgumentException.class,
                () -> CodecConfiguration.fromJson(JsonNodeFactory.instance.objectNode().put("name", 3)));
        assertTrue(noName.getMessage().contains("'name'"), noName.getMessage());
        assertFalse(CodecConfiguration.of("x").toString().isEmpty());
    }
}
