package dev.zarrj.fuzz.codec;

import static dev.zarrj.fuzz.codec.CodecFuzz.array;
import static dev.zarrj.fuzz.codec.CodecFuzz.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.core.DataTypes;
import java.util.List;

/**
 * Every {@code numcodecs.*} codec zarrj runs (zarr-codec-numcodecs), on fuzzed chunks, in three
 * targets: the compressors ({@code zlib}, {@code gzip}, {@code bz2}, {@code lzma} in its xz and
 * raw formats, {@code lz4}), the checksums ({@code adler32}, {@code crc32}, {@code crc32c},
 * {@code fletcher32}, {@code jenkins_lookup3}) and the filters, which see the fuzzed bytes as the
 * values of the array they decode ({@code shuffle}, {@code delta}, {@code fixedscaleoffset},
 * {@code quantize}, {@code bitround}, {@code astype}, {@code packbits}); and a fourth for
 * {@code numcodecs.zfpy}, whose stream the system's zfp library decodes (a separate target, so that
 * a native crash is attributed to it). {@code numcodecs.pcodec} is refused at open, so it has no
 * chunk to decode. An input is a menu byte, a region byte and the chunk (see
 * {@link CodecFuzz}).
 */
class NumcodecsFuzzTest {
    static final long[] SHAPE = {10, 6};
    static final long[] CHUNKS = {8, 4};
    private static final String LE = codec("bytes", "{\"endian\":\"little\"}");

    static final CodecFuzz.Menu COMPRESSORS = new CodecFuzz.Menu(List.of(
            array("numcodecs.zlib", DataTypes.INT32, SHAPE, CHUNKS, LE, codec("numcodecs.zlib", "{\"level\":1}")),
            array("numcodecs.gzip", DataTypes.INT16, SHAPE, CHUNKS, LE, codec("numcodecs.gzip", "{\"level\":5}")),
            array("numcodecs.bz2", DataTypes.UINT8, SHAPE, CHUNKS, codec("bytes", null),
                    codec("numcodecs.bz2", "{\"level\":1}")),
            array("numcodecs.lzma-xz", DataTypes.FLOAT32, SHAPE, CHUNKS, LE,
                    codec("numcodecs.lzma", "{\"format\":1,\"check\":-1,\"preset\":1,\"filters\":null}")),
            array("numcodecs.lzma-alone", DataTypes.INT32, SHAPE, CHUNKS, LE,
                    codec("numcodecs.lzma", "{\"format\":2,\"check\":-1,\"preset\":1,\"filters\":null}")),
            array("numcodecs.lz4", DataTypes.FLOAT64, SHAPE, CHUNKS, LE,
                    codec("numcodecs.lz4", "{\"acceleration\":1}"))));
    static final CodecFuzz.Menu CHECKSUMS = new CodecFuzz.Menu(List.of(
            array("numcodecs.adler32", DataTypes.INT32, SHAPE, CHUNKS, LE, codec("numcodecs.adler32", "{}")),
            array("numcodecs.crc32", DataTypes.INT16, SHAPE, CHUNKS, LE, codec("numcodecs.crc32", "{}")),
            array("numcodecs.crc32c", DataTypes.UINT8, SHAPE, CHUNKS, codec("bytes", null),
                    codec("numcodecs.crc32c", "{}")),
            array("numcodecs.fletcher32", DataTypes.FLOAT32, SHAPE, CHUNKS, LE,
                    codec("numcodecs.fletcher32", "{}")),
            array("numcodecs.jenkins_lookup3", DataTypes.INT64, SHAPE, CHUNKS, LE,
                    codec("numcodecs.jenkins_lookup3", "{}"))));
    static final CodecFuzz.Menu FILTERS = new CodecFuzz.Menu(List.of(
            array("numcodecs.shuffle", DataTypes.INT32, SHAPE, CHUNKS, LE,
                    codec("numcodecs.shuffle", "{\"elementsize\":4}")),
            array("numcodecs.delta", DataTypes.INT16, SHAPE, CHUNKS, codec("numcodecs.delta", "{\"dtype\":\"<i2\"}"),
                    LE),
            array("numcodecs.delta-astype", DataTypes.INT32, SHAPE, CHUNKS,
                    codec("numcodecs.delta", "{\"dtype\":\"<i4\",\"astype\":\"<i2\"}"), LE),
            array("numcodecs.fixedscaleoffset", DataTypes.FLOAT64, SHAPE, CHUNKS,
                    codec("numcodecs.fixedscaleoffset", "{\"offset\":1000,\"scale\":10,\"dtype\":\"<f8\","
                            + "\"astype\":\"<i2\"}"), LE),
            array("numcodecs.fixedscaleoffset-u1", DataTypes.FLOAT32, SHAPE, CHUNKS,
                    codec("numcodecs.fixedscaleoffset", "{\"offset\":0,\"scale\":1,\"dtype\":\"<f4\","
                            + "\"astype\":\"|u1\"}"), codec("bytes", null)),
            array("numcodecs.quantize", DataTypes.FLOAT64, SHAPE, CHUNKS,
                    codec("numcodecs.quantize", "{\"digits\":2,\"dtype\":\"<f8\"}"), LE),
            array("numcodecs.bitround", DataTypes.FLOAT32, SHAPE, CHUNKS,
                    codec("numcodecs.bitround", "{\"keepbits\":5}"), LE),
            array("numcodecs.astype", DataTypes.FLOAT64, SHAPE, CHUNKS,
                    codec("numcodecs.astype", "{\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}"), LE),
            array("numcodecs.astype-int", DataTypes.INT64, SHAPE, CHUNKS,
                    codec("numcodecs.astype", "{\"encode_dtype\":\"<i1\",\"decode_dtype\":\"<i8\"}"),
                    codec("bytes", null)),
            array("numcodecs.packbits", DataTypes.BOOL, SHAPE, CHUNKS, codec("numcodecs.packbits", "{}"),
                    codec("bytes", null))));

    static final CodecFuzz.Menu ZFPY = new CodecFuzz.Menu(List.of(
            array("numcodecs.zfpy-reversible-f64", DataTypes.FLOAT64, SHAPE, CHUNKS,
                    codec("numcodecs.zfpy", "{\"mode\":5}")),
            array("numcodecs.zfpy-accuracy-f32", DataTypes.FLOAT32, SHAPE, CHUNKS,
                    codec("numcodecs.zfpy", "{\"mode\":4,\"tolerance\":0.01}")),
            array("numcodecs.zfpy-rate-f64", DataTypes.FLOAT64, SHAPE, CHUNKS,
                    codec("numcodecs.zfpy", "{\"mode\":2,\"rate\":16}")),
            array("numcodecs.zfpy-precision-i32", DataTypes.INT32, SHAPE, CHUNKS,
                    codec("numcodecs.zfpy", "{\"mode\":3,\"precision\":20}")),
            array("numcodecs.zfpy-reversible-i64", DataTypes.INT64, SHAPE, CHUNKS,
                    codec("numcodecs.zfpy", "{\"mode\":5}"))));

    @FuzzTest(maxDuration = "10s")
    void compressors(byte[] input) {
        COMPRESSORS.decode(input);
    }

    @FuzzTest(maxDuration = "10s")
    void checksums(byte[] input) {
        CHECKSUMS.decode(input);
    }

    @FuzzTest(maxDuration = "10s")
    void filters(byte[] input) {
        FILTERS.decode(input);
    }

    @FuzzTest(maxDuration = "10s")
    void zfpy(byte[] input) {
        ZFPY.decode(input);
    }
}
