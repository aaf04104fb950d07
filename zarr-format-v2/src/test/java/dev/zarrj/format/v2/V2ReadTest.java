package dev.zarrj.format.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** v2 documents to v3: every mapping of the translation and every error. */
class V2ReadTest {
    static final JsonMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_SINGLE_QUOTES).build();
    static final ZarrV2Format V2 = new ZarrV2Format();
    static final Zarr ZARR = Zarr.defaults();

    static JsonNode json(String s) {
        try {
            return JSON.readTree(s);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(s, e);
        }
    }

    /** A .zarray as zarr-python 2 writes one, with {@code changes} (a JSON object) merged in; null values remove. */
    static ObjectNode zarray(String changes) {
        ObjectNode z = (ObjectNode) json("{'chunks': [2, 3], 'compressor': null, 'dtype': '<i4', 'fill_value': 0,"
                + " 'filters': null, 'order': 'C', 'shape': [4, 6], 'zarr_format': 2}");
        json(changes).properties().forEach(e -> {
            if (e.getValue().isTextual() && e.getValue().textValue().equals("REMOVE")) {
                z.remove(e.getKey());
            } else {
                z.set(e.getKey(), e.getValue());
            }
        });
        return z;
    }

    static TranslatedNode read(String prefix, Map<String, JsonNode> docs) {
        return V2.read(new StoredDocuments(prefix, docs)).orElseThrow();
    }

    static ObjectNode array(String changes) {
        ObjectNode doc = read("a/", Map.of(".zarray", zarray(changes))).document();
        ZARR.createArray(ZARR.openStore("memory:"), "/a", doc.deepCopy(), true);    // core accepts it
        return doc;
    }

    static <T extends InvalidMetadataException> T fails(Class<T> type, String changes, String pointer, String... inMessage) {
        T e = assertThrows(type, () -> read("g/a/", Map.of(".zarray", zarray(changes))));
        assertEquals(type, e.getClass());
        assertEquals(pointer, e.pointer());
        assertTrue(e.getMessage().contains("'g/a/.zarray'"), e.getMessage());
        for (String s : inMessage) {
            assertTrue(e.getMessage().contains(s), "'" + s + "' in: " + e.getMessage());
        }
        return e;
    }

    @Test
    void theFormatNamesItselfAndIsAService() {
        assertEquals("v2", V2.name());
        assertEquals(2, V2.zarrFormat());
        assertEquals(List.of(".zarray", ".zgroup", ".zattrs"), V2.documentNames());
        assertEquals(Optional.of(".zmetadata"), V2.consolidatedDocumentName());
        assertInstanceOf(ZarrV2Format.class, ZARR.registry().find(ExtensionPoint.METADATA_FORMAT, "v2", MetadataFormat.class)
                .orElseThrow(), "registered through module-info and auto-service");
    }

    @Test
    void anArrayReadsAsTheEquivalentV3Document() {
        TranslatedNode node = read("a/", Map.of(".zarray", zarray("{'compressor': {'id': 'zstd', 'level': 3}}"),
                ".zattrs", json("{'units': 'm'}")));
        assertEquals(json("{'zarr_format': 3, 'node_type': 'array', 'shape': [4, 6], 'data_type': 'int32',"
                + " 'chunk_grid': {'name': 'regular', 'configuration': {'chunk_shape': [2, 3]}},"
                + " 'chunk_key_encoding': {'name': 'v2', 'configuration': {'separator': '.'}}, 'fill_value': 0,"
                + " 'codecs': [{'name': 'bytes', 'configuration': {'endian': 'little'}},"
                + " {'name': 'zstd', 'configuration': {'level': 3, 'checksum': false}}],"
                + " 'attributes': {'units': 'm'}}"), node.document());
        assertFalse(node.storesEveryChunk());
        assertEquals(new TranslatedNode.Origin("a/.zarray", "/compressor"), node.origins().get("/codecs/1"));
        assertEquals(new TranslatedNode.Origin("a/.zarray", "/dtype"), node.origins().get("/data_type"));
        assertEquals(new TranslatedNode.Origin("a/.zarray", "/fill_value"), node.origins().get("/fill_value"));
        assertEquals(new TranslatedNode.Origin("a/.zattrs", ""), node.origins().get("/attributes"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'|b1'; 'bool'; {}",
        "'|i1'; 'int8'; {}",
        "'|u1'; 'uint8'; {}",
        "'<i2'; 'int16'; {'endian': 'little'}",
        "'>i2'; 'int16'; {'endian': 'big'}",
        "'<i8'; 'int64'; {'endian': 'little'}",
        "'<u2'; 'uint16'; {'endian': 'little'}",
        "'>u4'; 'uint32'; {'endian': 'big'}",
        "'<u8'; 'uint64'; {'endian': 'little'}",
        "'<f2'; 'float16'; {'endian': 'little'}",
        "'>f4'; 'float32'; {'endian': 'big'}",
        "'<f8'; 'float64'; {'endian': 'little'}",
        "'<c8'; 'complex64'; {'endian': 'little'}",
        "'>c16'; 'complex128'; {'endian': 'big'}",
        "'<M8[ns]'; {'name': 'numpy.datetime64', 'configuration': {'unit': 'ns', 'scale_factor': 1}}; {'endian': 'little'}",
        "'>m8[s]'; {'name': 'numpy.timedelta64', 'configuration': {'unit': 's', 'scale_factor': 1}}; {'endian': 'big'}",
        "'<M8[10s]'; {'name': 'numpy.datetime64', 'configuration': {'unit': 's', 'scale_factor': 10}}; {'endian': 'little'}",
        "'<M8'; {'name': 'numpy.datetime64', 'configuration': {'unit': 'generic', 'scale_factor': 1}}; {'endian': 'little'}",
        "'<U10'; {'name': 'fixed_length_utf32', 'configuration': {'length_bytes': 40}}; {'endian': 'little'}",
        "'>U2'; {'name': 'fixed_length_utf32', 'configuration': {'length_bytes': 8}}; {'endian': 'big'}",
        "'|S10'; {'name': 'null_terminated_bytes', 'configuration': {'length_bytes': 10}}; {}",
        "'|V3'; 'r24'; {}",
    })
    void everySimpleDtypeHasItsDataTypeAndByteOrder(String quoted, String dataType, String bytesConfig) {
        String dtype = quoted.replace("'", "");
        ObjectNode doc = array("{'dtype': '" + dtype + "', 'fill_value': null}");
        assertEquals(json(dataType), doc.get("data_type"));
        assertEquals(json("{'name': 'bytes', 'configuration': " + bytesConfig + "}"), doc.get("codecs").get(0));
        // and back: the same dtype, new node or not
        Map<String, JsonNode> back = V2.write(doc, StoredDocuments.none("a/"));
        assertEquals(dtype, back.get(".zarray").get("dtype").asText());
    }

    @Test
    void objectArraysTakeTheirTypeAndArrayToBytesCodecFromTheObjectCodec() {
        ObjectNode s = array("{'dtype': '|O', 'fill_value': 0, 'filters': [{'id': 'vlen-utf8'}], 'compressor':"
                + " {'id': 'blosc', 'cname': 'lz4', 'clevel': 5, 'shuffle': -1, 'blocksize': 0}}");
        assertEquals(json("'string'"), s.get("data_type"));
        assertEquals(json("''"), s.get("fill_value"), "zarr-python 2 writes 0 for an object array's default");
        assertEquals(json("[{'name': 'vlen-utf8', 'configuration': {}}, {'name': 'blosc', 'configuration':"
                + " {'cname': 'lz4', 'clevel': 5, 'shuffle': 'bitshuffle', 'typesize': 1, 'blocksize': 0}}]"),
                s.get("codecs"));
        ObjectNode b = array("{'dtype': '|O', 'fill_value': null, 'filters': [{'id': 'vlen-bytes'}, {'id': 'crc32'}]}");
        assertEquals(json("'bytes'"), b.get("data_type"));
        assertEquals(json("[{'name': 'vlen-bytes', 'configuration': {}}, {'name': 'numcodecs.crc32', 'configuration': {}}]"),
                b.get("codecs"));
        assertEquals(json("'ab'"), array("{'dtype': '|O', 'fill_value': 'ab', 'filters': [{'id': 'vlen-utf8'}]}")
                .get("fill_value"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pickle", "json2", "msgpack2", "vlen-array", "categorize"})
    void otherObjectCodecsAreUnsupported(String id) {
        fails(UnsupportedFormatException.class, "{'dtype': '|O', 'filters': [{'id': '" + id + "'}]}", "/filters/0",
                "\"" + id + "\"", "vlen-utf8");
    }

    @Test
    void anObjectArrayWithoutObjectCodecIsInvalid() {
        fails(InvalidMetadataException.class, "{'dtype': '|O'}", "/filters", "object codec");
        fails(InvalidMetadataException.class, "{'filters': [{'id': 'vlen-utf8'}]}", "/filters/0", "\"<i4\"");
    }

    @Test
    void structuredDtypesAreUnsupported() {
        fails(UnsupportedFormatException.class, "{'dtype': [['r', '|u1'], ['g', '|u1']]}", "/dtype", "structured");
    }

    @ParameterizedTest
    @ValueSource(strings = {"'<i3'", "'float64'", "'|f8'", "5", "'<U0'", "'<M8[xs]'", "'<S3x'", "'<b2'", "'>c4'", "null"})
    void unknownDtypesAreInvalid(String value) {
        fails(InvalidMetadataException.class, "{'dtype': " + value + "}", "/dtype",
                value.equals("null") ? "null" : value.replace('\'', '"'));
    }

    @Test
    void orderFIsTheReversedTransposeFirst() {
        ObjectNode doc = array("{'shape': [2, 3, 4], 'chunks': [1, 2, 3], 'order': 'F', 'filters':"
                + " [{'id': 'delta', 'dtype': '<i4'}], 'compressor': {'id': 'gzip', 'level': 5}}");
        assertEquals(json("[{'name': 'transpose', 'configuration': {'order': [2, 1, 0]}},"
                + " {'name': 'numcodecs.delta', 'configuration': {'dtype': '<i4'}},"
                + " {'name': 'bytes', 'configuration': {'endian': 'little'}},"
                + " {'name': 'gzip', 'configuration': {'level': 5}}]"), doc.get("codecs"));
        TranslatedNode n = read("a/", Map.of(".zarray", zarray("{'order': 'F'}")));
        assertEquals(new TranslatedNode.Origin("a/.zarray", "/order"), n.origins().get("/codecs/0"));
    }

    @Test
    void bloscTakesTheTypeSizeOfWhatReachesItAndResolvesAutoShuffle() {
        String blosc = "'compressor': {'id': 'blosc', 'cname': 'zstd', 'clevel': 1, 'shuffle': -1, 'blocksize': 0}";
        JsonNode f8 = array("{'dtype': '<f8', " + blosc + "}").get("codecs").get(1).get("configuration");
        assertEquals("shuffle", f8.get("shuffle").asText());
        assertEquals(8, f8.get("typesize").asInt());
        JsonNode u1 = array("{'dtype': '|u1', " + blosc + "}").get("codecs").get(1).get("configuration");
        assertEquals("bitshuffle", u1.get("shuffle").asText());
        assertEquals(1, u1.get("typesize").asInt());
        JsonNode astype = array("{'dtype': '<f8', 'filters': [{'id': 'astype', 'encode_dtype': '<f2', 'decode_dtype':"
                + " '<f8'}], " + blosc + "}").get("codecs").get(2).get("configuration");
        assertEquals(2, astype.get("typesize").asInt());
        JsonNode packbits = array("{'dtype': '|b1', 'filters': [{'id': 'packbits'}], 'compressor': {'id': 'blosc',"
                + " 'cname': 'lz4', 'clevel': 5, 'shuffle': 0}}").get("codecs").get(2).get("configuration");
        assertEquals(json("{'cname': 'lz4', 'clevel': 5, 'shuffle': 'noshuffle', 'typesize': 1, 'blocksize': 0}"), packbits);
        JsonNode wide = array("{'dtype': '<U100', 'fill_value': '', " + blosc + "}").get("codecs").get(1).get("configuration");
        assertEquals(1, wide.get("typesize").asInt(), "c-blosc takes a type size above 255 as 1");
        fails(InvalidMetadataException.class, "{'compressor': {'id': 'blosc', 'shuffle': 3}}", "/compressor/shuffle", "3");
        fails(UnsupportedFormatException.class, "{'compressor': {'id': 'blosc', 'typesize': 4}}", "/compressor/typesize",
                "typesize");
    }

    @Test
    void bytesFiltersGoAfterTheArrayToBytesCodecAndOnlyThere() {
        ObjectNode doc = array("{'dtype': '|u1', 'filters': [{'id': 'delta', 'dtype': '|u1'}, {'id': 'crc32'}],"
                + " 'compressor': {'id': 'zlib', 'level': 1}}");
        assertEquals(List.of("numcodecs.delta", "bytes", "numcodecs.crc32", "numcodecs.zlib"),
                doc.get("codecs").findValuesAsText("name"));
        fails(UnsupportedFormatException.class, "{'filters': [{'id': 'crc32'}, {'id': 'delta', 'dtype': '<i4'}]}",
                "/filters/0", "\"delta\"");
    }

    /**
     * numcodecs filters view the chunk as their dtypes and hand on their output dtype: the bytes
     * reach the compressor in the byte order of the last output dtype that has one, else the
     * array's. In v3, filters work on values and only the bytes codec has a byte order.
     */
    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'>f8'; {'id': 'quantize', 'digits': 3, 'dtype': '>f8', 'astype': '>f8'}; {'digits': 3, 'dtype': '<f8', 'astype': '<f8'}; {'endian': 'big'}; /filters/0/astype",
        "'>i4'; {'id': 'delta', 'dtype': '>i4', 'astype': '>i4'}; {'dtype': '<i4', 'astype': '<i4'}; {'endian': 'big'}; /filters/0/astype",
        "'>i4'; {'id': 'delta', 'dtype': '>i4'}; {'dtype': '<i4'}; {'endian': 'big'}; /filters/0/dtype",
        "'>i4'; {'id': 'delta', 'dtype': '>i4', 'astype': '<i2'}; {'dtype': '<i4', 'astype': '<i2'}; {'endian': 'little'}; /filters/0/astype",
        "'>i4'; {'id': 'astype', 'encode_dtype': '<i2', 'decode_dtype': '>i4'}; {'encode_dtype': '<i2', 'decode_dtype': '<i4'}; {'endian': 'little'}; /filters/0/encode_dtype",
        "'>f8'; {'id': 'fixedscaleoffset', 'offset': 0, 'scale': 100, 'dtype': '>f8', 'astype': '>i2'}; {'offset': 0, 'scale': 100, 'dtype': '<f8', 'astype': '<i2'}; {'endian': 'big'}; /filters/0/astype",
        "'>f8'; {'id': 'fixedscaleoffset', 'offset': 0, 'scale': 100, 'dtype': '>f8', 'astype': '|u1'}; {'offset': 0, 'scale': 100, 'dtype': '<f8', 'astype': '|u1'}; {}; /filters/0/astype",
        "'<f4'; {'id': 'astype', 'encode_dtype': '>f2', 'decode_dtype': '<f4'}; {'encode_dtype': '<f2', 'decode_dtype': '<f4'}; {'endian': 'big'}; /filters/0/encode_dtype",
        "'|u1'; {'id': 'astype', 'encode_dtype': '>u2', 'decode_dtype': '|u1'}; {'encode_dtype': '<u2', 'decode_dtype': '|u1'}; {'endian': 'big'}; /filters/0/encode_dtype",
        "'<f8'; {'id': 'quantize', 'digits': 2, 'dtype': 'float64', 'astype': 'float32'}; {'digits': 2, 'dtype': 'float64', 'astype': 'float32'}; {'endian': 'little'}; /filters/0/astype",
        "'>f4'; {'id': 'bitround', 'keepbits': 8}; {'keepbits': 8}; {'endian': 'big'}; /dtype",
        "'|b1'; {'id': 'packbits'}; {}; {}; /filters/0",
    })
    void filterDtypesAreNativeAndTheBytesCodecTakesTheByteOrderThatReachesIt(String dtype, String filter, String v3Config,
            String bytesConfig, String bytesOrigin) {
        TranslatedNode n = read("a/", Map.of(".zarray", zarray("{'dtype': " + dtype + ", 'filters': [" + filter + "],"
                + " 'fill_value': null}")));
        ObjectNode doc = n.document();
        assertEquals(json(v3Config), doc.get("codecs").get(0).get("configuration"));
        assertEquals(json("{'name': 'bytes', 'configuration': " + bytesConfig + "}"), doc.get("codecs").get(1));
        assertEquals(new TranslatedNode.Origin("a/.zarray", bytesOrigin), n.origins().get("/codecs/1"));
        ZARR.createArray(ZARR.openStore("memory:"), "/a", doc.deepCopy(), true);    // core and the numcodecs codecs accept it
    }

    @Test
    void aFilterThatReinterpretsTheBytesReachingItIsUnsupported() {
        // numcodecs views the big-endian chunk as little-endian integers: no v3 chain of value filters says that
        fails(UnsupportedFormatException.class, "{'dtype': '>i4', 'filters': [{'id': 'delta', 'dtype': '<i4'}]}",
                "/filters/0/dtype", "big-endian", "\"<i4\"");
        fails(UnsupportedFormatException.class, "{'dtype': '>f8', 'filters': [{'id': 'fixedscaleoffset', 'offset': 0,"
                + " 'scale': 10, 'dtype': '>f8', 'astype': '<i4'}, {'id': 'astype', 'encode_dtype': '<i2', 'decode_dtype':"
                + " '>i4'}]}", "/filters/1/decode_dtype", "little-endian");
        fails(UnsupportedFormatException.class, "{'dtype': '>f8', 'filters': [{'id': 'quantize', 'digits': 1, 'dtype':"
                + " 'float64'}]}", "/filters/0/dtype", "float64");
    }

    @Test
    void aValidArrayDimensionsAttributeIsTheDimensionNames() {
        TranslatedNode n = read("a/", Map.of(".zarray", zarray("{}"), ".zattrs", json("{'_ARRAY_DIMENSIONS': ['y', 'x'],"
                + " 'u': 1}")));
        assertEquals(json("['y', 'x']"), n.document().get("dimension_names"));
        assertEquals(json("{'u': 1}"), n.document().get("attributes"), "said once, as dimension_names");
        assertEquals(json("{'_ARRAY_DIMENSIONS': ['y', 'x'], 'u': 1}"), V2.write(n.document(), StoredDocuments.none("a/"))
                .get(".zattrs"), "and written back as the attribute");
        assertEquals(new TranslatedNode.Origin("a/.zattrs", "/_ARRAY_DIMENSIONS"), n.origins().get("/dimension_names"));
        ZARR.createArray(ZARR.openStore("memory:"), "/a", n.document().deepCopy(), true);
        for (String invalid : List.of("['y']", "['y', 1]", "['y', null]", "'y'", "{}")) {
            ObjectNode doc = read("a/", Map.of(".zarray", zarray("{}"), ".zattrs", json("{'_ARRAY_DIMENSIONS': " + invalid
                    + "}"))).document();
            assertFalse(doc.has("dimension_names"), invalid);
            assertEquals(json(invalid), doc.get("attributes").get("_ARRAY_DIMENSIONS"));
        }
        assertFalse(read("g/", Map.of(".zgroup", json("{'zarr_format': 2}"), ".zattrs", json("{'_ARRAY_DIMENSIONS': []}")))
                .document().has("dimension_names"), "a group has no dimensions");
        JsonNode entry = consolidated("{'metadata': {'a/.zarray': " + zarray("{}") + ", 'a/.zattrs': {'_ARRAY_DIMENSIONS':"
                + " ['y', 'x']}}, 'zarr_consolidated_format': 1}").document().get("consolidated_metadata").get("metadata")
                .get("a");
        assertEquals(json("['y', 'x']"), entry.get("dimension_names"));
    }

    @Test
    void zfpyReplacesBytes() {
        ObjectNode doc = array("{'dtype': '<f8', 'compressor': {'id': 'zfpy', 'mode': 4, 'tolerance': -1, 'rate': -1,"
                + " 'precision': -1}, 'fill_value': 0.0}");
        assertEquals(json("[{'name': 'numcodecs.zfpy', 'configuration': {'mode': 4, 'tolerance': -1, 'rate': -1,"
                + " 'precision': -1}}]"), doc.get("codecs"));
        fails(UnsupportedFormatException.class, "{'dtype': '<f8', 'filters': [{'id': 'crc32'}], 'compressor': {'id': 'zfpy'}}",
                "/filters/0", "zfpy");
        fails(UnsupportedFormatException.class, "{'dtype': '<f8', 'filters': [{'id': 'zfpy'}]}", "/filters/0", "zfpy");
    }

    @Test
    void anyOtherIdIsANumcodecsCodecWhoseAbsenceCoreReportsAtItsOrigin() {
        TranslatedNode n = read("a/", Map.of(".zarray", zarray("{'filters': [{'id': 'nosuch', 'x': 1}],"
                + " 'compressor': {'id': 'lz4', 'acceleration': 1}}")));
        assertEquals(json("{'name': 'numcodecs.nosuch', 'configuration': {'x': 1}}"), n.document().get("codecs").get(0));
        assertEquals(json("{'name': 'numcodecs.lz4', 'configuration': {'acceleration': 1}}"), n.document().get("codecs").get(2));
        assertEquals(new TranslatedNode.Origin("a/.zarray", "/filters/0"), n.origins().get("/codecs/0"));
        assertEquals(new TranslatedNode.Origin("a/.zarray", "/dtype"), n.origins().get("/codecs/1"));
        assertEquals(new TranslatedNode.Origin("a/.zarray", "/compressor"), n.origins().get("/codecs/2"));
        fails(InvalidMetadataException.class, "{'compressor': {'level': 1}}", "/compressor/id", "id");
        fails(InvalidMetadataException.class, "{'filters': ['zlib']}", "/filters/0", "\"zlib\"");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'<f4'; 'NaN'; 'NaN'",
        "'<f4'; '-Infinity'; '-Infinity'",
        "'<f8'; 1.5; 1.5",
        "'<i4'; 0.0; 0",
        "'<u8'; 18446744073709551615; 18446744073709551615",
        "'|b1'; true; true",
        "'|b1'; 1; true",
        "'<c8'; ['NaN', 1.0]; ['NaN', 1.0]",
        "'<M8[ns]'; -9223372036854775808; -9223372036854775808",
        "'<m8[s]'; 'NaT'; 'NaT'",
        "'|S4'; 'YWI='; 'YWI='",
        "'|S4'; 'YWIAAA=='; 'YWI='",
        "'|V2'; 'AQI='; [1, 2]",
        "'<U3'; 'hé'; 'hé'",
        "'<U3'; 0; ''",
        "'|S2'; 0; ''",
        "'|V1'; 0; [0]",
    })
    void fillValues(String dtype, String fill, String v3) {
        assertEquals(json(v3), array("{'dtype': " + dtype + ", 'fill_value': " + fill + "}").get("fill_value"), dtype);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'|b1'; false", "'<i2'; 0", "'<f4'; 0.0", "'<c16'; [0.0, 0.0]", "'<M8[s]'; 0", "'<U2'; ''", "'|S2'; ''", "'|V2'; [0, 0]",
    })
    void aNullFillValueIsTheZeroAndEveryChunkIsStored(String dtype, String v3) {
        TranslatedNode n = read("a/", Map.of(".zarray", zarray("{'dtype': " + dtype + ", 'fill_value': null}")));
        assertEquals(json(v3), n.document().get("fill_value"));
        assertTrue(n.storesEveryChunk());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'<i2'; 40000; out of range", "'|u1'; -1; out of range", "'<i4'; 1.5; an integer", "'<f4'; 'nan'; a number",
        "'|b1'; 'yes'; true or false", "'<c8'; [1.0]; [real, imaginary]", "'|S2'; 'YWJj'; holds 3 bytes",
        "'|S2'; '***'; base64", "'<U1'; 'ab'; longer", "'<U1'; 1; a string", "'|S2'; 1; base64", "'<M8[s]'; 1.5; 64-bit integer",
    })
    void fillValuesThatDoNotFitTheDtypeAreInvalid(String dtype, String fill, String message) {
        fails(InvalidMetadataException.class, "{'dtype': " + dtype + ", 'fill_value': " + fill + "}", "/fill_value",
                message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters"})
    void everyRequiredKeyIsRequired(String key) {
        fails(InvalidMetadataException.class, "{'" + key + "': 'REMOVE'}", "/" + key, "missing");
    }

    @Test
    void malformedArrayMetadataIsInvalidAtTheField() {
        fails(InvalidMetadataException.class, "{'zarr_format': 3}", "/zarr_format", "must be 2");
        fails(InvalidMetadataException.class, "{'shape': [4, -1]}", "/shape/1", "-1");
        fails(InvalidMetadataException.class, "{'shape': 4}", "/shape", "list of integers");
        fails(InvalidMetadataException.class, "{'chunks': [2, 0]}", "/chunks/1", "at least 1");
        fails(InvalidMetadataException.class, "{'chunks': [2]}", "/chunks", "1 dimensions");
        fails(InvalidMetadataException.class, "{'order': 'X'}", "/order", "\"X\"");
        fails(InvalidMetadataException.class, "{'dimension_separator': '-'}", "/dimension_separator", "\"-\"");
        fails(InvalidMetadataException.class, "{'filters': {}}", "/filters", "list");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> read("a/", Map.of(".zarray", json("[1]"))));
        assertTrue(e.getMessage().contains("'a/.zarray'") && e.getMessage().contains("JSON object"), e.getMessage());
    }

    @Test
    void theDimensionSeparatorIsTheKeyEncodingsSeparator() {
        assertEquals(json("{'name': 'v2', 'configuration': {'separator': '/'}}"),
                array("{'dimension_separator': '/'}").get("chunk_key_encoding"));
        assertEquals(json("{'name': 'v2', 'configuration': {'separator': '.'}}"),
                array("{'dimension_separator': '.'}").get("chunk_key_encoding"));
    }

    @Test
    void aGroupReadsAsAGroupWithItsAttributes() {
        ObjectNode g = read("g/", Map.of(".zgroup", json("{'zarr_format': 2}"), ".zattrs", json("{'a': [1]}"))).document();
        assertEquals(json("{'zarr_format': 3, 'node_type': 'group', 'attributes': {'a': [1]}}"), g);
        assertEquals(json("{}"), read("", Map.of(".zgroup", json("{'zarr_format': 2}"))).document().get("attributes"));
        ZARR.createGroup(ZARR.openStore("memory:"), "/g", (ObjectNode) g.get("attributes"));
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> read("g/", Map.of(".zgroup", json("{'zarr_format': 1}"))));
        assertEquals("/zarr_format", e.pointer());
        assertTrue(e.getMessage().contains("'g/.zgroup'"), e.getMessage());
    }

    @Test
    void documentsThatMakeNoNodeOrTwoNodes() {
        assertEquals(Optional.empty(), V2.read(StoredDocuments.none("a/")));
        assertEquals(Optional.empty(), V2.read(new StoredDocuments("a/", Map.of(".zattrs", json("{}")))));
        InvalidMetadataException both = assertThrows(InvalidMetadataException.class,
                () -> read("a/", Map.of(".zarray", zarray("{}"), ".zgroup", json("{'zarr_format': 2}"))));
        assertTrue(both.getMessage().contains("'a/.zarray'") && both.getMessage().contains("both"), both.getMessage());
        InvalidMetadataException attrs = assertThrows(InvalidMetadataException.class,
                () -> read("a/", Map.of(".zarray", zarray("{}"), ".zattrs", json("[]"))));
        assertTrue(attrs.getMessage().contains("'a/.zattrs'"), attrs.getMessage());
    }

    static final String GROUP = "{'zarr_format': 2}";

    static TranslatedNode consolidated(String zmetadata) {
        return read("g/", Map.of(".zgroup", json(GROUP), ".zmetadata", json(zmetadata)));
    }

    @Test
    void consolidatedMetadataBecomeTheInlineMember() {
        String a = zarray("{'fill_value': null}").toString();
        TranslatedNode n = consolidated("{'metadata': {'.zgroup': " + GROUP + ", 'a/.zarray': " + a + ", 'a/.zattrs': {'x': 1},"
                + " 'b/.zgroup': " + GROUP + ", 'b/c/.zarray': " + zarray("{'dtype': '>f4'}")
                + "}, 'zarr_consolidated_format': 1}");
        JsonNode c = n.document().get("consolidated_metadata");
        assertEquals("inline", c.get("kind").asText());
        assertFalse(c.get("must_understand").asBoolean());
        assertEquals(List.of("a", "b", "b/c"), List.copyOf(((ObjectNode) c.get("metadata")).properties().stream()
                .map(Map.Entry::getKey).toList()));
        assertEquals(read("g/a/", Map.of(".zarray", json(a), ".zattrs", json("{'x': 1}"))).document(),
                c.get("metadata").get("a"));
        assertEquals("group", c.get("metadata").get("b").get("node_type").asText());
        assertEquals("float32", c.get("metadata").get("b/c").get("data_type").asText());
        assertFalse(n.storesEveryChunk(), "an entry's null fill value is not the group's");
        assertEquals(new TranslatedNode.Origin("g/.zmetadata", "/metadata/b~1c~1.zarray/dtype"),
                n.origins().get("/consolidated_metadata/metadata/b~1c/data_type"));
        ZARR.createGroup(ZARR.openStore("memory:"), "/g");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "[]",
        "{'metadata': {}}",
        "{'metadata': {}, 'zarr_consolidated_format': 2}",
        "{'metadata': [], 'zarr_consolidated_format': 1}",
    })
    void malformedConsolidatedMetadataAreIgnoredAndTheGroupReads(String zmetadata) {
        TranslatedNode n = consolidated(zmetadata);
        assertEquals("group", n.document().get("node_type").asText());
        assertFalse(n.document().has("consolidated_metadata"), "a cache that cannot be read is not used");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'a/.zarray': 5; 'g/.zmetadata'",
        "'a/.zarray': {'zarr_format': 2}; shape",
        "'a/.zattrs': {}; without its",
        "'a/.zarray': %s; structured",
    })
    void anEntryThatDoesNotTranslateIsNoNodeDocumentAndTheOthersServe(String entry, String message) {
        String structured = zarray("{'dtype': [['x', '<i4']]}").toString();
        TranslatedNode n = consolidated("{'metadata': {" + entry.replace("%s", structured) + ", 'b/.zarray': "
                + zarray("{}") + "}, 'zarr_consolidated_format': 1}");
        JsonNode entries = n.document().get("consolidated_metadata").get("metadata");
        assertFalse(entries.get("a").has("node_type"), "core reads that node from the store: " + entries.get("a"));
        assertTrue(entries.get("a").get(V2Reader.UNREADABLE).asText().contains(message), entries.get("a").toString());
        assertEquals("array", entries.get("b").get("node_type").asText());
        // written back, the entry's documents are kept as they were
        Map<String, JsonNode> back = V2.write(n.document(), new StoredDocuments("g/", Map.of(".zgroup", json(GROUP),
                ".zmetadata", json("{'metadata': {" + entry.replace("%s", structured) + ", 'b/.zarray': " + zarray("{}")
                        + "}, 'zarr_consolidated_format': 1}"))));
        JsonNode kept = back.get(".zmetadata").get("metadata");
        assertEquals(json("{" + entry.replace("%s", structured) + "}").fields().next().getValue(),
                kept.get(json("{" + entry.replace("%s", structured) + "}").fieldNames().next()));
    }
}
