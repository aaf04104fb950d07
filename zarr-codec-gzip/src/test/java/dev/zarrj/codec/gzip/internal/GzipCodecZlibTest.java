package dev.zarrj.codec.gzip.internal;

/** Every test of {@link GzipCodecTest} on {@code java.util.zip}, the fallback without libdeflate. */
class GzipCodecZlibTest extends GzipCodecTest {
    @Override
    GzipCodec.Implementation implementation() {
        return GzipCodec.Implementation.JAVA_UTIL_ZIP;
    }
}
