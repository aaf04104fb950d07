package dev.zarrj.format.v2;

import static dev.zarrj.format.v2.V2ReadTest.json;
import static dev.zarrj.format.v2.V2ReadTest.zarray;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.format.StoredDocuments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** v3 documents to v2: what v2 can say, what it cannot, and what a previous .zarray keeps. */
class V2WriteTest {
    static final ZarrV2Format V2 = new ZarrV2Format();

    /** An int32 array document, with {@code changes} merged in. */
    static ObjectNode doc(String changes) {
        ObjectNode d = (ObjectNode) json("{'zarr_format': 3, 'node_type': 'array', 'shape': [4, 6], 'data_type': 'int32',"
                + " 'chunk_grid': {'name': 'regular', 'configuration': {'chunk_shape': [2, 3]}},"
                + " 'chunk_key_encoding': {'name': 'v2', 'configuration': {'separator': '.'}}, 'fill_value': 0,"
                + " 'codecs': [{'name': 'bytes', 'configuration': {'endian': 'little'}}], 'attributes': {}}");
        d.setAll((ObjectNode) json(changes));
        return d;
    }

    static Map<String, JsonNode> write(ObjectNode doc) {
        return V2.write(doc, StoredDocuments.none("a/"));
    }

    static ObjectNode reread(Map<String, JsonNode> docs) {
        return V2.read(new StoredDocuments("a/", docs)).orElseThrow().document();
    }

    @Test
    void aNewArrayIsWrittenAsZarrPython2WritesIt() {
        Map<String, JsonNode> out = write(doc("{'codecs': [{'name': 'transpose', 'configuration': {'order': [1, 0]}},"
                + " {'name': 'numcodecs.delta', 'configuration': {'dtype': '<i4'}}, {'name': 'bytes', 'configuration':"
                + " {'endian': 'big'}}, {'name': 'numcodecs.crc32'}, {'name': 'blosc', 'configuration': {'cname': 'lz4',"
                + " 'clevel': 5, 'shuffle': 'shuffle', 'typesize': 4, 'blocksize': 0}}], 'attributes': {'x': 1}}"));
        assertEquals(List.of(".zarray", ".zattrs"), List.copyOf(out.keySet()));
        assertEquals(json("{'chunks': [2, 3], 'compressor': {'blocksize': 0, 'clevel': 5, 'cname': 'lz4', 'id': 'blosc',"
                + " 'shuffle': 1}, 'dtype': '>i4', 'fill_value': 0, 'filters': [{'dtype': '>i4', 'id': 'delta'},"
                + " {'id': 'crc32'}], 'order': 'F', 'shape': [4, 6], 'zarr_format': 2}"), out.get(".zarray"));
        assertEquals(List.of("chunks", "compressor", "dtype", "fill_value", "filters", "order", "shape", "zarr_format"),
                List.copyOf(((ObjectNode) out.get(".zarray")).properties().stream().map(Map.Entry::getKey).toList()),
                "keys sorted, as zarr-python 2 writes them");
        assertEquals(json("{'x': 1}"), out.get(".zattrs"));
        assertFalse(write(doc("{}")).containsKey(".zattrs"), "no attributes, no .zattrs (as zarr-python 2)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "{'codecs': [{'name': 'bytes', 'configuration': {'endian': 'little'}}, {'name': 'zstd', 'configuration': {'level': 0, 'checksum': false}}]}",
        "{'codecs': [{'name': 'bytes', 'configuration': {'endian': 'little'}}, {'name': 'zstd', 'configuration': {'level': 3, 'checksum': true}}]}",
        "{'codecs': [{'name': 'bytes', 'configuration': {'endian': 'big'}}, {'name': 'gzip', 'configuration': {'level': 1}}]}",
        "{'codecs': [{'name': 'bytes', 'configuration': {'endian': 'little'}}, {'name': 'blosc', 'configuration': {'cname': 'zstd', 'clevel': 1, 'shuffle': 'bitshuffle', 'typesize': 4, 'blocksize': 0}}]}",
        "{'chunk_key_encoding': {'name': 'v2', 'configuration': {'separator': '/'}}}",
        "{'data_type': 'float32', 'fill_value': 'NaN', 'codecs': [{'name': 'numcodecs.astype', 'configuration': {'encode_dtype': '<f2', 'decode_dtype': '<f4'}}, {'name': 'bytes', 'configuration': {'endian': 'little'}}]}",
        "{'data_type': 'string', 'fill_value': '', 'codecs': [{'name': 'vlen-utf8', 'configuration': {}}, {'name': 'numcodecs.zlib', 'configuration': {'level': 1}}]}",
        "{'data_type': 'bytes', 'fill_value': '', 'codecs': [{'name': 'vlen-bytes', 'configuration': {}}]}",
        "{'data_type': 'bool', 'fill_value': true, 'codecs': [{'name': 'bytes', 'configuration': {}}]}",
        "{'data_type': 'complex64', 'fill_value': ['NaN', 1.0], 'codecs': [{'name': 'bytes', 'configuration': {'endian': 'big'}}]}",
        "{'data_type': {'name': 'numpy.datetime64', 'configuration': {'unit': 'ms', 'scale_factor': 5}}, 'fill_value': -9223372036854775808}",
        "{'data_type': {'name': 'numpy.timedelta64', 'configuration': {'unit': 'generic', 'scale_factor': 1}}, 'fill_value': 7}",
        "{'data_type': {'name': 'fixed_length_utf32', 'configuration': {'length_bytes': 12}}, 'fill_value': 'abc'}",
        "{'data_type': 'r16', 'fill_value': [1, 2], 'codecs': [{'name': 'bytes', 'configuration': {}}]}",
        "{'data_type': 'float64', 'fill_value': 0.5, 'codecs': [{'name': 'numcodecs.zfpy', 'configuration': {'mode': 4, 'tolerance': -1, 'rate': -1, 'precision': -1}}]}",
        "{'shape': [], 'chunk_grid': {'name': 'regular', 'configuration': {'chunk_shape': []}}}",
    })
    void writtenThenReadIsTheDocument(String changes) {
        ObjectNode d = doc(changes);
        assertEquals(d, reread(write(d.deepCopy())));
    }

