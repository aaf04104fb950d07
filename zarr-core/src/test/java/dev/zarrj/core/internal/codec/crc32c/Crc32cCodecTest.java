package dev.zarrj.core.internal.codec.crc32c;

import static dev.zarrj.core.internal.testing.TestConfigs.NO_CONTEXT;
import static dev.zarrj.core.internal.testing.TestConfigs.config;
import static dev.zarrj.core.internal.testing.TestConfigs.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Crc32cCodecTest {
    private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHECK_ENCODED = concat(CHECK, new byte[] {(byte) 0x83, (byte) 0x92, 0x06, (byte) 0xE3});

    private static BytesToBytesCodec codec() {
        return (BytesToBytesCodec) new Crc32cCodecProvider()
                .create(config("crc32c", null, "/codecs/1/configuration"), NO_CONTEXT);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] toArray(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void checkValueIsAppendedLittleEndian() {
        ByteBuffer input = ByteBuffer.wrap(CHECK);
        assertArrayEquals(CHECK_ENCODED, toArray(codec().encode(input)));
        assertEquals(0, input.position(), "the input's position is left alone");
    }

    @Test
    void decodeVerifiesAndStrips() {
        ByteBuffer decoded = codec().decode(ByteBuffer.wrap(CHECK_ENCODED), EncodedSize.fixed(9));
        assertArrayEquals(CHECK, toArray(decoded));
        assertArrayEquals(CHECK, toArray(codec().decode(ByteBuffer.wrap(CHECK_ENCODED), EncodedSize.unbounded())));
    }

    @Test
    void encodeAndDecodeHonourBufferPositions() {
        byte[] padded = concat(new byte[] {9, 9}, concat(CHECK, new byte[] {9}));
        ByteBuffer input = ByteBuffer.wrap(padded, 2, 9);
        assertArrayEquals(CHECK_ENCODED, toArray(codec().encode(input)));
        byte[] paddedEncoded = concat(new byte[] {1, 2, 3}, CHECK_ENCODED);
        ByteBuffer encoded = ByteBuffer.wrap(paddedEncoded, 3, CHECK_ENCODED.length);
        assertArrayEquals(CHECK, toArray(codec().decode(encoded, EncodedSize.unbounded())));
    }

    @Test
    void emptyInputRoundTrips() {
        ByteBuffer encoded = codec().encode(ByteBuffer.allocate(0));
        assertArrayEquals(new byte[4], toArray(encoded), "CRC32C of nothing is 0");
        assertEquals(0, codec().decode(encoded, EncodedSize.fixed(0)).remaining());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 8, 12})
    void anyFlippedBitIsAMismatch(int index) {
        byte[] corrupt = CHECK_ENCODED.clone();
        corrupt[index] ^= 0x10;
        ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class,
                () -> codec().decode(ByteBuffer.wrap(corrupt), EncodedSize.unbounded()));
        assertTrue(e.getMessage().contains("crc32c"), e.getMessage());
        if (index < 9) {
            assertTrue(e.getMessage().contains("0xE3069283"), "names the stored value: " + e.getMessage());
        } else {
            assertTrue(e.getMessage().contains("computed checksum 0xE3069283"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3})
    void inputShorterThanTheChecksumIsCorrupt(int length) {
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> codec().decode(ByteBuffer.allocate(length), EncodedSize.unbounded()));
        assertTrue(e.getMessage().contains(length + " bytes"), e.getMessage());
    }

    @Test
    void decodedSizeIsEnforced() {
        CorruptDataException fixed = assertThrows(CorruptDataException.class,
                () -> codec().decode(ByteBuffer.wrap(CHECK_ENCODED), EncodedSize.fixed(8)));
        assertTrue(fixed.getMessage().contains("9") && fixed.getMessage().contains("8"), fixed.getMessage());
        assertThrows(CorruptDataException.class,
                () -> codec().decode(ByteBuffer.wrap(CHECK_ENCODED), EncodedSize.bounded(8)));
        assertEquals(9, codec().decode(ByteBuffer.wrap(CHECK_ENCODED), EncodedSize.bounded(9)).remaining());
    }

    @Test
    void encodedSizeAddsFourBytes() {
        BytesToBytesCodec c = codec();
        assertEquals(EncodedSize.fixed(104), c.encodedSize(EncodedSize.fixed(100)));
        assertEquals(EncodedSize.bounded(14), c.encodedSize(EncodedSize.bounded(10)));
        assertEquals(EncodedSize.unbounded(), c.encodedSize(EncodedSize.unbounded()));
        assertEquals(EncodedSize.unbounded(), c.encodedSize(EncodedSize.bounded(Long.MAX_VALUE - 1)));
    }

    @Test
    void configurationRoundTrips() {
        assertEquals(json("{\"name\": \"crc32c\"}"), codec().toJson());
        assertEquals(codec(), new Crc32cCodecProvider().create(config("crc32c", "{}", "/codecs/1/configuration"),
                NO_CONTEXT));
    }

    @Test
    void anyConfigurationFieldIsRefused() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> new Crc32cCodecProvider()
                .create(config("crc32c", "{\"seed\": 1}", "/codecs/1/configuration"), NO_CONTEXT));
        assertEquals("/codecs/1/configuration/seed", e.pointer());
    }
}
