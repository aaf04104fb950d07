package dev.zarrj.codec.numcodecs.internal;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@code numcodecs.zfpy} against the kit's array→bytes contract in its reversible (lossless)
 * configurations; skipped, saying why, when the zfp library is not installed.
 */
class ZfpyCodecConformanceTest extends ArrayToBytesCodecContract {
    @BeforeAll
    void zfpInstalled() {
        if (ZfpLibrary.Holder.LIBRARY.isEmpty()) {
            System.out.println("ZfpyCodecConformanceTest: skipped: libzfp not loadable: " + ZfpLibrary.Holder.PROBLEM);
        }
        assumeTrue(ZfpLibrary.Holder.LIBRARY.isPresent(), "libzfp (Debian: libzfp1)");
    }

    @Override
    protected CodecProvider provider() {
        return new ZfpyCodecProvider();
    }
}
