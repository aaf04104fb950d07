package dev.zarrj.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.codec.blosc.BloscConfiguration.Compressor;
import dev.zarrj.codec.blosc.BloscConfiguration.Shuffle;
import dev.zarrj.api.codec.CodecConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class BloscConfigurationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void factoryLeavesTypesizeAndBlocksizeAutomatic() {
        BloscConfiguration c = BloscConfiguration.of(Compressor.LZ4, 5, Shuffle.SHUFFLE);
        assertEquals(BloscConfiguration.AUTO_TYPESIZE, c.typesize());
        assertEquals(0, c.blocksize());
        assertTrue(c.hasAutoTypesize());
        assertEquals(4, c.withTypesize(4).typesize());
        assertEquals(65536, c.withBlocksize(65536).blocksize());
        assertEquals(Compressor.LZ4, c.withTypesize(4).withBlocksize(1).cname(), "withers keep the other fields");
    }

    @Test
    void jsonHasEveryFieldOnceTypesizeIsSet() throws Exception {
        BloscConfiguration c = BloscConfiguration.of(Compressor.ZSTD, 1, Shuffle.BITSHUFFLE).withTypesize(4);
        assertEquals(JSON.readTree("{\"cname\":\"zstd\",\"clevel\":1,\"shuffle\":\"bitshuffle\",\"typesize\":4,"
                + "\"blocksize\":0}"), c.configurationJson());
        assertEquals(JSON.readTree("{\"name\":\"blosc\",\"configuration\":{\"cname\":\"zstd\",\"clevel\":1,"
                + "\"shuffle\":\"bitshuffle\",\"typesize\":4,\"blocksize\":0}}"), c.toJson());
        assertNotSame(c.toJson(), c.toJson());
    }

    @Test
    void jsonLeavesOutAnAutomaticTypesize() throws Exception {
        BloscConfiguration c = BloscConfiguration.of(Compressor.LZ4HC, 9, Shuffle.NOSHUFFLE);
        assertEquals(JSON.readTree("{\"cname\":\"lz4hc\",\"clevel\":9,\"shuffle\":\"noshuffle\",\"blocksize\":0}"),
                c.configurationJson());
    }

    @ParameterizedTest
    @EnumSource(Compressor.class)
    void compressorNamesRoundTrip(Compressor c) {
        assertEquals(c, Compressor.fromJsonName(c.jsonName()));
        assertEquals(c.name().toLowerCase(java.util.Locale.ROOT), c.jsonName());
    }

    @ParameterizedTest
    @EnumSource(Shuffle.class)
    void shuffleNamesRoundTrip(Shuffle s) {
        assertEquals(s, Shuffle.fromJsonName(s.jsonName()));
    }

    @Test
    void unknownNamesAreRejected() {
        assertEquals("unknown blosc compressor \"LZ4\"",
                assertThrows(IllegalArgumentException.class, () -> Compressor.fromJsonName("LZ4")).getMessage());
        assertEquals("unknown blosc shuffle mode \"auto\"",
                assertThrows(IllegalArgumentException.class, () -> Shuffle.fromJsonName("auto")).getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 10})
    void rejectsALevelOutsideZeroToNine(int level) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> BloscConfiguration.of(Compressor.LZ4, level, Shuffle.SHUFFLE));
        assertEquals("/configuration/clevel", e.pointer());
        assertTrue(e.getMessage().contains("[0, 9]") && e.getMessage().contains(String.valueOf(level)), e.getMessage());
    }

    @Test
    void rejectsNegativeSizes() {
        BloscConfiguration c = BloscConfiguration.of(Compressor.LZ4, 5, Shuffle.SHUFFLE);
        assertEquals("/configuration/typesize",
                assertThrows(InvalidMetadataException.class, () -> c.withTypesize(-4)).pointer());
        assertEquals("/configuration/blocksize",
                assertThrows(InvalidMetadataException.class, () -> c.withBlocksize(-1)).pointer());
        assertThrows(NullPointerException.class, () -> BloscConfiguration.of(null, 5, Shuffle.SHUFFLE));
    }

    @Test
    void isACodecConfigurationNamedBlosc() {
        CodecConfiguration c = BloscConfiguration.of(Compressor.LZ4, 5, Shuffle.SHUFFLE);
        assertEquals("blosc", c.name());
        assertEquals(c.configurationJson(), c.toJson().get("configuration"));
    }
}
