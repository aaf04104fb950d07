package dev.zarrj.core.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ExtensionConflictException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Discovery, priorities, conflicts and load problems. */
class ExtensionRegistryTest {

    /** A codec that copies bytes, standing in for a third party's. */
    static final class CopyCodec implements BytesToBytesCodec {
        private final String name;

        CopyCodec(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public ObjectNode configuration() {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }

        @Override
        public EncodedSize encodedSize(EncodedSize decoded) {
            return decoded;
        }

        @Override
        public ByteBuffer encode(ByteBuffer decoded) {
            return decoded.duplicate();
        }

        @Override
        public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
            return encoded.duplicate();
        }
    }

    public static class FastGzip implements CodecProvider {
        @Override
        public String name() {
            return "gzip";
        }

        @Override
        public int priority() {
            return 10;
        }

        @Override
        public Codec create(ExtensionConfig config, ProviderContext context) {
            return new CopyCodec("gzip");
        }
    }

    public static class OtherGzip extends FastGzip {
    }

    public static class PlainGzip implements CodecProvider {
        @Override
        public String name() {
            return "gzip";
        }

        @Override
        public Codec create(ExtensionConfig config, ProviderContext context) {
            return new CopyCodec("gzip");
        }
    }

    /** An array written by zarr-python with a numcodecs codec names the module to add when it is missing. */
    @Test
    void numcodecsNamesPointToTheirModule() {
        for (String name : List.of("numcodecs.zlib", "numcodecs.delta", "numcodecs.fletcher32", "numcodecs.zfpy")) {
            assertEquals("zarr-codec-numcodecs (module dev.zarrj.codec.numcodecs)",
                    ExtensionRegistry.knownModule(name).orElseThrow(), name);
        }
        assertTrue(ExtensionRegistry.knownModule("numcodecs.unknown").isEmpty());
    }

    /** The registry's codecs of zarr-codec-registry name their module when it is missing. */
    @Test
    void registryCodecNamesPointToTheirModule() {
        for (String name : List.of("bitround", "packbits", "scale_offset", "cast_value", "reshape")) {
            assertEquals("zarr-codec-registry (module dev.zarrj.codec.registry)",
                    ExtensionRegistry.knownModule(name).orElseThrow(), name);
        }
    }

    @Test
    void discoveryFindsEveryCoreExtension() {
        ExtensionRegistry r = ExtensionRegistry.discover();
        assertTrue(r.names(ExtensionPoint.CODEC).containsAll(List.of("bytes", "transpose", "crc32c")),
                r.names(ExtensionPoint.CODEC).toString());
        assertTrue(r.names(ExtensionPoint.DATA_TYPE).containsAll(List.of("bool", "int8", "uint64", "float16",
                "complex128", "r*")));
        assertTrue(r.names(ExtensionPoint.CHUNK_GRID).contains("regular"));
        assertTrue(r.names(ExtensionPoint.CHUNK_KEY_ENCODING).containsAll(List.of("default", "v2")));
        assertTrue(r.names(ExtensionPoint.STORE).contains("memory"));
        assertTrue(r.report().loadProblems().isEmpty(), r.report().loadProblems().toString());
        assertTrue(r.report().conflicts().isEmpty(), r.report().conflicts().toString());
    }

    @Test
    void higherPriorityWinsAndTheConflictIsReported() {
        FastGzip fast = new FastGzip();
        ExtensionRegistry r = ExtensionRegistry.builder().add(new PlainGzip()).add(fast).build();
        assertSame(fast, r.find(ExtensionPoint.CODEC, "gzip", CodecProvider.class).orElseThrow());
        RegistryReport.Conflict c = r.report().conflicts().get(0);
        assertEquals("gzip", c.name());
        assertEquals(2, c.claimants().size());
        assertFalse(c.unresolved());
        assertEquals(FastGzip.class.getName(), c.winner().className());
    }

    @Test
    void aTieFailsNamingEveryClaimant() {
        ExtensionRegistry r = ExtensionRegistry.builder().add(new FastGzip()).add(new OtherGzip()).build();
        ExtensionConflictException e = assertThrows(ExtensionConflictException.class,
                () -> r.find(ExtensionPoint.CODEC, "gzip", CodecProvider.class));
        assertTrue(e.getMessage().contains(FastGzip.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains(OtherGzip.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("priority"), e.getMessage());
        assertTrue(r.report().conflicts().get(0).unresolved());
    }

    @Test
    void theSameClassSeenTwiceCountsOnce() {
        ExtensionRegistry r = ExtensionRegistry.builder().add(new PlainGzip()).add(new PlainGzip()).build();
        assertTrue(r.report().conflicts().isEmpty());
        assertTrue(r.find(ExtensionPoint.CODEC, "gzip", CodecProvider.class).isPresent());
    }

    @Test
    void aProviderThatFailsToLoadIsRecordedNotThrown() {
        ExtensionRegistry.Builder b = ExtensionRegistry.builder();
        // A loader whose iterator fails once, as ServiceLoader does for a provider whose constructor throws.
        Iterator<CodecProvider> failing = new Iterator<>() {
            int calls;

            @Override
            public boolean hasNext() {
                return calls < 2;
            }

            @Override
            public CodecProvider next() {
                if (calls++ == 0) {
                    throw new java.util.ServiceConfigurationError("broken.Provider could not be instantiated",
                            new IllegalStateException("native library missing"));
                }
                return new PlainGzip();
            }
        };
        b.loadAllFrom(ExtensionPoint.CODEC, failing);
        ExtensionRegistry r = b.build();
        assertEquals(1, r.report().loadProblems().size());
        assertTrue(r.report().loadProblems().get(0).describe().contains("native library missing"));
        assertTrue(r.find(ExtensionPoint.CODEC, "gzip", CodecProvider.class).isPresent());
    }

    @Test
    void rangesResolveAgainstTheValueSize() {
        assertEquals(List.of(6L, 10L), toList(ByteRange.suffix(4).resolve(10)));
        assertEquals(List.of(3L, 10L), toList(ByteRange.from(3).resolve(10)));
        assertThrows(IllegalArgumentException.class, () -> ByteRange.of(8, 4).resolve(10));
    }

    private static List<Long> toList(long[] a) {
        return List.of(a[0], a[1]);
    }
}
