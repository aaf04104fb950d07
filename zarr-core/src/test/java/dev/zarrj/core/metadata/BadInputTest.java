package dev.zarrj.core.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kind of bad input gets a specific exception whose message names the key, field or value.
 */
class BadInputTest {
    private static final Zarr ZARR = Zarr.defaults();

    private static final String VALID = """
            {"zarr_format": 3, "node_type": "array", "shape": [4, 6], "data_type": "int16",
             "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3]}},
             "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
             "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}""";

    private static Store storeWith(String json) {
        Store s = ZARR.openStore("memory:");
        s.set(StoreKey.of("arr/zarr.json"), ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
        return s;
    }

    private static <T extends ZarrException> T openFails(Class<T> type, String json, String... mentions) {
        T e = assertThrows(type, () -> ZARR.open(storeWith(json), "/arr"));
        for (String m : mentions) {
            assertTrue(e.getMessage().contains(m), "message should mention '" + m + "': " + e.getMessage());
        }
        return e;
    }

    private static String with(String member, String value) {
        return VALID.replaceFirst("\"" + member + "\": [^\\n]*?(, \"|}\\s*$|,\\n)", "\"" + member + "\": " + value + "$1");
    }

    @Test
    void theValidDocumentOpens() {
        ZarrArray a = ZARR.openArray(storeWith(VALID), "/arr");
        assertArrayEquals(new long[] {4, 6}, a.shape());
    }

    @Test
    void malformedJsonNamesTheKeyAndPosition() {
        openFails(InvalidMetadataException.class, "{\"zarr_format\": 3,", "arr/zarr.json", "not valid JSON", "line");
        openFails(InvalidMetadataException.class, "[1, 2]", "arr/zarr.json", "JSON object");
        openFails(InvalidMetadataException.class, "{\"zarr_format\": 3, \"zarr_format\": 3}", "zarr_format");
    }

    @Test
    void zarrFormat2IsReportedAsAV2Store() {
        UnsupportedFormatException e = openFails(UnsupportedFormatException.class,
                VALID.replace("\"zarr_format\": 3", "\"zarr_format\": 2"), "Zarr v2", "/zarr_format");
        assertEquals("/zarr_format", e.pointer());
        openFails(UnsupportedFormatException.class, VALID.replace("\"zarr_format\": 3", "\"zarr_format\": 4"), "4");
    }

    /** 2^32 + 3 and 2^32 + 2 are neither 3 nor 2: the format is never compared after truncation to 32 bits. */
    @Test
    void zarrFormatBeyondIntIsNotTruncatedTo3Or2() {
        openFails(UnsupportedFormatException.class, VALID.replace("\"zarr_format\": 3", "\"zarr_format\": 4294967299"),
                "zarr_format", "4294967299");
        openFails(UnsupportedFormatException.class, VALID.replace("\"zarr_format\": 3", "\"zarr_format\": 4294967298"),
                "zarr_format", "4294967298");
        openFails(UnsupportedFormatException.class, VALID.replace("\"zarr_format\": 3",
                "\"zarr_format\": 18446744073709551619"), "zarr_format", "18446744073709551619");
    }

    @Test
    void wrongNodeType() {
        openFails(InvalidMetadataException.class, VALID.replace("\"array\"", "\"table\""), "/node_type", "table");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[-1, 6]", "[4.5, 6]", "[\"4\", 6]", "4"})
    void badShape(String shape) {
        openFails(InvalidMetadataException.class, VALID.replace("[4, 6]", shape), "/shape");
    }

    @Test
    void chunkShapeOfTheWrongRankOrZero() {
        openFails(InvalidMetadataException.class, VALID.replace("[2, 3]", "[2]"), "chunk");
        openFails(InvalidMetadataException.class, VALID.replace("[2, 3]", "[0, 3]"), "/chunk_grid/configuration/chunk_shape");
    }

    @Test
    void unknownDataTypeNamesItAndIsNeverSkipped() {
        UnknownExtensionException e = openFails(UnknownExtensionException.class,
                VALID.replace("\"int16\"", "\"int128\""), "int128", "/data_type");
        assertEquals("int128", e.extensionName());
        openFails(UnknownExtensionException.class,
                VALID.replace("\"int16\"", "{\"name\": \"int128\", \"must_understand\": false}"), "int128");
    }

    @Test
    void structTypesFailNamingTheTypeAsNotImplemented() {
        String fields = "{\"fields\": [{\"name\": \"x\", \"data_type\": \"float32\"}]}";
        for (String name : new String[] {"struct", "structured"}) {
            UnknownExtensionException e = openFails(UnknownExtensionException.class, VALID.replace("\"int16\"",
                    "{\"name\": \"" + name + "\", \"configuration\": " + fields + "}"), "'" + name + "'",
                    "not implemented by zarrj", "/data_type");
            assertEquals(name, e.extensionName());
        }
    }

    @Test
    void aTypeOfAModuleNotInstalledNamesTheModule() {
        openFails(UnknownExtensionException.class, VALID.replace("\"int16\"",
                "{\"name\": \"numpy.datetime64\", \"configuration\": {\"unit\": \"s\", \"scale_factor\": 1}}"),
                "'numpy.datetime64'", "zarr-ext-datetime");
        openFails(UnknownExtensionException.class, VALID.replace("\"int16\"", "\"float8_e4m3\""), "zarr-ext-mldtypes");
        openFails(UnknownExtensionException.class, VALID.replace("\"int16\"", "\"complex_bfloat16\""), "zarr-ext-mldtypes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"40000", "1.5", "\"0\"", "true", "null", "[0]"})
    void fillValueOutOfRangeOrOfTheWrongType(String fill) {
        openFails(InvalidMetadataException.class, VALID.replace("\"fill_value\": 0", "\"fill_value\": " + fill),
                "/fill_value");
    }

    @Test
    void invalidCodecChains() {
        openFails(InvalidMetadataException.class, VALID.replace(
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]", "[]"), "array→bytes");
        openFails(InvalidMetadataException.class, VALID.replace(
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]",
                "[{\"name\": \"crc32c\"}, {\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]"),
                "/codecs/0", "crc32c");
        openFails(InvalidMetadataException.class, VALID.replace(
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]",
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, "
                        + "{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 0]}}]"), "/codecs/1", "transpose");
        openFails(InvalidMetadataException.class, VALID.replace("{\"endian\": \"little\"}", "{\"endian\": \"middle\"}"),
                "/codecs/0/configuration/endian", "middle");
        openFails(InvalidMetadataException.class, VALID.replace("{\"endian\": \"little\"}", "{}"), "endian");
    }

