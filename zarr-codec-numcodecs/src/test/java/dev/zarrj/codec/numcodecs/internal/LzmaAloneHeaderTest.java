package dev.zarrj.codec.numcodecs.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * An {@code .lzma} (LZMA_Alone) header claiming a large dictionary for a small chunk is not
 * allocated: the dictionary is bounded by the decoded size (found while finding out why zarr-fuzz's
 * {@code NumcodecsFuzzTest.compressors} ran slowly: a 13-byte header claiming 200 MiB made the
 * decoder allocate 200 MiB for a 128-byte chunk, within the 256 MiB limit it had, more than a
 * 256 MiB heap can spare).
 */
class LzmaAloneHeaderTest {
    private final BytesToBytesCodec codec = (BytesToBytesCodec) Providers.create("numcodecs.lzma",
            "{\"format\": 2, \"check\": -1, \"preset\": 1, \"filters\": null}");

    @Test
    void aLargeDictionaryClaimIsNotAllocated() throws Exception {
        Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        Method allocated;
        try {
            allocated = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
        } catch (ClassNotFoundException e) {
            allocated = null;
        }
        assumeTrue(allocated != null, "the thread's allocated bytes are measured by com.sun.management (HotSpot)");
        byte[] stream = new byte[40];
        stream[0] = 0x5D;                           // lc=3, lp=0, pb=2
        int dict = 200 << 20;                       // 200 MiB
        for (int i = 0; i < 4; i++) {
            stream[1 + i] = (byte) (dict >>> (8 * i));
        }
        for (int i = 5; i < 13; i++) {
            stream[i] = (byte) 0xFF;                // size unknown
        }
        for (int i = 13; i < stream.length; i++) {
            stream[i] = (byte) (i * 37);
        }
        long before = (long) allocated.invoke(threads);
        assertThrows(CorruptDataException.class, () -> codec.decode(ByteBuffer.wrap(stream), EncodedSize.fixed(128)));
        long used = (long) allocated.invoke(threads) - before;
        assertTrue(used < 16 << 20, "decoding a 40-byte .lzma chunk of 128 bytes allocated " + used + " bytes");
    }

    @Test
    void streamsStillDecodeWithTheirDictionaryBounded() {
        byte[] data = new byte[5000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 251 ^ i / 100);
        }
        ByteBuffer encoded = codec.encode(ByteBuffer.wrap(data));
        ByteBuffer decoded = codec.decode(encoded, EncodedSize.fixed(data.length));
        byte[] back = new byte[decoded.remaining()];
        decoded.get(back);
        assertArrayEquals(data, back);
    }
}
