package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A chain without a partial decoder (a bytes→bytes codec that has none) is asked for one once per
 * array, not once for every chunk a region covers in part.
 */
class PartialDecoderAskedOnceTest {
    private static final AtomicInteger ASKED = new AtomicInteger();

    /** A bytes→bytes codec that copies, has no partial decoder, and counts the requests for one. */
    static final class Opaque implements BytesToBytesCodec {
        @Override public String name() { return "opaque"; }
        @Override public ObjectNode configuration() { return JsonNodeFactory.instance.objectNode(); }
        @Override public EncodedSize encodedSize(EncodedSize decoded) { return decoded; }
        @Override public ByteBuffer encode(ByteBuffer decoded) { return decoded.duplicate(); }
        @Override public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) { return encoded.duplicate(); }

        @Override
        public Optional<ByteSource> partialDecoder(ByteSource input, EncodedSize decodedSize) {
            ASKED.incrementAndGet();
            return Optional.empty();
        }
    }

    public static final class OpaqueProvider implements CodecProvider {
        @Override public String name() { return "opaque"; }
        @Override public Codec create(ExtensionConfig config, ProviderContext context) { return new Opaque(); }
    }

    @Test
    void aChainWithoutOneIsAskedOnce() {
        ExtensionRegistry.Builder b = ExtensionRegistry.builder();
        for (ExtensionPoint p : ExtensionPoint.values()) {
            b.loadAll(p, ServiceLoader.load(p.providerType(), ExtensionRegistry.class.getClassLoader()));
        }
        ExtensionRegistry registry = b.add(new OpaqueProvider()).build();
        try (Zarr zarr = Zarr.builder().registry(registry).threads(2).build()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 64, 64).chunks(8, 8)
                    .codecs("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"opaque\"}]")
                    .fillValue(0).create(zarr.openStore("memory:"), "/a");
            int[] v = new int[64 * 64];
            Arrays.setAll(v, i -> i * 5 + 3);
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, v, 64, 64));
            ASKED.set(0);
            // 8 × 8 chunks touched, the 28 around the edge of the region in part.
            int[] got = a.read(new long[] {4, 4}, new long[] {56, 56}).toIntArray();
            for (int r = 0; r < 56; r++) {
                assertArrayEquals(Arrays.copyOfRange(v, (r + 4) * 64 + 4, (r + 4) * 64 + 60),
                        Arrays.copyOfRange(got, r * 56, r * 56 + 56), "row " + r);
            }
            // Both threads may ask before the first answer is noted; without the note, each of the 28 chunks asks.
            assertTrue(ASKED.get() >= 1 && ASKED.get() <= 2, "requests for a partial decoder: " + ASKED);
        }
    }
}
