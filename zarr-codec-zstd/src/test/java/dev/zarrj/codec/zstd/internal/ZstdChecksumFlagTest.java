package dev.zarrj.codec.zstd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A codec configured with {@code "checksum": true} refuses frames without a content checksum
 * (found by zarr-fuzz's checksum property, ChecksumFuzzTest: the flag announcing the checksum is in
 * the frame header, which nothing protects; clearing it and cutting the last four bytes let a
 * changed byte of content decode as different values).
 */
class ZstdChecksumFlagTest {
    private final ZstdCodec checked = new ZstdCodec(ZstdConfiguration.of(1, true));
    private final byte[] data = new byte[192];
    private final byte[] frame;

    ZstdChecksumFlagTest() {
        new Random(19).nextBytes(data); // incompressible: a raw block, whose bytes are the content
        ByteBuffer encoded = checked.encode(ByteBuffer.wrap(data));
        frame = new byte[encoded.remaining()];
        encoded.get(frame);
    }

    /** The frame with its checksum flag cleared, its checksum cut and one content byte changed. */
    private byte[] stripped() {
        assertEquals(0x04, frame[4] & 0x04, "the frame header announces a checksum");
        byte[] bad = Arrays.copyOf(frame, frame.length - 4);
        bad[4] ^= 0x04;
        bad[bad.length - 10] ^= 1;
        return bad;
    }

    @Test
    void aFrameWhoseChecksumWasStrippedIsRefused() {
        for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.unbounded()}) {
            CorruptDataException e = assertThrows(CorruptDataException.class,
                    () -> checked.decode(ByteBuffer.wrap(stripped()), size));
            assertTrue(e.getMessage().contains("frame 1 at offset 0 has no content checksum"), e.getMessage());
        }
        ByteBuffer into = ByteBuffer.allocate(data.length);
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> checked.decodeInto(ByteBuffer.wrap(stripped()), into));
        assertTrue(e.getMessage().contains("\"checksum\": true"), e.getMessage());
    }

    @Test
    void withoutTheChecksumConfiguredSuchFramesStillDecode() {
        ZstdCodec unchecked = new ZstdCodec(ZstdConfiguration.of(1, false));
        ByteBuffer out = unchecked.decode(ByteBuffer.wrap(stripped()), EncodedSize.fixed(data.length));
        assertEquals(data.length, out.remaining());
        ByteBuffer whole = checked.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(data.length));
        assertEquals(ByteBuffer.wrap(data), whole);
    }
}
