package dev.zarrj.codec.gzip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.InvalidMetadataException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.zarrj.api.codec.CodecConfiguration;
import org.junit.jupiter.api.Test;

class GzipConfigurationTest {
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 9})
    void acceptsLevelsZeroToNine(int level) {
        assertEquals(level, GzipConfiguration.level(level).level());
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 10, Integer.MIN_VALUE})
    void rejectsOtherLevels(int level) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> GzipConfiguration.level(level));
        assertEquals("/configuration/level", e.pointer());
        assertTrue(e.getMessage().contains("[0, 9]") && e.getMessage().contains(String.valueOf(level)), e.getMessage());
    }

    @Test
    void json() throws Exception {
        ObjectMapper json = new ObjectMapper();
        GzipConfiguration c = GzipConfiguration.level(5);
        assertEquals(json.readTree("{\"level\":5}"), c.configurationJson());
        assertEquals(json.readTree("{\"name\":\"gzip\",\"configuration\":{\"level\":5}}"), c.toJson());
        assertNotSame(c.toJson(), c.toJson());
        c.configurationJson().put("level", 7);
        assertEquals(5, c.configurationJson().get("level").intValue(), "nodes are copies");
    }

    @Test
    void isACodecConfigurationNamedGzip() {
        CodecConfiguration c = GzipConfiguration.level(3);
        assertEquals("gzip", c.name());
        assertEquals(CodecConfiguration.of("gzip", java.util.Map.of("level", 3)).toJson(), c.toJson());
    }
}
