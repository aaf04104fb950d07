package dev.zarrj.codec.numcodecs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NumcodecsCodecProviderTest {
    static InvalidMetadataException rejected(String name, String configuration) {
        return assertThrows(InvalidMetadataException.class, () -> Providers.create(name, configuration));
    }

    @Test
    void everyNameIsFoundByServiceLoaderOnTheModulePath() {
        getClass().getModule().addUses(CodecProvider.class);
        assertTrue(getClass().getModule().isNamed(), "this test runs on the module path");
        Set<String> names = ServiceLoader.load(CodecProvider.class).stream().map(p -> p.get().name())
                .filter(n -> n.startsWith("numcodecs.")).collect(Collectors.toSet());
        assertEquals(Providers.BY_NAME.keySet(), names);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "numcodecs.zlib|{\"level\": 10}|/level",
        "numcodecs.zlib|{\"level\": 1, \"wbits\": 15}|/wbits",
        "numcodecs.bz2|{\"level\": 0}|/level",
        "numcodecs.lz4|{\"acceleration\": \"fast\"}|/acceleration",
        "numcodecs.lzma|{\"format\": 4}|/format",
        "numcodecs.lzma|{\"format\": 2, \"check\": 4}|/check",
        "numcodecs.lzma|{\"preset\": 10}|/preset",
        "numcodecs.lzma|{\"preset\": 1, \"filters\": [{\"id\": 33}]}|/preset",
        "numcodecs.lzma|{\"format\": 3}|/filters",
        "numcodecs.lzma|{\"filters\": [{\"id\": 3, \"dist\": 4}]}|/filters/0/id",
        "numcodecs.lzma|{\"filters\": [{\"id\": 33, \"dict\": 4}]}|/filters/0/dict",
        "numcodecs.lzma|{\"filters\": [{\"id\": 99}]}|/filters/0/id",
        "numcodecs.adler32|{\"location\": \"middle\"}|/location",
        "numcodecs.fletcher32|{\"location\": \"end\"}|/location",
        "numcodecs.shuffle|{\"elementsize\": -1}|/elementsize",
        "numcodecs.delta|{\"dtype\": \"int33\"}|/dtype",
        "numcodecs.delta|{\"dtype\": \">i4\"}|/dtype",
        "numcodecs.delta|{\"dtype\": \"<c16\"}|/dtype",
        "numcodecs.fixedscaleoffset|{\"scale\": 10, \"dtype\": \"<f8\"}|/offset",
        "numcodecs.fixedscaleoffset|{\"offset\": \"a\", \"scale\": 10}|/offset",
        "numcodecs.quantize|{\"digits\": 2, \"dtype\": \"<i4\"}|/dtype",
        "numcodecs.quantize|{\"dtype\": \"<f4\"}|/digits",
        "numcodecs.bitround|{\"keepbits\": -1}|/keepbits",
        "numcodecs.bitround|{}|/keepbits",
        "numcodecs.astype|{\"decode_dtype\": \"<f8\"}|/encode_dtype",
        "numcodecs.packbits|{\"x\": 1}|/x",
        "numcodecs.zfpy|{\"mode\": 1}|/mode",
        "numcodecs.zfpy|{\"mode\": 4, \"tolerance\": \"small\"}|/tolerance",
    })
    void aBadConfigurationNamesTheField(String name, String configuration, String field) {
        InvalidMetadataException e = rejected(name, configuration);
        assertEquals(Providers.POINTER + field, e.pointer(), e.getMessage());
        assertTrue(e.getMessage().contains(name), e.getMessage());
    }

    @Test
    void aBigEndianTypeIsRefusedWithTheLittleEndianSpelling() {
        InvalidMetadataException e = rejected("numcodecs.delta", "{\"dtype\": \">f8\"}");
        assertTrue(e.getMessage().contains("\"<f8\"") && e.getMessage().contains("big-endian"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "numcodecs.pcodec|{\"level\": 8, \"mode_spec\": \"auto\"}|Java binding of pco",
    })
    void pcodecIsRefusedSayingWhatWouldProvideIt(String name, String configuration, String what) {
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> Providers.create(name, configuration));
        assertTrue(e.getMessage().contains(name) && e.getMessage().contains(what)
                && e.getMessage().contains("not supported"), e.getMessage());
        assertEquals(Providers.POINTER, e.pointer());
    }

    /** Metadata read and written again is the same document, spellings of numpy types included. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "numcodecs.zlib|{\"level\":8}",
        "numcodecs.adler32|{}",
        "numcodecs.crc32|{\"location\":\"end\"}",
        "numcodecs.lzma|{\"format\":1,\"check\":-1,\"preset\":null,\"filters\":[{\"id\":33,\"preset\":1}]}",
        "numcodecs.delta|{\"dtype\":\"int32\"}",
        "numcodecs.delta|{\"dtype\":\"<i4\",\"astype\":\"i1\"}",
        "numcodecs.fixedscaleoffset|{\"offset\":1000,\"scale\":10.5,\"dtype\":\"<f8\",\"astype\":\"<i2\"}",
        "numcodecs.quantize|{\"digits\":3,\"dtype\":\"float32\"}",
        "numcodecs.astype|{\"encode_dtype\":\"uint8\",\"decode_dtype\":\"float64\"}",
        "numcodecs.bitround|{\"keepbits\":9}",
    })
    void configurationRoundTrip(String name, String configuration) throws Exception {
        Codec c = Providers.create(name, configuration);
        assertEquals(Providers.JSON.readTree(configuration), c.configuration());
        assertEquals(c, Providers.create(name, c.configuration()));
    }

    @Test
    void checksumLocationEndPutsTheChecksumAfterTheData() {
        BytesToBytesCodec start = (BytesToBytesCodec) Providers.create("numcodecs.crc32", "{}");
        BytesToBytesCodec end = (BytesToBytesCodec) Providers.create("numcodecs.crc32", "{\"location\": \"end\"}");
        byte[] data = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteBuffer s = start.encode(ByteBuffer.wrap(data)).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer e = end.encode(ByteBuffer.wrap(data)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xCBF43926, s.getInt(0), "the CRC-32 check value of \"123456789\", first");
        assertEquals(0xCBF43926, e.getInt(data.length), "and last");
        assertEquals('1', e.get(0));
        assertEquals('1', s.get(4));
        assertEquals(ByteBuffer.wrap(data), end.decode(e, EncodedSize.fixed(data.length)));
    }

    @Test
    void crc32cGoesAtTheEndByDefault() {
        BytesToBytesCodec c = (BytesToBytesCodec) Providers.create("numcodecs.crc32c", "{}");
        byte[] data = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteBuffer e = c.encode(ByteBuffer.wrap(data)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xE3069283, e.getInt(data.length), "the CRC-32C check value of \"123456789\", last");
        assertEquals('1', e.get(0));
        assertEquals(Providers.JSON.createObjectNode(), c.configuration());
    }

    /** Values numcodecs' own tests assert for its jenkins_lookup3. */
    @Test
    void jenkinsLookup3MatchesNumcodecs() {
        java.nio.charset.Charset ascii = java.nio.charset.StandardCharsets.US_ASCII;
        ByteBuffer empty = ByteBuffer.allocate(0);
        ByteBuffer four = ByteBuffer.wrap("Four score and seven years ago".getBytes(ascii));
        assertEquals(0xDEADBEEF, JenkinsLookup3Codec.hash(empty, 0));
        assertEquals(0xBD5B7DDE, JenkinsLookup3Codec.hash(empty, 0xDEADBEEF));
        assertEquals(0x17770551, JenkinsLookup3Codec.hash(four, 0));
        assertEquals(0xCD628161, JenkinsLookup3Codec.hash(four, 1));
        assertEquals(202276345, JenkinsLookup3Codec.hash(ByteBuffer.wrap("jenkins".getBytes(ascii)), 0));
        BytesToBytesCodec c = (BytesToBytesCodec) Providers.create("numcodecs.jenkins_lookup3", "{\"initval\": 1230}");
        ByteBuffer e = c.encode(four).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x0EE25AD7, e.getInt(30), "numcodecs' d7 5a e2 0e after the data");
        assertEquals(four, c.decode(e, EncodedSize.fixed(30)));

        // An HDF5 fixed-array data block (numcodecs' test): the checksum covers the "FADB" prefix too.
        byte[] block = java.util.HexFormat.of().parseHex("0008000000000000f70f000000000000f717000000000000f70f0000"
                + "00000000ee27000000000000f70f000000000000e537000000000000f70f000000000000dc47000000000000f70f0000"
                + "00000000d357000000000000f70f000000000000ca67000000000000f70f000000000000c177000000000000f70f0000"
                + "00000000b887000000000000f70f000000000000af97000000000000f70f000000000000a6a7000000000000f70f0000"
                + "000000009db7000000000000f70f00000000000094c7000000000000f70f0000000000008bd7000000000000f70f0000"
                + "0000000082e7000000000000f70f00000000000079f7000000000000f70f0000000000006e960785");
        BytesToBytesCodec hdf5 = (BytesToBytesCodec) Providers.create("numcodecs.jenkins_lookup3",
                "{\"prefix\": [70, 65, 68, 66, 0, 1, 207, 1, 0, 0, 0, 0, 0, 0]}");
        assertEquals(ByteBuffer.wrap(block), hdf5.encode(ByteBuffer.wrap(block, 0, block.length - 4)));
    }

    @Test
    void fletcher32MatchesTheHdf5Definition() {
        // Words 0x0102, 0x0304 and the odd byte 0x05 as 0x0500: sum1 = 0x0906, sum2 = 0x0102 + 0x0406 + 0x0906.
        int sum = ChecksumCodec.fletcher32(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}));
        assertEquals((0x0102 + 0x0406 + 0x0906) << 16 | 0x0906, sum);
        // 720 words of 0xffff cross a 360-word block: the folding keeps both sums to 16 bits.
        byte[] ff = new byte[1440];
        java.util.Arrays.fill(ff, (byte) 0xff);
        int s = ChecksumCodec.fletcher32(ByteBuffer.wrap(ff));
        assertEquals(0xffff, s & 0xffff);
    }

    @Test
    void packbitsEncodedShapeIsZarrPythons() {
        ArrayToArrayCodec c = (ArrayToArrayCodec) Providers.create("numcodecs.packbits", "{}");
        ChunkSpec spec = new ChunkSpec(DataTypes.BOOL, new long[] {3, 5}, DataTypes.BOOL.defaultFillValue());
        assertEquals("uint8", c.encodedSpec(spec).dataType().name());
        assertEquals(1, c.encodedSpec(spec).rank());
        assertEquals(1 + 2, c.encodedSpec(spec).shape()[0]);
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> c.encodedSpec(
                new ChunkSpec(DataTypes.INT8, new long[] {3}, DataTypes.INT8.defaultFillValue())));
        assertTrue(e.getMessage().contains("bool"), e.getMessage());
    }

    @Test
    void quantizeScalesAsNumcodecsComputesThem() {
        assertEquals(1024.0, QuantizeCodec.scale(3));
        assertEquals(1.0, QuantizeCodec.scale(0));
        assertEquals(0.125, QuantizeCodec.scale(-1));
        assertInstanceOf(QuantizeCodec.class, Providers.create("numcodecs.quantize", "{\"digits\": 1}"));
    }
}
