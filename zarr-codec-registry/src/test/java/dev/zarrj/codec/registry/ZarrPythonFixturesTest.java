package dev.zarrj.codec.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.vectors.SharedVectors;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * zarr-python's metadata fixtures for {@code cast_value} and {@code scale_offset}, meant to be
 * accepted: each entry creates this module's codec, writes itself back to a configuration that
 * creates an equal one, and works on a {@code float64} chunk.
 */
class ZarrPythonFixturesTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> everyCaseIsAccepted() throws IOException {
        Assumptions.assumeTrue(SharedVectors.root().isPresent(), SharedVectors.ABSENT);
        List<DynamicTest> tests = new ArrayList<>();
        for (String codec : List.of("cast_value", "scale_offset")) {
            Path f = SharedVectors.root().get().resolve("zarr-python/metadata_fixtures/v3/codec").resolve(codec)
                    .resolve("cases.json");
            JsonNode cases = JSON.readTree(f.toFile());
            for (Iterator<Map.Entry<String, JsonNode>> it = cases.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> c = it.next();
                tests.add(DynamicTest.dynamicTest(codec + "/" + c.getKey(), () -> check(c.getValue())));
            }
        }
        return tests.stream();
    }

    private static void check(JsonNode entry) {
        String name = entry.isTextual() ? entry.asText() : entry.get("name").asText();
        CodecProvider p = ZARR.registry().find(ExtensionPoint.CODEC, name, CodecProvider.class).orElseThrow();
        Codec codec = p.create(ExtensionConfig.of(name, entry.path("configuration").isObject()
                ? entry.get("configuration") : null, "/codecs/0/configuration"), ZARR.providerContext());
        Codec again = p.create(ExtensionConfig.of(name, codec.configuration(), "/codecs/0/configuration"),
                ZARR.providerContext());
        assertEquals(codec.configuration(), again.configuration());
        if (codec instanceof ArrayToArrayCodec a) {
            ChunkSpec spec = new ChunkSpec(DataTypes.FLOAT64, new long[] {4}, DataTypes.FLOAT64.defaultFillValue());
            ChunkSpec encoded = a.encodedSpec(spec);
            assertEquals(4, encoded.elementCount());
        }
    }
}
