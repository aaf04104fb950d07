package dev.zarrj.fuzz.codec;

import static dev.zarrj.fuzz.codec.CodecFuzz.array;
import static dev.zarrj.fuzz.codec.CodecFuzz.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.core.DataTypes;
import java.util.List;

/**
 * The compressors' decoders on fuzzed chunks: {@code gzip}, {@code zstd} (with and without its
 * content checksum) and {@code blosc} (its compressors and shuffles). An input is a menu byte, a
 * region byte and the chunk (see {@link CodecFuzz}); a header that claims more bytes than the
 * chunk can hold must be refused, not allocated (the module runs with a small heap).
 */
class CompressorFuzzTest {
    static final long[] SHAPE = {16, 10};
    static final long[] CHUNKS = {8, 8};
    private static final String LE = codec("bytes", "{\"endian\":\"little\"}");

    static final CodecFuzz.Menu GZIP = new CodecFuzz.Menu(List.of(
            array("gzip-1-int32", DataTypes.INT32, SHAPE, CHUNKS, LE, codec("gzip", "{\"level\":1}")),
            array("gzip-0-uint8", DataTypes.UINT8, SHAPE, CHUNKS, codec("bytes", null), codec("gzip", "{\"level\":0}")),
            array("gzip-9-float64-crc32c", DataTypes.FLOAT64, SHAPE, CHUNKS, LE, codec("gzip", "{\"level\":9}"),
                    codec("crc32c", null))));
    static final CodecFuzz.Menu ZSTD = new CodecFuzz.Menu(List.of(
            array("zstd-3-int32", DataTypes.INT32, SHAPE, CHUNKS, LE,
                    codec("zstd", "{\"level\":3,\"checksum\":false}")),
            array("zstd-1-uint16-checksum", DataTypes.UINT16, SHAPE, CHUNKS, LE,
                    codec("zstd", "{\"level\":1,\"checksum\":true}")),
            array("zstd-0-float32-big", DataTypes.FLOAT32, SHAPE, CHUNKS, codec("bytes", "{\"endian\":\"big\"}"),
                    codec("zstd", "{\"level\":0,\"checksum\":false}"))));
    static final CodecFuzz.Menu BLOSC = new CodecFuzz.Menu(List.of(
            blosc("lz4", "shuffle", 4, DataTypes.INT32),
            blosc("blosclz", "noshuffle", 1, DataTypes.UINT8),
            blosc("zstd", "bitshuffle", 8, DataTypes.FLOAT64),
            blosc("zlib", "shuffle", 2, DataTypes.INT16),
            blosc("lz4hc", "bitshuffle", 4, DataTypes.FLOAT32)));

    private static CodecFuzz.Config blosc(String cname, String shuffle, int typesize, dev.zarrj.api.datatype.DataType t) {
        return array("blosc-" + cname + "-" + shuffle + "-" + t.name(), t, SHAPE, CHUNKS, LE, codec("blosc",
                "{\"cname\":\"" + cname + "\",\"clevel\":5,\"shuffle\":\"" + shuffle + "\",\"typesize\":" + typesize
                        + ",\"blocksize\":0}"));
    }

    @FuzzTest(maxDuration = "10s")
    void gzip(byte[] input) {
        GZIP.decode(input);
    }

    @FuzzTest(maxDuration = "10s")
    void zstd(byte[] input) {
        ZSTD.decode(input);
    }

    @FuzzTest(maxDuration = "10s")
    void blosc(byte[] input) {
        BLOSC.decode(input);
    }
}
