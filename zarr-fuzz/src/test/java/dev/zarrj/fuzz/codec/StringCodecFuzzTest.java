package dev.zarrj.fuzz.codec;

import static dev.zarrj.fuzz.codec.CodecFuzz.array;
import static dev.zarrj.fuzz.codec.CodecFuzz.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.ext.strings.StringTypes;
import java.util.List;

/**
 * {@code vlen-utf8} and {@code vlen-bytes} (zarr-ext-strings) on fuzzed chunks: element counts and
 * lengths that claim more than the chunk holds, invalid UTF-8, and the same codecs behind gzip and
 * inside a shard. An input is a menu byte, a region byte and the chunk (see {@link CodecFuzz}).
 */
class StringCodecFuzzTest {
    static final long[] SHAPE = {6, 4};
    static final long[] CHUNKS = {4, 4};

    static final CodecFuzz.Menu UTF8 = new CodecFuzz.Menu(List.of(
            array("vlen-utf8", StringTypes.STRING, SHAPE, CHUNKS, codec("vlen-utf8", null)),
            array("vlen-utf8-gzip", StringTypes.STRING, SHAPE, CHUNKS, codec("vlen-utf8", null),
                    codec("gzip", "{\"level\":1}")),
            array("vlen-utf8-transpose", StringTypes.STRING, SHAPE, CHUNKS, codec("transpose", "{\"order\":[1,0]}"),
                    codec("vlen-utf8", null)),
            array("vlen-utf8-sharded", StringTypes.STRING, SHAPE, CHUNKS,
                    ShardingFuzzTest.sharding("[2,2]", "end", "[" + codec("vlen-utf8", null) + "]",
                            "[" + codec("bytes", "{\"endian\":\"little\"}") + "," + codec("crc32c", null) + "]"))));
    static final CodecFuzz.Menu BYTES = new CodecFuzz.Menu(List.of(
            array("vlen-bytes", StringTypes.BYTES, SHAPE, CHUNKS, codec("vlen-bytes", null)),
            array("vlen-bytes-zstd", StringTypes.BYTES, SHAPE, CHUNKS, codec("vlen-bytes", null),
                    codec("zstd", "{\"level\":1,\"checksum\":false}")),
            array("vlen-bytes-sharded", StringTypes.BYTES, SHAPE, CHUNKS,
                    ShardingFuzzTest.sharding("[2,4]", "start", "[" + codec("vlen-bytes", null) + "]",
                            "[" + codec("bytes", "{\"endian\":\"little\"}") + "]"))));

    @FuzzTest(maxDuration = "10s")
    void vlenUtf8(byte[] input) {
        UTF8.decode(input);
    }

    @FuzzTest(maxDuration = "10s")
    void vlenBytes(byte[] input) {
        BYTES.decode(input);
    }
}