    /**
     * numcodecs filters view the chunk as their dtypes (zarr-python 2 hands them the array in its
     * dtype's byte order) and hand on their output dtype, which the compressor gets as it lies in
     * memory: every filter dtype takes the bytes codec's byte order.
     */
    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'float64'; {'name': 'numcodecs.quantize', 'configuration': {'digits': 3, 'dtype': '<f8', 'astype': '<f8'}}; 'big'; '>f8'; {'astype': '>f8', 'digits': 3, 'dtype': '>f8', 'id': 'quantize'}; true",
        "'int32'; {'name': 'numcodecs.delta', 'configuration': {'dtype': '<i4', 'astype': '<i2'}}; 'big'; '>i4'; {'astype': '>i2', 'dtype': '>i4', 'id': 'delta'}; true",
        "'int32'; {'name': 'numcodecs.astype', 'configuration': {'encode_dtype': '<i2', 'decode_dtype': '<i4'}}; 'big'; '>i4'; {'decode_dtype': '>i4', 'encode_dtype': '>i2', 'id': 'astype'}; true",
        "'float64'; {'name': 'numcodecs.fixedscaleoffset', 'configuration': {'offset': 0, 'scale': 100, 'dtype': 'float64', 'astype': 'int16'}}; 'big'; '>f8'; {'astype': '>i2', 'dtype': '>f8', 'id': 'fixedscaleoffset', 'offset': 0, 'scale': 100}; false",
        "'float64'; {'name': 'numcodecs.fixedscaleoffset', 'configuration': {'offset': 0, 'scale': 100, 'dtype': 'float64', 'astype': 'int16'}}; 'little'; '<f8'; {'astype': 'int16', 'dtype': 'float64', 'id': 'fixedscaleoffset', 'offset': 0, 'scale': 100}; true",
        "'float64'; {'name': 'numcodecs.fixedscaleoffset', 'configuration': {'offset': 0, 'scale': 100, 'dtype': '<f8', 'astype': '|u1'}}; 'big'; '>f8'; {'astype': '|u1', 'dtype': '>f8', 'id': 'fixedscaleoffset', 'offset': 0, 'scale': 100}; false",
        "'uint8'; {'name': 'numcodecs.astype', 'configuration': {'encode_dtype': '<u2', 'decode_dtype': '|u1'}}; 'big'; '|u1'; {'decode_dtype': '|u1', 'encode_dtype': '>u2', 'id': 'astype'}; true",
    })
    void filterDtypesTakeTheByteOrderOfTheBytesCodec(String dataType, String filter, String endian, String dtype,
            String v2Filter, boolean readsBackAsIs) {
        ObjectNode d = doc("{'data_type': " + dataType + ", 'codecs': [" + filter + ", {'name': 'bytes', 'configuration':"
                + " {'endian': " + endian + "}}]}");
        JsonNode z = write(d.deepCopy()).get(".zarray");
        assertEquals(dtype.replace("'", ""), z.get("dtype").asText());
        assertEquals(json(v2Filter), z.get("filters").get(0));
        // not as is: big-endian names read back as type strings, a one-byte type reaches bytes without endian
        if (readsBackAsIs) {
            assertEquals(d, reread(write(d.deepCopy())), "read back, the document");
        }
    }

    @Test
    void aFilterChainKeepsOneByteOrderThroughout() {
        JsonNode z = write(doc("{'data_type': 'float64', 'codecs': [{'name': 'numcodecs.fixedscaleoffset', 'configuration':"
                + " {'offset': 0, 'scale': 10, 'dtype': '<f8', 'astype': '<i4'}}, {'name': 'numcodecs.delta', 'configuration':"
                + " {'dtype': '<i4'}}, {'name': 'bytes', 'configuration': {'endian': 'big'}}]}")).get(".zarray");
        assertEquals(json("['>f8', '>i4', '>i4']"), json("['" + z.get("dtype").asText() + "', '"
                + z.get("filters").get(0).get("astype").asText() + "', '" + z.get("filters").get(1).get("dtype").asText()
                + "']"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'float32'; '0x7fc00000'; 'NaN'",
        "'float32'; '0x3f800000'; 1.0",
        "'float64'; '0xfff0000000000000'; '-Infinity'",
        "'float16'; '0x3c00'; 1.0",
        "{'name': 'numpy.datetime64', 'configuration': {'unit': 's', 'scale_factor': 1}}; 'NaT'; -9223372036854775808",
        "'bytes'; 'YWI='; 'ab'",
        "'bytes'; []; 0",
    })
    void fillValuesV2SpellsOtherwise(String dataType, String v3, String v2) {
        String a2b = dataType.equals("'bytes'") ? "[{'name': 'vlen-bytes'}]" : "[{'name': 'bytes', 'configuration': {'endian': 'little'}}]";
        JsonNode z = write(doc("{'data_type': " + dataType + ", 'fill_value': " + v3 + ", 'codecs': " + a2b + "}"))
                .get(".zarray");
        assertEquals(json(v2), z.get("fill_value"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "{'codecs': [{'name': 'sharding_indexed', 'configuration': {}}]}; /codecs/0; sharding",
        "{'chunk_grid': {'name': 'rectilinear', 'configuration': {}}}; /chunk_grid; regular",
        "{'chunk_key_encoding': {'name': 'default', 'configuration': {'separator': '/'}}}; /chunk_key_encoding; v2 chunk key",
        "{'codecs': [{'name': 'bytes', 'configuration': {'endian': 'little'}}, {'name': 'crc32c'}]}; /codecs/1; crc32c",
        "{'codecs': [{'name': 'transpose', 'configuration': {'order': [0, 1]}}, {'name': 'bytes'}]}; /codecs/0; full reversal",
        "{'codecs': [{'name': 'numcodecs.delta', 'configuration': {'dtype': '<i4'}}, {'name': 'transpose', 'configuration': {'order': [1, 0]}}, {'name': 'bytes'}]}; /codecs/1; first codec",
        "{'codecs': [{'name': 'scale_offset'}, {'name': 'bytes'}]}; /codecs/0; no Zarr v2 counterpart",
        "{'codecs': [{'name': 'bytes'}, {'name': 'some_compressor'}]}; /codecs/1; numcodecs id",
        "{'data_type': 'float64', 'codecs': [{'name': 'numcodecs.zfpy'}, {'name': 'numcodecs.crc32'}]}; /codecs/1; after the zfpy",
        "{'codecs': [{'name': 'numcodecs.delta', 'configuration': {'dtype': '<i4'}}]}; /codecs; array-to-bytes",
        "{'data_type': 'bfloat16', 'fill_value': 0}; /data_type; no Zarr v2 dtype",
        "{'data_type': 'string', 'fill_value': '', 'codecs': [{'name': 'vlen-bytes'}]}; /codecs/0; vlen-utf8",
        "{'dimension_names': ['y', null]}; /dimension_names; names every dimension",
        "{'dimension_names': ['y', 'x'], 'attributes': {'_ARRAY_DIMENSIONS': ['x', 'y']}}; /dimension_names; /attributes/_ARRAY_DIMENSIONS",
        "{'codecs': [{'name': 'numcodecs.delta', 'configuration': {'dtype': 'Int32'}}, {'name': 'bytes', 'configuration': {'endian': 'big'}}]}; /codecs/0/configuration/dtype; big-endian",
        "{'storage_transformers': [{'name': 't'}]}; /storage_transformers; storage transformers",
        "{'extra': {'must_understand': true}}; /extra; no Zarr v2 counterpart",
        "{'node_type': 'other'}; /node_type; arrays and groups",
    })
    void whatV2CannotSayIsUnsupportedNamingTheMember(String changes, String pointer, String message) {
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> write(doc(changes)));
        assertEquals(pointer, e.pointer());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void membersV2NeedNotUnderstandAreLeftOut() {
        Map<String, JsonNode> out = write(doc("{'extra': {'must_understand': false}, 'dimension_names': [null, null],"
                + " 'storage_transformers': []}"));
        assertFalse(out.get(".zarray").has("extra"));
    }

    @Test
    void dimensionNamesAreTheArrayDimensionsAttribute() {
        ObjectNode d = doc("{'dimension_names': ['y', 'x'], 'attributes': {'a': 1}}");
        Map<String, JsonNode> out = write(d.deepCopy());
        assertEquals(json("{'a': 1, '_ARRAY_DIMENSIONS': ['y', 'x']}"), out.get(".zattrs"));
        assertFalse(out.get(".zarray").has("dimension_names"));
        // read back: the same document (the names said once, as dimension_names); written again, the same documents
        ObjectNode back = reread(out);
        assertEquals(d, back);
        assertEquals(out, write(back.deepCopy()));
        // without attributes, the attribute alone; with the same one already there, nothing added
        assertEquals(json("{'_ARRAY_DIMENSIONS': ['y', 'x']}"), write(doc("{'dimension_names': ['y', 'x']}")).get(".zattrs"));
        assertEquals(json("{'_ARRAY_DIMENSIONS': ['y', 'x']}"), write(doc("{'dimension_names': ['y', 'x'], 'attributes':"
                + " {'_ARRAY_DIMENSIONS': ['y', 'x']}}")).get(".zattrs"));
        // a scalar has an empty list of names
        assertEquals(json("{'_ARRAY_DIMENSIONS': []}"), write(doc("{'shape': [], 'chunk_grid': {'name': 'regular',"
                + " 'configuration': {'chunk_shape': []}}, 'dimension_names': []}")).get(".zattrs"));
    }

    @Test
    void anAttributeUpdateKeepsTheStoredArrayDimensions() {
        ObjectNode stored = zarray("{'fill_value': null}");
        StoredDocuments previous = new StoredDocuments("a/", Map.of(".zarray", stored, ".zattrs",
                json("{'_ARRAY_DIMENSIONS': ['y', 'x'], 'k': 'v'}")));
        ObjectNode doc = V2.read(previous).orElseThrow().document();
        assertEquals(json("['y', 'x']"), doc.get("dimension_names"));
        assertEquals(previous.documents(), V2.write(doc.deepCopy(), previous), "written back as stored");
        doc.set("attributes", json("{'k': 'w'}"));
        Map<String, JsonNode> out = V2.write(doc, previous);
        assertEquals(stored, out.get(".zarray"), "the .zarray kept byte for byte (fill value null)");
        assertEquals(json("{'k': 'w', '_ARRAY_DIMENSIONS': ['y', 'x']}"), out.get(".zattrs"));
        ObjectNode noMember = doc.deepCopy();
        noMember.remove("attributes");
        assertEquals(previous.get(".zattrs").orElseThrow(), V2.write(noMember, previous).get(".zattrs"));
    }

    @Test
    void anUnchangedOrResizedArrayKeepsEveryByteOfItsZarray() {
        ObjectNode stored = zarray("{'dtype': '|S3', 'fill_value': null, 'compressor': {'shuffle': -1, 'id': 'blosc',"
                + " 'cname': 'lz4', 'clevel': 5}, 'dimension_separator': '.', 'extra_key': 1}");
        StoredDocuments previous = new StoredDocuments("a/", Map.of(".zarray", stored, ".zattrs", json("{'k': 'v'}")));
        ObjectNode doc = V2.read(previous).orElseThrow().document();
        doc.set("shape", json("[9, 6]"));
        doc.set("attributes", json("{'k': 'w'}"));
        Map<String, JsonNode> out = V2.write(doc, previous);
        ObjectNode expected = stored.deepCopy();
        expected.set("shape", json("[9, 6]"));
        assertEquals(expected, out.get(".zarray"));
        assertEquals(List.copyOf(stored.properties().stream().map(Map.Entry::getKey).toList()),
                List.copyOf(((ObjectNode) out.get(".zarray")).properties().stream().map(Map.Entry::getKey).toList()));
        assertEquals(json("{'k': 'w'}"), out.get(".zattrs"));
    }

    @Test
    void aChangedArrayKeepsItsDtypeSpellingAndItsNullFillValue() {
        ObjectNode stored = zarray("{'dtype': '|S3', 'fill_value': null, 'dimension_separator': '.'}");
        StoredDocuments previous = new StoredDocuments("a/", Map.of(".zarray", stored));
        ObjectNode doc = V2.read(previous).orElseThrow().document();
        ((com.fasterxml.jackson.databind.node.ArrayNode) doc.get("codecs")).addObject().put("name", "gzip")
                .putObject("configuration").put("level", 4);
        JsonNode z = V2.write(doc, previous).get(".zarray");
        assertEquals("|S3", z.get("dtype").asText());
        assertTrue(z.get("fill_value").isNull());
        assertEquals(json("{'id': 'gzip', 'level': 4}"), z.get("compressor"));
        assertEquals(".", z.get("dimension_separator").asText());
        // without the previous document, |S3 is null_terminated_bytes still, and the zero fill a value
        JsonNode fresh = V2.write(doc, StoredDocuments.none("a/")).get(".zarray");
        assertEquals("|S3", fresh.get("dtype").asText());
        assertEquals("", fresh.get("fill_value").asText());
        assertFalse(fresh.has("dimension_separator"));
    }

    @Test
    void attributesKeepAPreviousZattrs() {
        StoredDocuments previous = new StoredDocuments("a/", Map.of(".zarray", zarray("{}"), ".zattrs", json("{'a': 1}")));
        assertEquals(json("{}"), V2.write(doc("{'attributes': {}}"), previous).get(".zattrs"));
        ObjectNode noMember = doc("{}");
        noMember.remove("attributes");
        assertEquals(json("{'a': 1}"), V2.write(noMember, previous).get(".zattrs"));
    }

    @Test
    void aGroupWritesItsZgroupAndConsolidatedMetadata() {
        ObjectNode group = (ObjectNode) json("{'zarr_format': 3, 'node_type': 'group', 'attributes': {'t': 1}}");
        Map<String, JsonNode> plain = V2.write(group.deepCopy(), StoredDocuments.none("g/"));
        assertEquals(Map.of(".zgroup", json("{'zarr_format': 2}"), ".zattrs", json("{'t': 1}")), plain);

        ObjectNode a = doc("{'attributes': {'u': 2}}");
        ObjectNode consolidated = group.deepCopy();
        consolidated.putObject("consolidated_metadata").put("kind", "inline").put("must_understand", false)
                .putObject("metadata").<ObjectNode>set("a", a).set("b", json("{'zarr_format': 3, 'node_type': 'group',"
                        + " 'attributes': {}}"));
        Map<String, JsonNode> out = V2.write(consolidated.deepCopy(), StoredDocuments.none("g/"));
        JsonNode z = out.get(".zmetadata");
        assertEquals(1, z.get("zarr_consolidated_format").asInt());
        assertEquals(List.of(".zattrs", ".zgroup", "a/.zarray", "a/.zattrs", "b/.zgroup"),
                List.copyOf(((ObjectNode) z.get("metadata")).properties().stream().map(Map.Entry::getKey).toList()));
        assertEquals(write(a.deepCopy()).get(".zarray"), z.get("metadata").get("a/.zarray"));
        // and read back, the same group document
        ObjectNode back = V2.read(new StoredDocuments("g/", out)).orElseThrow().document();
        assertEquals(consolidated, back);

        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> V2.write((ObjectNode) json(
                "{'zarr_format': 3, 'node_type': 'group', 'consolidated_metadata': {'kind': 'other', 'metadata': {}}}"),
                StoredDocuments.none("g/")));
        assertEquals("/consolidated_metadata", e.pointer());
        ObjectNode bad = consolidated.deepCopy();
        ((ObjectNode) bad.get("consolidated_metadata").get("metadata").get("a")).set("chunk_grid", json("{'name': 'x'}"));
        UnsupportedFormatException inEntry = assertThrows(UnsupportedFormatException.class,
                () -> V2.write(bad, StoredDocuments.none("g/")));
        assertEquals("/consolidated_metadata/metadata/a/chunk_grid", inEntry.pointer());
    }

    @Test
    void consolidatedEntriesKeepTheirPreviousDocuments() {
        JsonNode storedA = zarray("{'fill_value': null, 'compressor': {'id': 'blosc', 'cname': 'lz4', 'clevel': 5,"
                + " 'shuffle': -1, 'blocksize': 0}}");
        ObjectNode zmeta = (ObjectNode) json("{'metadata': {'.zgroup': {'zarr_format': 2}, 'a/.zarray': " + storedA + ","
                + " 'a/.zattrs': {}}, 'zarr_consolidated_format': 1}");
        StoredDocuments previous = new StoredDocuments("g/", Map.of(".zgroup", json("{'zarr_format': 2}"), ".zmetadata", zmeta));
        ObjectNode group = V2.read(previous).orElseThrow().document();
        Map<String, JsonNode> out = V2.write(group.deepCopy(), previous);
        assertEquals(Map.of(".zgroup", json("{'zarr_format': 2}"), ".zmetadata", zmeta), out);
        ObjectNode without = group.deepCopy();
        without.remove("consolidated_metadata");
        assertFalse(V2.write(without, previous).containsKey(".zmetadata"), "no member, no .zmetadata");
    }
}