    @Test
    void unknownCodecFailsUnlessMarkedIgnorable() {
        String unknown = VALID.replace("}}]}", "}}, {\"name\": \"squash\"}]}");
        UnknownExtensionException e = openFails(UnknownExtensionException.class, unknown, "squash", "/codecs/1");
        assertEquals("squash", e.extensionName());
        String ignorable = VALID.replace("}}]}", "}}, {\"name\": \"squash\", \"must_understand\": false}]}");
        ZarrArray a = ZARR.openArray(storeWith(ignorable), "/arr");
        assertTrue(a.isReadOnly(), "an array with a skipped codec is read-only");
        assertThrows(dev.zarrj.api.ReadOnlyException.class, () -> a.write(new long[] {0, 0}, new long[] {1, 1}, new short[1]));
        assertEquals(2, a.codecs().size(), "the skipped codec is kept in the metadata");
    }

    @Test
    void unknownStorageTransformerFailsUnlessMarkedIgnorable() {
        String unknown = VALID.replace("\"fill_value\": 0", "\"fill_value\": 0, \"storage_transformers\": "
                + "[{\"name\": \"chunk-manifest-json\", \"configuration\": {\"manifest\": \"./m.json\"}}]");
        openFails(UnknownExtensionException.class, unknown, "chunk-manifest-json", "/storage_transformers/0");
        ZarrArray a = ZARR.openArray(storeWith(unknown.replace("\"name\": \"chunk-manifest-json\",",
                "\"name\": \"chunk-manifest-json\", \"must_understand\": false,")), "/arr");
        assertTrue(a.isReadOnly());
        assertEquals(java.util.List.of("storage transformer chunk-manifest-json"), a.skippedExtensions());
    }

    @Test
    void knownCodecWithBrokenConfigurationFailsEvenIfIgnorable() {
        openFails(InvalidMetadataException.class, VALID.replace("}}]}",
                "}}, {\"name\": \"crc32c\", \"configuration\": {\"x\": 1}, \"must_understand\": false}]}"), "/codecs/1");
    }

    /** zarr-core's tests run without any plugin, as a user who did not add them. */
    @ParameterizedTest
    @ValueSource(strings = {"gzip:zarr-codec-gzip", "blosc:zarr-codec-blosc", "zstd:zarr-codec-zstd",
        "sharding_indexed:zarr-codec-sharding"})
    void aCodecFromAMissingPluginNamesTheModuleToAdd(String codecAndModule) {
        String codec = codecAndModule.split(":")[0];
        String module = codecAndModule.split(":")[1];
        UnknownExtensionException e = openFails(UnknownExtensionException.class,
                VALID.replace("}}]}", "}}, {\"name\": \"" + codec + "\", \"configuration\": {}}]}"), codec, module,
                "add it to the module path or class path");
        assertEquals(codec, e.extensionName());
    }

    @Test
    void unknownTopLevelKeyFailsUnlessMarkedIgnorable() {
        openFails(UnknownExtensionException.class, VALID.replace("\"fill_value\": 0", "\"fill_value\": 0, \"extra\": 1"),
                "extra");
        openFails(UnknownExtensionException.class, VALID.replace("\"fill_value\": 0",
                "\"fill_value\": 0, \"extra\": {\"must_understand\": true}"), "extra");
        ZarrArray a = ZARR.openArray(storeWith(VALID.replace("\"fill_value\": 0",
                "\"fill_value\": 0, \"extra\": {\"must_understand\": false, \"x\": 1}")), "/arr");
        assertEquals(1, a.metadata().get("extra").get("x").asInt(), "ignorable members are kept");
    }

