package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.ExtensionConfig;

/** The configuration of the adler32, crc32 and crc32c codecs: the checksum's location. */
final class Checksums {
    private Checksums() {}

    static ChecksumCodec create(ExtensionConfig config, ChecksumCodec.Algorithm algorithm) {
        config.rejectUnknownFields("location");
        return config.optionalStringField("location", "start", "end")
                .map(l -> new ChecksumCodec(algorithm, l.equals("start") ? ChecksumCodec.Location.START
                        : ChecksumCodec.Location.END, true))
                .orElseGet(() -> new ChecksumCodec(algorithm, algorithm == ChecksumCodec.Algorithm.CRC32C
                        ? ChecksumCodec.Location.END : ChecksumCodec.Location.START, false));
    }
}
