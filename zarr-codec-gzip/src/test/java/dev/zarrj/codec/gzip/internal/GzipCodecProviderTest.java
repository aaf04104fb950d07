package dev.zarrj.codec.gzip.internal;

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
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GzipCodecProviderTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String POINTER = "/codecs/1/configuration";
    static final ProviderContext NO_CONTEXT = (codecs, pointer) -> {
        throw new AssertionError("gzip does not nest codecs");
    };

    static Codec create(String configuration) throws Exception {
        JsonNode node = configuration == null ? null : JSON.readTree(configuration);
        return new GzipCodecProvider().create(ExtensionConfig.of("gzip", node, POINTER), NO_CONTEXT);
    }

    static InvalidMetadataException rejected(String configuration) {
        return assertThrows(InvalidMetadataException.class, () -> create(configuration));
    }

    @Test
    void nameIsGzip() {
        CodecProvider p = new GzipCodecProvider();
        assertEquals("gzip", p.name());
        assertTrue(p.aliases().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 5, 9})
    void createsACodecWithTheLevel(int level) throws Exception {
        Codec codec = create("{\"level\": " + level + "}");
        GzipCodec gzip = assertInstanceOf(GzipCodec.class, codec);
        assertEquals(level, gzip.gzipConfiguration().level());
    }

    @Test
    void metadataRoundTrip() throws Exception {
        Codec codec = create("{\"level\": 1}");
        assertEquals(JSON.readTree("{\"name\":\"gzip\",\"configuration\":{\"level\":1}}"), codec.toJson());
        assertEquals(JSON.readTree("{\"level\":1}"), codec.configuration());
        Codec again = create(codec.configuration().toString());
        assertEquals(codec, again);
        assertEquals(codec.toJson(), again.toJson());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"level\": 10}", "{\"level\": -1}", "{\"level\": \"5\"}", "{\"level\": 5.5}",
            "{\"level\": null}", "{\"level\": true}", "{}"})
    void rejectsABadLevelNamingTheField(String configuration) {
        InvalidMetadataException e = rejected(configuration);
        assertEquals(POINTER + "/level", e.pointer());
        assertTrue(e.getMessage().contains(POINTER + "/level"), e.getMessage());
        assertTrue(e.getMessage().contains("level"), e.getMessage());
    }

    @Test
    void messageNamesTheValueAndTheRange() {
        InvalidMetadataException e = rejected("{\"level\": 10}");
        assertTrue(e.getMessage().contains("[0, 9]") && e.getMessage().contains("10"), e.getMessage());
        e = rejected("{\"level\": \"5\"}");
        assertTrue(e.getMessage().contains("\"5\""), e.getMessage());
    }

    @Test
    void missingConfigurationIsAMissingLevel() {
        assertEquals(POINTER + "/level", rejected(null).pointer());
    }

    @Test
    void rejectsUnknownFields() {
        InvalidMetadataException e = rejected("{\"level\": 5, \"shuffle\": true}");
        assertEquals(POINTER + "/shuffle", e.pointer());
        assertTrue(e.getMessage().contains("unknown configuration field 'shuffle'"), e.getMessage());
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
                .anyMatch(p -> p.type() == GzipCodecProvider.class));
    }
}