    private static ZarrArray arrayWith(String codecs, Store store) {
        return ZARR.array(DataTypes.INT16, 4, 6).chunks(2, 3).codecs(codecs).create(store, "/arr");
    }

    @Test
    void crc32cMismatchIsAChecksumError() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = arrayWith("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}]", store);
        a.write(new long[] {0, 0}, new long[] {2, 3}, new short[] {1, 2, 3, 4, 5, 6});
        ByteBuffer b = store.get(StoreKey.of("arr/c/0/0")).orElseThrow();
        ByteBuffer copy = ByteBuffer.allocate(b.remaining()).put(b).flip();
        copy.put(0, (byte) 9);
        store.set(StoreKey.of("arr/c/0/0"), copy);
        ChunkDecodeException e = assertThrows(ChunkDecodeException.class, () -> a.read());
        assertEquals("arr/c/0/0", e.key());
        assertInstanceOf(ChecksumMismatchException.class, e.getCause());
    }

    @Test
    void chunkOfTheWrongDecodedSizeIsRefused() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = arrayWith("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]", store);
        store.set(StoreKey.of("arr/c/0/1"), ByteBuffer.allocate(11));
        ChunkDecodeException truncated = assertThrows(ChunkDecodeException.class, () -> a.read());
        assertEquals("arr/c/0/1", truncated.key());
        assertInstanceOf(CorruptDataException.class, truncated.getCause());
        store.set(StoreKey.of("arr/c/0/1"), ByteBuffer.allocate(13));
        assertThrows(ChunkDecodeException.class, () -> a.read());

        // The same through a bytes→bytes codec: a valid crc32c value around too many bytes.
        Store gz = ZARR.openStore("memory:");
        ZarrArray g = arrayWith("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
                + "{\"name\":\"crc32c\"}]", gz);
        ZarrArray longer = ZARR.array(DataTypes.INT16, 4, 8).chunks(2, 4)
                .codecs(g.codecs()).create(gz, "/other");
        longer.write(new long[] {0, 0}, new long[] {2, 4}, new short[] {1, 2, 3, 4, 5, 6, 7, 8});
        gz.set(StoreKey.of("arr/c/0/0"), gz.get(StoreKey.of("other/c/0/0")).orElseThrow());
        ChunkDecodeException tooLong = assertThrows(ChunkDecodeException.class, () -> g.read());
        assertEquals("arr/c/0/0", tooLong.key());
    }

    @ParameterizedTest
    @ValueSource(strings = {"../escape", "a/../b", "/abs", "back\\slash", "nul\0x", "a//b", "trailing/"})
    void badKeysAreRefused(String key) {
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> StoreKey.of(key));
        assertTrue(e.getMessage().contains("key"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/..", "a/../b", "/__zarr", "/a/./b"})
    void badNodePathsAreRefused(String path) {
        assertThrows(InvalidKeyException.class, () -> ZARR.open(ZARR.openStore("memory:"), path));
    }

    @Test
    void aFailedWriteLeavesThePreviousChunkIntact() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = arrayWith("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]", store);
        a.write(new long[] {0, 0}, new long[] {2, 3}, new short[] {1, 2, 3, 4, 5, 6});
        Store failing = new FailingStore(store);
        ZarrArray viaFailing = ZARR.openArray(failing, "/arr");
        assertThrows(StoreException.class,
                () -> viaFailing.write(new long[] {0, 0}, new long[] {1, 1}, new short[] {99}));
        assertArrayEquals(new short[] {1, 2, 3, 4, 5, 6},
                ZARR.openArray(store, "/arr").read(new long[] {0, 0}, new long[] {2, 3}).toShortArray());
    }

    @Test
    void writesWithTheWrongElementTypeAreRefused() {
        ZarrArray a = arrayWith("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]", ZARR.openStore("memory:"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> a.write(new long[] {0, 0}, new long[] {1, 1}, new int[] {1}));
        assertTrue(e.getMessage().contains("short[]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.read(new long[] {3, 0}, new long[] {2, 1}));
    }

    @Test
    void builderRejectsBadCodecConfiguration() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.FLOAT32, 4).codec("crc32c", Map.of("level", 12)).create(ZARR.openStore("memory:"), "/"));
        assertTrue(e.getMessage().contains("level"), e.getMessage());
    }

    /** A store whose writes fail after reaching the store, like a full disk. */
    private static final class FailingStore implements Store {
        private final Store inner;

        FailingStore(Store inner) {
            this.inner = inner;
        }

        @Override
        public dev.zarrj.api.store.StoreCapabilities capabilities() {
            return inner.capabilities();
        }

        @Override
        public String describe() {
            return "failing(" + inner.describe() + ")";
        }

        @Override
        public java.util.Optional<ByteBuffer> get(StoreKey key) {
            return inner.get(key);
        }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            throw new StoreException(describe() + ": disk full writing '" + key + "'", null);
        }

        @Override
        public void erase(StoreKey key) {
            throw new StoreException(describe() + ": cannot erase '" + key + "'", null);
        }

        @Override
        public java.util.List<StoreKey> listPrefix(String prefix) {
            return inner.listPrefix(prefix);
        }
    }
}
