package dev.zarrj.codec.gzip.internal;

import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.codec.gzip.GzipLibrary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Run by {@link FallbackTest} in a child JVM with the settings under test: creates a gzip codec
 * through its provider, says whether libdeflate is mapped into the process before and after the
 * first chunk, round-trips a chunk and decodes a member written by the other implementation.
 */
public final class FallbackProbe {
    private FallbackProbe() {}

    public static void main(String[] args) throws Exception {
        BytesToBytesCodec codec = (BytesToBytesCodec) GzipCodecProviderTest.create("{\"level\":1}");
        System.out.println("mapped before: " + mapped());
        byte[] data = TestData.compressible(100_000, 1);
        ByteBuffer encoded = codec.encode(ByteBuffer.wrap(data));
        byte[] decoded = TestData.bytes(codec.decode(encoded, EncodedSize.fixed(data.length)));
        System.out.println("round trip: " + Arrays.equals(data, decoded));
        byte[] other = TestData.bytes(new GzipCodec(dev.zarrj.codec.gzip.GzipConfiguration.level(1),
                GzipCodec.Implementation.JAVA_UTIL_ZIP).encode(ByteBuffer.wrap(data)));
        System.out.println("same as java.util.zip: " + Arrays.equals(other, TestData.bytes(encoded)));
        System.out.println("mapped after: " + mapped());
        System.out.println("implementation: " + GzipLibrary.describe());
    }

    /** Whether libdeflate is mapped into this process (Linux), or "unknown". */
    private static String mapped() throws IOException {
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) {
            return "unknown";
        }
        return String.valueOf(Files.readString(maps).contains("libdeflate"));
    }
}
