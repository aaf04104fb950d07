package dev.zarrj.fuzz.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Zarr v2 chunks (zarr-format-v2): a {@code .zarray} whose {@code compressor} and {@code filters}
 * are numcodecs configurations, translated to a v3 chain when the array is opened, reading fuzzed
 * chunks; both orders ({@code "C"}, and {@code "F"}, which becomes a transpose), both byte orders,
 * and the object arrays whose first filter is {@code vlen-utf8} or {@code vlen-bytes}. An input is
 * a menu byte, a region byte and the chunk (see {@link CodecFuzz}).
 */
class V2CodecFuzzTest {
    static final CodecFuzz.Menu V2 = new CodecFuzz.Menu(List.of(
            v2("v2-zlib-i4", "\"<i4\"", "C", "{\"id\":\"zlib\",\"level\":1}", "null", "0"),
            v2("v2-blosc-f8-F", "\">f8\"", "F", "{\"id\":\"blosc\",\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":1,"
                    + "\"blocksize\":0}", "null", "0.0"),
            v2("v2-zstd-delta-i2", "\"<i2\"", "C", "{\"id\":\"zstd\",\"level\":1}", "[{\"id\":\"delta\","
                    + "\"dtype\":\"<i2\"}]", "0"),
            v2("v2-gzip-fixedscaleoffset-f8", "\"<f8\"", "C", "{\"id\":\"gzip\",\"level\":1}",
                    "[{\"id\":\"fixedscaleoffset\",\"offset\":0,\"scale\":100,\"dtype\":\"<f8\",\"astype\":\"<i2\"}]",
                    "0.0"),
            v2("v2-lz4-crc32-u2-big", "\">u2\"", "C", "{\"id\":\"lz4\",\"acceleration\":1}",
                    "[{\"id\":\"crc32\"}]", "0"),
            v2("v2-bz2-packbits-b1", "\"|b1\"", "C", "{\"id\":\"bz2\",\"level\":1}", "[{\"id\":\"packbits\"}]",
                    "false"),
            v2("v2-lzma-quantize-f4", "\"<f4\"", "F", "{\"id\":\"lzma\",\"format\":1,\"check\":-1,\"preset\":1,"
                    + "\"filters\":null}", "[{\"id\":\"quantize\",\"digits\":3,\"dtype\":\"<f4\"}]", "0.0"),
            v2("v2-none-i8", "\"<i8\"", "C", "null", "null", "0"),
            v2("v2-vlen-utf8", "\"|O\"", "C", "null", "[{\"id\":\"vlen-utf8\"}]", "\"\""),
            v2("v2-vlen-bytes-zstd", "\"|O\"", "C", "{\"id\":\"zstd\",\"level\":1}", "[{\"id\":\"vlen-bytes\"}]",
                    "\"\"")));

    private static CodecFuzz.Config v2(String name, String dtype, String order, String compressor, String filters,
                                       String fill) {
        String zarray = "{\"zarr_format\":2,\"shape\":[6,5],\"chunks\":[4,3],\"dtype\":" + dtype
                + ",\"compressor\":" + compressor + ",\"filters\":" + filters + ",\"fill_value\":" + fill
                + ",\"order\":\"" + order + "\",\"dimension_separator\":\".\"}";
        return new CodecFuzz.Config(name, store -> {
            store.set(StoreKey.of("a/.zarray"), ByteBuffer.wrap(zarray.getBytes(StandardCharsets.UTF_8)));
            return CodecFuzz.ZARR.openArray(store, "a", 2);
        });
    }

    @FuzzTest(maxDuration = "10s")
    void chunk(byte[] input) {
        V2.decode(input);
    }
}
