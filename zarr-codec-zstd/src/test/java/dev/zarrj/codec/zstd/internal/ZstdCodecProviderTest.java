package dev.zarrj.codec.zstd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ZstdCodecProviderTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String POINTER = "/codecs/1/configuration";
    static final ProviderContext NO_CONTEXT = (codecs, pointer) -> {
        throw new AssertionError("zstd does not nest codecs");
    };

    static Codec create(String configuration) throws Exception {
        JsonNode node = configuration == null ? null : JSON.readTree(configuration);
        return new ZstdCodecProvider().create(ExtensionConfig.of("zstd", node, POINTER), NO_CONTEXT);
    }

    static ZstdConfiguration created(String configuration) throws Exception {
        return assertInstanceOf(ZstdCodec.class, create(configuration)).zstdConfiguration();
    }

    static InvalidMetadataException rejected(String configuration) {
        return assertThrows(InvalidMetadataException.class, () -> create(configuration));
    }

    @Test
    void nameIsZstd() {
        CodecProvider p = new ZstdCodecProvider();
        assertEquals("zstd", p.name());
        assertTrue(p.aliases().isEmpty());
    }

    @ParameterizedTest
    @CsvSource({"-131072,true", "-5,false", "0,false", "3,true", "22,true"})
    void createsACodecWithTheConfiguration(int level, boolean checksum) throws Exception {
        assertEquals(ZstdConfiguration.of(level, checksum),
                created("{\"level\": " + level + ", \"checksum\": " + checksum + "}"));
    }

    @Test
    void missingFieldsTakeTheDefaultsAndAreWrittenBack() throws Exception {
        JsonNode both = JSON.readTree("{\"level\":0,\"checksum\":false}");
        for (String configuration : new String[] {null, "{}"}) {
            assertEquals(both, create(configuration).configuration(), String.valueOf(configuration));
        }
        assertEquals(JSON.readTree("{\"level\":5,\"checksum\":false}"), create("{\"level\": 5}").configuration());
        assertEquals(JSON.readTree("{\"level\":0,\"checksum\":true}"), create("{\"checksum\": true}").configuration());
    }

    @Test
    void metadataRoundTrip() throws Exception {
        Codec codec = create("{\"level\": 0, \"checksum\": false}");
        assertEquals(JSON.readTree("{\"name\":\"zstd\",\"configuration\":{\"level\":0,\"checksum\":false}}"),
                codec.toJson());
        Codec again = create(codec.configuration().toString());
        assertEquals(codec, again);
        assertEquals(codec.hashCode(), again.hashCode());
        assertEquals(codec.toJson(), again.toJson());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"level\": 23}", "{\"level\": -131073}", "{\"level\": \"5\"}", "{\"level\": 5.5}",
            "{\"level\": null}", "{\"level\": true}", "{\"level\": 99999999999}", "{\"level\": [1]}"})
    void rejectsABadLevelNamingTheField(String configuration) {
        InvalidMetadataException e = rejected(configuration);
        assertEquals(POINTER + "/level", e.pointer());
        assertTrue(e.getMessage().contains(POINTER + "/level"), e.getMessage());
        assertTrue(e.getMessage().contains("[-131072, 22]"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"checksum\": \"true\"}", "{\"checksum\": 1}", "{\"checksum\": null}",
            "{\"level\": 1, \"checksum\": {}}"})
    void rejectsABadChecksumNamingTheField(String configuration) {
        InvalidMetadataException e = rejected(configuration);
        assertEquals(POINTER + "/checksum", e.pointer());
        assertTrue(e.getMessage().contains("true or false"), e.getMessage());
    }

    @Test
    void messagesNameTheValue() {
        assertTrue(rejected("{\"level\": 23}").getMessage().contains("found 23"));
        assertTrue(rejected("{\"level\": \"5\"}").getMessage().contains("\"5\""));
        assertTrue(rejected("{\"checksum\": 1}").getMessage().contains("found 1"));
        assertTrue(rejected("{\"level\": null}").getMessage().contains("found null"));
    }

    @Test
    void rejectsUnknownFields() {
        InvalidMetadataException e = rejected("{\"level\": 5, \"checksum\": false, \"threads\": 4}");
        assertEquals(POINTER + "/threads", e.pointer());
        assertTrue(e.getMessage().contains("unknown configuration field 'threads'"), e.getMessage());
        assertTrue(e.getMessage().contains("checksum, level"), e.getMessage());
    }

    @Test
    void rejectsAConfigurationThatIsNotAnObject() {
        assertEquals(POINTER, rejected("[5]").pointer());
    }

    @Test
    void foundByServiceLoaderOnTheModulePath() {
        getClass().getModule().addUses(CodecProvider.class);
        assertTrue(getClass().getModule().isNamed(), "this test runs on the module path");
        assertTrue(ServiceLoader.load(CodecProvider.class).stream()
                .anyMatch(p -> p.type() == ZstdCodecProvider.class));
    }
}
