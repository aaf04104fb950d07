package dev.zarrj.codec.numcodecs.internal;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.core.DataTypes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A zfp stream whose header describes another field than the chunk is refused before anything is
 * sized from the header (found by zarr-fuzz's {@code NumcodecsFuzzTest.zfpy}: the header claimed a
 * field whose largest stream is over a gigabyte, and the decoder allocated and zeroed that much
 * native padding before comparing the field with the chunk).
 */
class ZfpyHeaderTest {
    /** The fuzzer's input: a zfp header for a large int64 field, then noise. */
    private static final byte[] LARGE_FIELD = {
        122, 102, 112, 5, 50, 0, 0, 112, 0, 0, 0, -120, 63, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 3, 0, 1, -128, 2, 84, 27,
        -44, 24, -44, 0, -128, 17, -44, 10, -44, 18, 0, 12, 0, -4, 0, 0, 0, 0, 0, 0, 64, -104, 0, 64, 14, -36, -1,
        -76, -15, 104, -1, 60, 1, 104, -16, 40, -1, 28, 1, -64, 0, 0};

    @Test
    void aHeaderForAnotherFieldIsRefusedWithoutAllocatingWhatItClaims() throws IOException {
        assumeTrue(ZfpLibrary.Holder.LIBRARY.isPresent(), "libzfp (Debian: libzfp1)");
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.isReadable(status), "the peak resident size is read from /proc/self/status (Linux)");
        ArrayToBytesCodec codec = (ArrayToBytesCodec) Providers.create("numcodecs.zfpy", "{\"mode\": 5}");
        ChunkSpec chunk = new ChunkSpec(DataTypes.INT64, new long[] {8, 4}, FillValue.ofBytes(new byte[8]));
        long before = peakResidentKiB(status);
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> codec.decode(ByteBuffer.wrap(LARGE_FIELD), chunk));
        long grown = peakResidentKiB(status) - before;
        assertTrue(e.getMessage().contains("numcodecs.zfpy") && e.getMessage().contains("[8, 4]"), e.getMessage());
        assertTrue(grown < 256 * 1024, "decoding a 74-byte chunk raised the peak resident size by " + grown + " KiB");
    }

    private static long peakResidentKiB(Path status) throws IOException {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new AssertionError("no VmHWM in " + status);
    }
}
