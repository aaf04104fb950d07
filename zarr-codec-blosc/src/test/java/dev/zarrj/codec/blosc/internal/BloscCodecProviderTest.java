package dev.zarrj.codec.blosc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.blosc.BloscConfiguration;
import dev.zarrj.codec.blosc.BloscConfiguration.Compressor;
import dev.zarrj.codec.blosc.BloscConfiguration.Shuffle;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BloscCodecProviderTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String POINTER = "/codecs/1/configuration";
    static final String FULL = "{\"cname\":\"lz4\",\"clevel\":1,\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}";
    static final ProviderContext NO_CONTEXT = (codecs, pointer) -> {
        throw new AssertionError("blosc does not nest codecs");
    };

    static Codec create(String configuration) throws Exception {
        return create(new BloscCodecProvider(), configuration);
    }

    static Codec create(BloscCodecProvider provider, String configuration) throws Exception {
        JsonNode node = configuration == null ? null : JSON.readTree(configuration);
        return provider.create(ExtensionConfig.of("blosc", node, POINTER), NO_CONTEXT);
    }

    static InvalidMetadataException rejected(String configuration) {
        return assertThrows(InvalidMetadataException.class, () -> create(configuration));
    }

    /** {@link #FULL} with one field replaced by raw JSON ({@code null} removes it). */
    static String with(String field, String json) throws Exception {
        var node = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(FULL);
        if (json == null) {
            node.remove(field);
        } else {
            node.set(field, JSON.readTree(json));
        }
        return node.toString();
    }

    @Test
    void nameIsBlosc() {
        CodecProvider p = new BloscCodecProvider();
        assertEquals("blosc", p.name());
        assertTrue(p.aliases().isEmpty());
    }

    @Test
    void neitherTheConstructorNorNameNorBadConfigurationLoadsTheLibrary() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        BloscCodecProvider p = new BloscCodecProvider(() -> {
            asked.incrementAndGet();
            throw new AssertionError("the library was asked for");
        });
        assertEquals("blosc", p.name());
        assertThrows(InvalidMetadataException.class, () -> create(p, "{\"clevel\": 5}"));
        assertEquals(0, asked.get());
    }

    @Test
    void createsACodecWithEveryField() throws Exception {
        BloscCodec codec = assertInstanceOf(BloscCodec.class,
                create("{\"cname\":\"zstd\",\"clevel\":7,\"shuffle\":\"bitshuffle\",\"typesize\":8,\"blocksize\":65536}"));
        assertEquals(new BloscConfiguration(Compressor.ZSTD, 7, Shuffle.BITSHUFFLE, 8, 65536), codec.bloscConfiguration());
    }

    @ParameterizedTest
    @ValueSource(strings = {"blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"})
    void acceptsEveryCompressorThatCBloscHas(String cname) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestData.system().compressors().contains(cname));
        BloscCodec codec = (BloscCodec) create(with("cname", "\"" + cname + "\""));
        assertEquals(cname, codec.bloscConfiguration().cname().jsonName());
    }

    @Test
    void metadataRoundTrip() throws Exception {
        Codec codec = create(FULL);
        assertEquals(JSON.readTree("{\"name\":\"blosc\",\"configuration\":" + FULL + "}"), codec.toJson());
        Codec again = create(codec.configuration().toString());
        assertEquals(codec, again);
        assertEquals(codec.hashCode(), again.hashCode());
        assertEquals(codec.toJson(), again.toJson());
        assertNotEquals(codec, create(with("clevel", "2")));
    }

    @Test
    void aMissingTypesizeIsKeptMissingUntilResolved() throws Exception {
        for (String shuffle : new String[] {"shuffle", "bitshuffle", "noshuffle"}) {
            String config = "{\"cname\":\"lz4\",\"clevel\":1,\"shuffle\":\"" + shuffle + "\",\"blocksize\":0}";
            BloscCodec codec = (BloscCodec) create(config);
            assertTrue(codec.bloscConfiguration().hasAutoTypesize());
            assertEquals(JSON.readTree(config), codec.configuration(), "read and written again, the same document");
            Codec resolved = codec.resolveDefaults(BloscCodecTest.spec(DataTypes.FLOAT32));
            assertEquals(JSON.readTree("{\"cname\":\"lz4\",\"clevel\":1,\"shuffle\":\"" + shuffle
                    + "\",\"typesize\":4,\"blocksize\":0}"), resolved.configuration(), "all five fields once resolved");
            assertSame(resolved, resolved.resolveDefaults(BloscCodecTest.spec(DataTypes.FLOAT64)));
        }
    }

    @Test
    void theTypesizeErrorOnEncodeNamesTheFieldInTheMetadata() throws Exception {
        Codec codec = create(with("typesize", null));
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ((BloscCodec) codec).encode(java.nio.ByteBuffer.allocate(4)));
        assertEquals(POINTER + "/typesize", e.pointer());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "cname     | \"lz5\"",
            "cname     | \"LZ4\"",
            "cname     | 5",
            "cname     | null",
            "cname     |",
            "clevel    | 10",
            "clevel    | -1",
            "clevel    | \"5\"",
            "clevel    | 5.5",
            "clevel    |",
            "shuffle   | \"auto\"",
            "shuffle   | 1",
            "shuffle   | -1",
            "shuffle   | true",
            "shuffle   |",
            "typesize  | 0",
            "typesize  | -4",
            "typesize  | \"4\"",
            "typesize  | 4.5",
            "typesize  | 4294967296",
            "blocksize | -1",
            "blocksize | \"0\"",
            "blocksize | 1.5",
            "blocksize | 4294967296",
            "blocksize |"})
    void rejectsABadFieldNamingIt(String field, String json) throws Exception {
        InvalidMetadataException e = rejected(with(field, json));
        assertEquals(POINTER + "/" + field, e.pointer());
        assertTrue(e.getMessage().contains(POINTER + "/" + field), e.getMessage());
        assertTrue(e.getMessage().contains("blosc: "), e.getMessage());
        if (json != null && !json.equals("null")) {
            assertTrue(e.getMessage().contains(json), "names the value: " + e.getMessage());
        } else {
            assertTrue(e.getMessage().contains("required field '" + field + "' is missing"), e.getMessage());
        }
    }

    @Test
    void messagesSayWhatIsAllowed() throws Exception {
        assertTrue(rejected(with("cname", "\"lz5\"")).getMessage()
                .contains("\"blosclz\", \"lz4\", \"lz4hc\", \"snappy\", \"zlib\", \"zstd\""));
        assertTrue(rejected(with("shuffle", "\"auto\"")).getMessage()
                .contains("\"noshuffle\", \"shuffle\", \"bitshuffle\""));
        assertTrue(rejected(with("clevel", "10")).getMessage().contains("[0, 9]"));
    }

    @Test
    void rejectsUnknownFields() throws Exception {
        InvalidMetadataException e = rejected(with("nthreads", "4"));
        assertEquals(POINTER + "/nthreads", e.pointer());
        assertTrue(e.getMessage().contains("unknown configuration field 'nthreads'"), e.getMessage());
    }

    @Test
    void rejectsAMissingOrNonObjectConfiguration() {
        assertEquals(POINTER + "/cname", rejected(null).pointer());
        assertEquals(POINTER, rejected("[\"lz4\"]").pointer());
    }

    /**
     * Opening an array creates its codecs; none of that, nor asking a codec what it is or how
     * large its output can be, needs c-blosc, so none of it may load it. The first chunk encoded
     * or decoded loads it, once for all the provider's codecs.
     */
    @Test
    void creatingAndDescribingCodecsNeverAsksForTheLibraryTheirFirstUseAsksOnce() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        BloscCodecProvider p = new BloscCodecProvider(() -> {
            asked.incrementAndGet();
            return TestData.system();
        });
        BloscCodec lz4 = (BloscCodec) create(p, FULL);
        Codec auto = create(p, with("typesize", null));
        BloscCodec resolved = (BloscCodec) auto.resolveDefaults(BloscCodecTest.spec(DataTypes.FLOAT32));
        assertEquals("blosc", lz4.name());
        assertEquals(JSON.readTree(FULL), lz4.configuration());
        assertEquals(EncodedSize.bounded(116), lz4.encodedSize(EncodedSize.fixed(100)));
        assertEquals(lz4, resolved);
        assertEquals(lz4.hashCode(), resolved.hashCode());
        assertTrue(resolved.toString().contains("lz4"), resolved.toString());
        assertEquals(0, asked.get(), "the library was asked for before a chunk was encoded or decoded");

        byte[] data = TestData.numbers(4000, 4, 7);
        ByteBuffer frame = lz4.encode(ByteBuffer.wrap(data));
        assertEquals(1, asked.get());
        assertEquals(ByteBuffer.wrap(data), resolved.decode(frame, EncodedSize.fixed(data.length)));
        assertEquals(EncodedSize.fixed(data.length), resolved.decodedSize(frame));
        assertEquals(1, asked.get(), "loaded once for every codec of the provider");
    }

    /**
     * A compressor that the installed c-blosc lacks is found when the codec is first used, not
     * when it is created: the array opens, and its first read or write names {@code cname}.
     */
    @Test
    void aCompressorThatTheInstalledCBloscLacksIsNamedOnFirstUse() throws Exception {
        Set<String> withoutSnappy = Set.of("blosclz", "lz4", "lz4hc", "zlib", "zstd");
        BloscCodecProvider p = new BloscCodecProvider(() -> TestData.withCompressors(withoutSnappy));
        BloscCodec snappy = assertInstanceOf(BloscCodec.class, create(p, with("cname", "\"snappy\"")));
        BloscCodec lz4 = assertInstanceOf(BloscCodec.class, create(p, FULL), "the others are fine");
        ByteBuffer frame = lz4.encode(ByteBuffer.wrap(new byte[64]));
        List<Executable> uses = List.of(() -> snappy.encode(ByteBuffer.wrap(new byte[64])),
                () -> snappy.decode(frame.duplicate(), EncodedSize.fixed(64)),
                () -> snappy.decodeInto(frame.duplicate(), ByteBuffer.allocate(64)),
                () -> snappy.decodedSize(frame.duplicate()),
                () -> snappy.encode(ByteBuffer.wrap(new byte[64])));
        for (Executable use : uses) {
            InvalidMetadataException e = assertThrows(InvalidMetadataException.class, use);
            assertEquals(POINTER + "/cname", e.pointer());
            assertTrue(e.getMessage().contains("blosc: \"snappy\" is not included in the installed c-blosc "
                    + TestData.system().version() + ", which has blosclz, lz4, lz4hc, zlib, zstd; choose one of those,"
                    + " or install a c-blosc built with snappy"), e.getMessage());
        }
    }

    /**
     * The library's absence surfaces when a codec is first used, not when it is created, as an
     * error that says how to install it; loading is tried once.
     */
    @Test
    void aMissingLibraryFailsTheFirstUseWithInstallInstructions() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        NativeBlosc.Loaded loaded = NativeBlosc.Loaded.attempt(() -> {
            attempts.incrementAndGet();
            throw new UnsatisfiedLinkError("Unable to load library 'blosc':\nlibblosc.so: cannot open shared object file"
                    + "\nNative library (linux-x86-64/libblosc.so) not found in resource path (a.jar:b.jar)");
        });
        BloscCodecProvider p = new BloscCodecProvider(loaded::orThrow);
        assertEquals("blosc", p.name());
        BloscCodec codec = assertInstanceOf(BloscCodec.class, create(p, FULL), "created without the library");
        BloscCodec other = assertInstanceOf(BloscCodec.class, create(p, with("cname", "\"zstd\"")));
        byte[] frame = new byte[32]; // what the codec is given does not matter: the library comes first
        List<Executable> uses = List.of(() -> codec.encode(ByteBuffer.wrap(new byte[64])),
                () -> codec.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(16)),
                () -> codec.decodeInto(ByteBuffer.wrap(frame), ByteBuffer.allocateDirect(16)),
                () -> codec.decodedSize(ByteBuffer.wrap(frame)),
                () -> other.encode(ByteBuffer.wrap(new byte[64])));
        Set<ZarrException> thrown = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Executable use : uses) {
            ZarrException e = assertThrows(ZarrException.class, use);
            assertTrue(thrown.add(e), "a new exception each time, so that one can be added to another as suppressed");
            assertEquals(NativeBlosc.MISSING_CODE, e.code());
            assertMissingLibraryMessage(e.getMessage());
            assertTrue(e.getMessage().endsWith("Cause: UnsatisfiedLinkError: Unable to load library 'blosc':"
                    + " libblosc.so: cannot open shared object file"), "two lines of the cause: " + e.getMessage());
            assertInstanceOf(UnsatisfiedLinkError.class, e.getCause());
        }
        assertEquals(1, attempts.get(), "loading is tried once");
    }

    static void assertMissingLibraryMessage(String message) {
        for (String part : new String[] {"c-blosc library (libblosc) could not be loaded",
                "chunks of arrays that use the 'blosc' codec cannot be read or written",
                "apt-get install libblosc1", "brew install c-blosc", "-Djna.library.path"}) {
            assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
        }
    }

    @Test
    void theSystemLibraryLoads() {
        BloscLibrary system = NativeBlosc.library();
        assertSame(system, NativeBlosc.library(), "loaded once");
        assertTrue(system.version().startsWith("1."), system.version());
        assertTrue(system.compressors().containsAll(Set.of("blosclz", "lz4", "lz4hc", "zlib", "zstd")),
                system.compressors().toString());
    }

    @Test
    void foundByServiceLoaderOnTheModulePath() {
        getClass().getModule().addUses(CodecProvider.class);
        assertTrue(getClass().getModule().isNamed(), "this test runs on the module path");
        assertTrue(ServiceLoader.load(CodecProvider.class).stream()
                .anyMatch(p -> p.type() == BloscCodecProvider.class));
    }
}
