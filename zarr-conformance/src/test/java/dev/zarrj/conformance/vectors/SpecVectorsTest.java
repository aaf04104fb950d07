package dev.zarrj.conformance.vectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * zarrj's core extensions (found through the registry, as any reader finds them) against the
 * vectors derived by hand from the spec's examples.
 */
class SpecVectorsTest {
    private static final ProviderContext NO_CONTEXT = (codecs, pointer) -> {
        throw new UnsupportedOperationException("no nested codecs here");
    };
    private static final ExtensionRegistry REGISTRY = Zarr.defaults().registry();

    private static <P extends dev.zarrj.api.NamedProvider> P provider(ExtensionPoint point, String name, Class<P> type) {
        return REGISTRY.find(point, name, type).orElseThrow(() -> new AssertionError("no " + point.label() + " " + name));
    }

    private static ExtensionConfig config(String name, JsonNode configuration, String pointer) {
        return ExtensionConfig.of(name, configuration, pointer);
    }

    @TestFactory
    Stream<DynamicTest> chunkKeysAreTheSpecsStrings() {
        List<SpecVectors.KeyCase> cases = SpecVectors.chunkKeyEncodings();
        assertEquals(12, cases.size());
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.encoding() + " " + Arrays.toString(c.coords()) + " -> " + c.key(), () -> {
            String name = c.encoding().get("name").asText();
            ChunkKeyEncoding e = provider(ExtensionPoint.CHUNK_KEY_ENCODING, name, ChunkKeyEncodingProvider.class)
                    .create(config(name, c.encoding().get("configuration"), "/chunk_key_encoding/configuration"), NO_CONTEXT);
            assertEquals(c.key(), e.encode(c.coords()));
            long[] decoded = e.decode(c.key(), c.coords().length).orElseThrow(() -> new AssertionError("key not decoded"));
            assertArrayEquals(c.coords(), decoded, "decode is the inverse of encode");
        }));
    }

    @TestFactory
    Stream<DynamicTest> regularGridArithmeticIsTheSpecsExample() {
        List<SpecVectors.GridCase> cases = SpecVectors.regularGrid();
        assertTrue(cases.stream().anyMatch(c -> Arrays.equals(c.shape(), new long[] {10, 200, 3000})));
        return cases.stream().map(c -> DynamicTest.dynamicTest(Arrays.toString(c.shape()) + " / " + Arrays.toString(c.chunkShape()), () -> {
            ObjectNode conf = JsonNodeFactory.instance.objectNode();
            Arrays.stream(c.chunkShape()).forEach(conf.putArray("chunk_shape")::add);
            ChunkGrid grid = provider(ExtensionPoint.CHUNK_GRID, "regular", ChunkGridProvider.class)
                    .create(config("regular", conf, "/chunk_grid/configuration"), NO_CONTEXT);
            grid.validate(c.shape());
            assertArrayEquals(c.gridShape(), grid.gridShape(c.shape()), "grid shape");
            for (SpecVectors.GridElement e : c.elements()) {
                long[] chunk = new long[e.coords().length];
                long[] within = new long[chunk.length];
                for (int d = 0; d < chunk.length; d++) {
                    chunk[d] = grid.chunkIndex(d, e.coords()[d]);
                    within[d] = e.coords()[d] - grid.chunkStart(d, chunk[d]);
                }
                assertArrayEquals(e.chunk(), chunk, "chunk of " + Arrays.toString(e.coords()));
                assertArrayEquals(e.withinChunk(), within, "coordinates within the chunk of " + Arrays.toString(e.coords()));
                assertArrayEquals(c.chunkShape(), grid.chunkShape(chunk), "border chunks keep the full chunk shape");
            }
        }));
    }

    private static BytesToBytesCodec crc32c() {
        return (BytesToBytesCodec) provider(ExtensionPoint.CODEC, "crc32c", CodecProvider.class)
                .create(ExtensionConfig.empty("crc32c"), NO_CONTEXT);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @TestFactory
    Stream<DynamicTest> crc32cOfKnownInputs() {
        List<SpecVectors.Crc32cCase> cases = SpecVectors.crc32c();
        assertTrue(cases.stream().anyMatch(c -> c.crc32c() == 0xE3069283L), "the check value of '123456789'");
        assertTrue(cases.stream().anyMatch(c -> c.input().length == 0 && c.crc32c() == 0));
        assertTrue(cases.stream().anyMatch(c -> c.input().length == 32 && c.crc32c() == 0x8A9136AAL));
        return cases.stream().map(c -> DynamicTest.dynamicTest(String.format("crc32c of %d bytes = 0x%08X", c.input().length, c.crc32c()), () -> {
            java.util.zip.CRC32C jdk = new java.util.zip.CRC32C();
            jdk.update(c.input());
            assertEquals(c.crc32c(), jdk.getValue(), "the vector agrees with the JDK");
            assertArrayEquals(c.encoded(), bytes(crc32c().encode(ByteBuffer.wrap(c.input()))), "encoded: input, then the checksum little-endian");
            assertArrayEquals(c.input(), bytes(crc32c().decode(ByteBuffer.wrap(c.encoded()), EncodedSize.fixed(c.input().length))));
            byte[] corrupt = c.encoded();
            corrupt[corrupt.length - 1] ^= 1;
            assertThrows(ChecksumMismatchException.class,
                    () -> crc32c().decode(ByteBuffer.wrap(corrupt), EncodedSize.fixed(c.input().length)));
        }));
    }

    @TestFactory
    Stream<DynamicTest> bytesCodecEncodesBothEndians() {
        List<SpecVectors.BytesCase> cases = SpecVectors.bytesCodec();
        assertFalse(cases.isEmpty());
        return cases.stream().flatMap(c -> Stream.of("big", "little").map(endian ->
                DynamicTest.dynamicTest(c.dataType() + " " + c.value() + " " + endian, () -> {
                    DataType t = DataTypes.of(c.dataType());
                    ObjectNode conf = JsonNodeFactory.instance.objectNode().put("endian", endian);
                    ArrayToBytesCodec codec = (ArrayToBytesCodec) provider(ExtensionPoint.CODEC, "bytes", CodecProvider.class)
                            .create(config("bytes", conf, "/codecs/0/configuration"), NO_CONTEXT);
                    ChunkSpec spec = new ChunkSpec(t, new long[] {1}, t.defaultFillValue());
                    byte[] want = endian.equals("big") ? c.big() : c.little();
                    NdArray one = element(t, c.value(), endian.equals("big") ? c.little() : want);
                    assertArrayEquals(want, bytes(codec.encode(one, spec)), "encoded");
                    NdArray decoded = codec.decode(ByteBuffer.wrap(want), spec);
                    assertArrayEquals(bytes(one.bytes()), bytes(decoded.bytes()), "decoded");
                })));
    }

    /**
     * A one-element array holding the case's value, set through NdArray's typed setters where
     * there is one, and checked against the little-endian bytes of the vector.
     */
    private static NdArray element(DataType t, JsonNode v, byte[] little) {
        NdArray a = NdArray.allocate(t, 1);
        switch (t.kind()) {
            case BOOL -> a.setBoolean(0, v.asBoolean());
            case INT, UINT -> a.setLong(0, new java.math.BigInteger(v.asText()).longValue());
            case FLOAT -> a.setDouble(0, v.isTextual() ? Double.parseDouble(v.asText()) : new BigDecimal(v.asText()).doubleValue());
            default -> {
                // NdArray holds elements in native order: complex values are set as their bytes.
                assertEquals(ByteOrder.LITTLE_ENDIAN, ByteOrder.nativeOrder(), "this check assumes a little-endian machine");
                a.bytes().put(little);
            }
        }
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
            assertArrayEquals(little, bytes(a.bytes()), "the vector's value " + v + " as " + t.name());
        }
        return a;
    }

    @Test
    void everySpecFileDeclaresTheSchema() {
        assertEquals(4, SpecVectors.shardingIndex().size());
        assertTrue(SpecVectors.shardingIndex().stream().anyMatch(s -> s.indexLocation().equals("start")));
    }
}
