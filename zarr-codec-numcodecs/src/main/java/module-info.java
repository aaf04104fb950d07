import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.numcodecs.internal.Adler32CodecProvider;
import dev.zarrj.codec.numcodecs.internal.AsTypeCodecProvider;
import dev.zarrj.codec.numcodecs.internal.BitRoundCodecProvider;
import dev.zarrj.codec.numcodecs.internal.Bz2CodecProvider;
import dev.zarrj.codec.numcodecs.internal.Crc32CodecProvider;
import dev.zarrj.codec.numcodecs.internal.Crc32cCodecProvider;
import dev.zarrj.codec.numcodecs.internal.DeltaCodecProvider;
import dev.zarrj.codec.numcodecs.internal.FixedScaleOffsetCodecProvider;
import dev.zarrj.codec.numcodecs.internal.Fletcher32CodecProvider;
import dev.zarrj.codec.numcodecs.internal.GzipCodecProvider;
import dev.zarrj.codec.numcodecs.internal.JenkinsLookup3CodecProvider;
import dev.zarrj.codec.numcodecs.internal.Lz4CodecProvider;
import dev.zarrj.codec.numcodecs.internal.LzmaCodecProvider;
import dev.zarrj.codec.numcodecs.internal.PackBitsCodecProvider;
import dev.zarrj.codec.numcodecs.internal.PcodecCodecProvider;
import dev.zarrj.codec.numcodecs.internal.QuantizeCodecProvider;
import dev.zarrj.codec.numcodecs.internal.ShuffleCodecProvider;
import dev.zarrj.codec.numcodecs.internal.ZfpyCodecProvider;
import dev.zarrj.codec.numcodecs.internal.ZlibCodecProvider;

/**
 * The {@code numcodecs.*} codecs that zarr-python 3 writes for numcodecs' compressors, checksums
 * and filters, with numcodecs' semantics: bytes→bytes {@code numcodecs.zlib}, {@code .gzip},
 * {@code .bz2} (commons-compress), {@code .lzma} (xz-java), {@code .lz4} (lz4-java),
 * {@code .adler32}, {@code .crc32}, {@code .crc32c}, {@code .fletcher32}, {@code .jenkins_lookup3},
 * {@code .shuffle}; array→array {@code numcodecs.delta},
 * {@code .fixedscaleoffset}, {@code .quantize}, {@code .bitround}, {@code .astype},
 * {@code .packbits}; array→bytes {@code numcodecs.zfpy} (the system's zfp library through JNA).
 * {@code numcodecs.pcodec} is known and refused with the reason.
 *
 * <p>Exports only {@link dev.zarrj.codec.numcodecs.NumcodecsConfiguration}, for building metadata
 * in code.
 *
 * @provides CodecProvider the {@code numcodecs.*} names above
 */
module dev.zarrj.codec.numcodecs {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;
    requires org.apache.commons.compress;
    requires org.tukaani.xz;
    requires org.lz4.java;
    requires com.sun.jna;

    exports dev.zarrj.codec.numcodecs;

    provides CodecProvider with ZlibCodecProvider, GzipCodecProvider, Bz2CodecProvider, LzmaCodecProvider,
            Lz4CodecProvider, Adler32CodecProvider, Crc32CodecProvider, Crc32cCodecProvider, Fletcher32CodecProvider,
            JenkinsLookup3CodecProvider, ShuffleCodecProvider,
            DeltaCodecProvider, FixedScaleOffsetCodecProvider, QuantizeCodecProvider, BitRoundCodecProvider,
            AsTypeCodecProvider, PackBitsCodecProvider, ZfpyCodecProvider, PcodecCodecProvider;
}
