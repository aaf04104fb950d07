package dev.zarrj.core.internal.codec.bytes;

import static dev.zarrj.core.internal.testing.TestConfigs.NO_CONTEXT;
import static dev.zarrj.core.internal.testing.TestConfigs.config;
import static dev.zarrj.core.internal.testing.TestConfigs.json;
import static dev.zarrj.core.internal.testing.TestDataTypes.BOOL;
import static dev.zarrj.core.internal.testing.TestDataTypes.COMPLEX128;
import static dev.zarrj.core.internal.testing.TestDataTypes.COMPLEX64;
import static dev.zarrj.core.internal.testing.TestDataTypes.FLOAT32;
import static dev.zarrj.core.internal.testing.TestDataTypes.FLOAT64;
import static dev.zarrj.core.internal.testing.TestDataTypes.INT16;
import static dev.zarrj.core.internal.testing.TestDataTypes.INT32;
import static dev.zarrj.core.internal.testing.TestDataTypes.INT64;
import static dev.zarrj.core.internal.testing.TestDataTypes.R24;
import static dev.zarrj.core.internal.testing.TestDataTypes.UINT8;
import static dev.zarrj.core.internal.testing.TestDataTypes.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.datatype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class BytesCodecTest {
    private static final String POINTER = "/codecs/0/configuration";

    static ArrayToBytesCodec codec(String configuration) {
        return (ArrayToBytesCodec) new BytesCodecProvider().create(config("bytes", configuration, POINTER), NO_CONTEXT);
    }

    static ArrayToBytesCodec big() {
        return codec("{\"endian\": \"big\"}");
    }

    static ArrayToBytesCodec little() {
        return codec("{\"endian\": \"little\"}");
    }

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    private static byte[] toArray(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** Element values and their stored bytes, big endian, written out by hand. */
    static Stream<Arguments> bigEndianVectors() {
        return Stream.of(
                Arguments.of(NdArray.copyOf(INT16, new short[] {0x0102, -2}, 2), "0102 FFFE"),
                Arguments.of(NdArray.copyOf(INT32, new int[] {0x01020304, -1}, 2), "01020304 FFFFFFFF"),
                Arguments.of(NdArray.copyOf(INT64, new long[] {0x0102030405060708L, 1}, 2),
                        "0102030405060708 0000000000000001"),
                Arguments.of(NdArray.copyOf(FLOAT32, new float[] {1.0f, -2.5f}, 2), "3F800000 C0200000"),
                Arguments.of(NdArray.copyOf(FLOAT64, new double[] {1.0, -0.5}, 2), "3FF0000000000000 BFE0000000000000"),
                Arguments.of(NdArray.copyOf(COMPLEX64, new float[] {1.0f, 2.0f, -1.0f, 0.5f}, 2),
                        "3F800000 40000000 BF800000 3F000000"),
                Arguments.of(NdArray.copyOf(COMPLEX128, new double[] {1.0, 2.0}, 1), "3FF0000000000000 4000000000000000"),
                Arguments.of(NdArray.copyOf(UINT8, new byte[] {1, (byte) 0xFE}, 2), "01 FE"),
                Arguments.of(NdArray.copyOf(BOOL, new boolean[] {true, false}, 2), "01 00"));
    }

    @ParameterizedTest
    @MethodSource("bigEndianVectors")
    void bigEndianMatchesHandWrittenBytes(NdArray array, String expectedHex) {
        byte[] expected = hex(expectedHex);
        ChunkSpec spec = spec(array.dataType(), array.shape());
        assertArrayEquals(expected, toArray(big().encode(array, spec)));
        assertTrue(array.contentEquals(big().decode(ByteBuffer.wrap(expected), spec)));
    }

    @ParameterizedTest
    @MethodSource("bigEndianVectors")
    void littleEndianIsEachUnitReversed(NdArray array, String bigHex) {
        byte[] big = hex(bigHex);
        byte[] expected = new byte[big.length];
        int unit = array.dataType().byteOrderUnit();
        for (int i = 0; i < big.length; i += unit) {
            for (int k = 0; k < unit; k++) {
                expected[i + k] = big[i + unit - 1 - k];
            }
        }
        ChunkSpec spec = spec(array.dataType(), array.shape());
        assertArrayEquals(expected, toArray(little().encode(array, spec)));
        assertTrue(array.contentEquals(little().decode(ByteBuffer.wrap(expected), spec)));
    }

    @Test
    void multiDimensionalRoundTripBothOrders() {
        ChunkSpec spec = spec(INT32, 3, 4, 5);
        NdArray a = NdArray.allocate(INT32, 3, 4, 5);
        for (int i = 0; i < 60; i++) {
            a.setLong(i, i * 1_000_003L - 7);
        }
        for (ArrayToBytesCodec c : new ArrayToBytesCodec[] {big(), little()}) {
            ByteBuffer encoded = c.encode(a, spec);
            assertEquals(240, encoded.remaining());
            assertTrue(a.contentEquals(c.decode(encoded, spec)));
        }
        // Element 1 of the big-endian encoding is bytes 4..7, most significant first.
        ByteBuffer be = big().encode(a, spec);
        assertEquals(1_000_003 - 7, be.order(ByteOrder.BIG_ENDIAN).getInt(4));
    }

    @Test
    void rawTypesOfOddSizesPassThrough() {
        ChunkSpec spec = spec(R24, 2);
        byte[] raw = hex("010203 0A0B0C");
        NdArray a = NdArray.copyOf(R24, raw, 2);
        assertArrayEquals(raw, toArray(codec(null).encode(a, spec)));
        assertArrayEquals(raw, toArray(big().encode(a, spec)));
        assertArrayEquals(raw, big().decode(ByteBuffer.wrap(raw), spec).toByteArray());
    }

    @Test
    void nativeOrderIsZeroCopy() {
        Assumptions.assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN);
        ChunkSpec spec = spec(INT16, 2);
        ByteBuffer stored = ByteBuffer.wrap(hex("0100 0200"));
        NdArray decoded = little().decode(stored, spec);
        stored.put(0, (byte) 9);
        assertEquals(9, decoded.getLong(0), "decode wraps the encoded buffer");
        ByteBuffer encoded = little().encode(decoded, spec);
        decoded.setLong(1, 5);
        assertEquals(5, encoded.getShort(2), "encode returns the array's own bytes");
    }

    @Test
    void readOnlyInputDecodesToAWritableArray() {
        ChunkSpec spec = spec(INT16, 2);
        for (ArrayToBytesCodec c : new ArrayToBytesCodec[] {little(), big()}) {
            ByteBuffer stored = ByteBuffer.wrap(hex("0100 0200")).asReadOnlyBuffer();
            NdArray decoded = c.decode(stored, spec);
            decoded.setLong(0, 42);
            assertEquals(42, decoded.getLong(0));
        }
    }

    @Test
    void decodeHonoursTheBufferPosition() {
        ChunkSpec spec = spec(INT16, 2);
        ByteBuffer stored = ByteBuffer.wrap(hex("FFFF 0001 0002 FFFF"));
        stored.position(2).limit(6);
        NdArray a = big().decode(stored, spec);
        assertArrayEquals(new short[] {1, 2}, a.toShortArray());
        assertEquals(2, stored.position(), "the input's position is left alone");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 7, 9, 100})
    void wrongEncodedLengthIsRefusedNamingBothSizes(int length) {
        ChunkSpec spec = spec(INT16, 2, 2);
        for (ArrayToBytesCodec c : new ArrayToBytesCodec[] {little(), big()}) {
            CorruptDataException e = assertThrows(CorruptDataException.class,
                    () -> c.decode(ByteBuffer.allocate(length), spec));
            assertTrue(e.getMessage().contains(length + " bytes") && e.getMessage().contains("needs 8"),
                    e.getMessage());
        }
    }

    @Test
    void missingEndianIsRefusedForMultiByteTypes() {
        ArrayToBytesCodec c = codec(null);
        for (DataType type : new DataType[] {INT16, FLOAT32, COMPLEX64, FLOAT64}) {
            ChunkSpec spec = spec(type, 4);
            InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> c.checkSupported(spec));
            assertEquals("/codecs/0/configuration/endian", e.pointer());
            assertTrue(e.getMessage().contains("'endian'") && e.getMessage().contains(type.name()), e.getMessage());
            assertThrows(InvalidMetadataException.class,
                    () -> c.decode(ByteBuffer.allocate(4 * type.size()), spec));
            assertThrows(InvalidMetadataException.class, () -> c.encode(NdArray.allocate(type, 4), spec));
        }
    }

    @Test
    void missingEndianIsFineForSingleByteTypes() {
        ArrayToBytesCodec c = codec("{}");
        for (DataType type : new DataType[] {UINT8, BOOL, R24}) {
            ChunkSpec spec = spec(type, 3);
            c.checkSupported(spec);
            NdArray a = NdArray.allocate(type, 3);
            a.bytes().put(0, (byte) 1);
            assertTrue(a.contentEquals(c.decode(c.encode(a, spec), spec)));
        }
    }

    @Test
    void resolveDefaultsRecordsLittleEndianOnlyWhereNeeded() {
        ArrayToBytesCodec c = codec(null);
        assertEquals(json("{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}"),
                c.resolveDefaults(spec(INT16, 2)).toJson());
        assertSame(c, c.resolveDefaults(spec(UINT8, 2)));
        ArrayToBytesCodec b = big();
        assertSame(b, b.resolveDefaults(spec(INT16, 2)));
    }

    @Test
    void encodedSizeIsFixed() {
        assertEquals(EncodedSize.fixed(3 * 4 * 8), little().encodedSize(spec(COMPLEX64, 3, 4)));
        assertEquals(EncodedSize.fixed(8), little().encodedSize(spec(FLOAT64)));
        assertEquals(EncodedSize.fixed(0), little().encodedSize(spec(FLOAT64, 0, 5)));
    }

    @Test
    void zeroDimensionalChunk() {
        ChunkSpec spec = spec(FLOAT64);
        NdArray a = NdArray.allocate(FLOAT64);
        a.setDouble(0, 1.0);
        ByteBuffer encoded = big().encode(a, spec);
        assertArrayEquals(hex("3FF0000000000000"), toArray(encoded));
        assertEquals(1.0, big().decode(encoded, spec).getDouble(0));
    }

    @Test
    void configurationRoundTrips() {
        assertEquals(json("{\"name\": \"bytes\"}"), codec(null).toJson());
        assertEquals(json("{\"name\": \"bytes\"}"), codec("{}").toJson());
        assertEquals(json("{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}"), big().toJson());
        assertEquals(json("{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}"), little().toJson());
        assertEquals(big(), codec(big().configuration().toString()));
        assertEquals(BytesCodec.of(ByteOrder.BIG_ENDIAN), big());
        assertEquals(BytesCodec.withoutEndian(), codec(null));
    }

    @Test
    void badConfigurationIsRefused() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> codec("{\"endian\": \"middle\"}"));
        assertEquals("/codecs/0/configuration/endian", e.pointer());
        assertTrue(e.getMessage().contains("middle") && e.getMessage().contains("\"big\""), e.getMessage());
        assertEquals("/codecs/0/configuration/endian",
                assertThrows(InvalidMetadataException.class, () -> codec("{\"endian\": 1}")).pointer());
        assertEquals("/codecs/0/configuration/order",
                assertThrows(InvalidMetadataException.class, () -> codec("{\"order\": \"C\"}")).pointer());
    }
}
