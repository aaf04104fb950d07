package dev.zarrj.conformance.internal.format;

import static dev.zarrj.conformance.internal.extension.Extensions.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The kit's samples are valid for core, and its notion of "the same v3 document" is the spec's. */
class V3DocumentsTest {
    private static final String ARRAY = """
            {"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "%s",
             "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
             "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}},
             "fill_value": %s, "codecs": [%s]%s}""";

    private static String array(String type, String fill, String codec, String more) {
        return ARRAY.formatted(type, fill, codec, more);
    }

    @Test
    void everySampleIsValidForCore() throws Exception {
        Map<String, ObjectNode> samples = FormatSamples.all(true);
        assertTrue(samples.size() >= 17, samples.keySet().toString());
        Zarr zarr = Zarr.defaults();
        for (Map.Entry<String, ObjectNode> s : samples.entrySet()) {
            try (Store store = zarr.openStore("memory:")) {
                ObjectNode doc = s.getValue();
                if (doc.get("node_type").asText().equals("array")) {
                    zarr.createArray(store, "/a", doc.deepCopy(), true);
                } else {
                    store.set(StoreKey.of("a/zarr.json"), ByteBuffer.wrap(new ObjectMapper().writeValueAsBytes(doc)));
                    assertEquals(doc.path("attributes").size(), zarr.openGroup(store, "/a").attributes().size(), s.getKey());
                }
            }
            assertNull(V3Documents.difference(s.getValue(), s.getValue().deepCopy()), s.getKey());
        }
    }

    @Test
    void formsTheSpecLetsAWriterChooseAreTheSame() {
        String bytesLe = "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}";
        assertNull(V3Documents.difference(json(array("int32", "0", bytesLe, "")),
                json(array("int32", "0.0", bytesLe, ", \"attributes\": {}, \"storage_transformers\": []"))));
        assertNull(V3Documents.difference(json(array("uint8", "255", "{\"name\": \"bytes\"}", "")),
                json(array("uint8", "255", bytesLe, ", \"dimension_names\": [null]"))));
        assertNull(V3Documents.difference(json(array("int32", "0", bytesLe, "")),
                json(array("int32", "0", bytesLe, "")
                        .replace("{\"name\": \"regular\", \"configuration\"", "{\"configuration\"")
                        .replace("\"chunk_grid\": {", "\"chunk_grid\": {\"name\": \"regular\", "))));
        assertNull(V3Documents.difference(json("{\"data_type\": \"int32\"}"),
                json("{\"data_type\": {\"name\": \"int32\", \"configuration\": {}}}")));
    }

    @Test
    void differencesAreNamedByPointer() {
        String bytesLe = "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}";
        String bytesBe = "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}";
        String d = V3Documents.difference(json(array("int32", "0", bytesLe, "")), json(array("int32", "0", bytesBe, "")));
        assertNotNull(d);
        assertTrue(d.startsWith("at /codecs/0/configuration/endian: "), d);
        d = V3Documents.difference(json(array("float32", "-0.0", bytesLe, "")), json(array("float32", "0.0", bytesLe, "")));
        assertNotNull(d, "-0.0 and 0.0 are different fill values");
        assertTrue(d.startsWith("at /fill_value: "), d);
        d = V3Documents.difference(json(array("uint64", "18446744073709551615", bytesLe, "")),
                json(array("uint64", "1.8446744073709552E19", bytesLe, "")));
        assertNotNull(d, "the largest uint64 read through a double is another number");
        d = V3Documents.difference(json(array("int32", "0", bytesLe, ", \"attributes\": {\"a/b\": 1}")),
                json(array("int32", "0", bytesLe, "")));
        assertEquals("at /attributes: missing, expected {\"a/b\":1}", d);
        d = V3Documents.difference(json(array("int32", "0", bytesLe, ", \"attributes\": {\"a/b\": 1}")),
                json(array("int32", "0", bytesLe, ", \"attributes\": {\"a/b\": 2}")));
        assertEquals("at /attributes/a~1b: 2 instead of 1", d);
    }
}
