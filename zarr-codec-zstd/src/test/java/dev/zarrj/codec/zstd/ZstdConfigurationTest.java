package dev.zarrj.codec.zstd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.CodecConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ZstdConfigurationTest {
    @ParameterizedTest
    @ValueSource(ints = {-131072, -5, 0, 1, 22})
    void acceptsZstdsWholeLevelRange(int level) {
        assertEquals(level, ZstdConfiguration.of(level, true).level());
        assertEquals(level, ZstdConfiguration.level(level).level());
    }

    @ParameterizedTest
    @ValueSource(ints = {-131073, 23, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void rejectsOtherLevels(int level) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZstdConfiguration.of(level, false));
        assertEquals("/configuration/level", e.pointer());
        assertTrue(e.getMessage().contains("[-131072, 22]") && e.getMessage().contains(String.valueOf(level)),
                e.getMessage());
    }

    @Test
    void defaultsAreLevelZeroWithoutChecksum() {
        assertEquals(ZstdConfiguration.of(0, false), ZstdConfiguration.defaults());
        assertFalse(ZstdConfiguration.level(7).checksum());
    }

    @Test
    void jsonAlwaysHoldsBothFields() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ZstdConfiguration c = ZstdConfiguration.of(-3, true);
        assertEquals(json.readTree("{\"level\":-3,\"checksum\":true}"), c.configurationJson());
        assertEquals(json.readTree("{\"name\":\"zstd\",\"configuration\":{\"level\":0,\"checksum\":false}}"),
                ZstdConfiguration.defaults().toJson());
        assertNotSame(c.toJson(), c.toJson());
        c.configurationJson().put("level", 7);
        assertEquals(-3, c.configurationJson().get("level").intValue(), "nodes are copies");
    }

    @Test
    void theArrayBuilderWritesTheSameMetadataAsTheJsonForm() {
        CodecConfiguration c = ZstdConfiguration.of(3, true);
        assertEquals("zstd", c.name());
        Zarr zarr = Zarr.defaults();
        assertEquals(zarr.array(DataTypes.UINT16, 64, 64).chunks(16, 16).codecs("[{\"name\":\"bytes\","
                        + "\"configuration\":{\"endian\":\"little\"}},{\"name\":\"zstd\",\"configuration\":"
                        + "{\"level\":3,\"checksum\":true}}]").toMetadata(),
                zarr.array(DataTypes.UINT16, 64, 64).chunks(16, 16).codec(c).toMetadata());
    }
}
