package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.EncodedSize;
import java.nio.ByteBuffer;

/** Lets tests outside this package run an internal codec. */
public final class TestAccess {
    /** Removes a leading crc32 and inflates a numcodecs.zlib value. */
    public ByteBuffer zlibDecode(ByteBuffer crc32ThenZlib, int level) {
        ByteBuffer z = new ChecksumCodec(ChecksumCodec.Algorithm.CRC32, ChecksumCodec.Location.START, false)
                .decode(crc32ThenZlib, EncodedSize.unbounded());
        return new ZlibCodec(level).decode(z, EncodedSize.unbounded());
    }
}
