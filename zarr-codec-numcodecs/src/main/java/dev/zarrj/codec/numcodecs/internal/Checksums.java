package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.ExtensionConfig;

/** The configuration of the adler32 and crc32 codecs. */
final class Checksums {
    private Checksums() {}

    static ChecksumCodec create(ExtensionConfig config, ChecksumCodec.Algorithm algorithm) {
        config.rejectUnknownFields("location");
        return config.optionalStringField("location", "start", "end")
                .map(l -> new ChecksumCodec(algorithm, l.equals("start") ? ChecksumCodec.Location.START
                        : ChecksumCodec.Location.END, true))
                .orElseGet(() -> new ChecksumCodec(algorithm, ChecksumCodec.Location.START, false));
    }
}
