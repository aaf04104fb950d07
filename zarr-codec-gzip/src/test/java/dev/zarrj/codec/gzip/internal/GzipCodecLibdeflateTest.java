package dev.zarrj.codec.gzip.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;

/**
 * Every test of {@link GzipCodecTest} on libdeflate. Where libdeflate is not installed these tests
 * fail, unless the system property {@code zarrj.test.libdeflate} is {@code optional}: a build
 * machine without it would otherwise test the fallback twice and say nothing.
 */
class GzipCodecLibdeflateTest extends GzipCodecTest {
    @BeforeAll
    static void libdeflateIsThere() {
        requireLibdeflate();
    }

    /** Fails (or, with {@code -Dzarrj.test.libdeflate=optional}, skips) without libdeflate. */
    static void requireLibdeflate() {
        if ("optional".equals(System.getProperty("zarrj.test.libdeflate"))) {
            org.junit.jupiter.api.Assumptions.assumeTrue(NativeGzip.available(), NativeGzip::describe);
        }
        assertTrue(NativeGzip.available(), NativeGzip::describe);
    }

    @Override
    GzipCodec.Implementation implementation() {
        return GzipCodec.Implementation.LIBDEFLATE;
    }
}
