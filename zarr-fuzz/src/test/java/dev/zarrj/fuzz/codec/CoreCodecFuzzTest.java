package dev.zarrj.fuzz.codec;

import static dev.zarrj.fuzz.codec.CodecFuzz.array;
import static dev.zarrj.fuzz.codec.CodecFuzz.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.core.DataTypes;
import java.util.ArrayList;
import java.util.List;

/**
 * The core codecs' decoders on fuzzed chunks: {@code bytes} (both byte orders, every core data
 * type), {@code transpose} (ranks 2 and 3) and {@code crc32c}. An input is a menu byte, a region
 * byte and the chunk (see {@link CodecFuzz}); the seeds are valid chunks written by
 * {@link SeedCorpora}.
 */
class CoreCodecFuzzTest {
    static final long[] SHAPE = {7, 5};
    static final long[] CHUNKS = {4, 3};
    static final DataType[] TYPES = {DataTypes.BOOL, DataTypes.INT8, DataTypes.UINT8, DataTypes.INT16, DataTypes.UINT16,
        DataTypes.INT32, DataTypes.UINT32, DataTypes.INT64, DataTypes.UINT64, DataTypes.FLOAT16, DataTypes.FLOAT32,
        DataTypes.FLOAT64, DataTypes.COMPLEX64, DataTypes.COMPLEX128};

    static final CodecFuzz.Menu BYTES = new CodecFuzz.Menu(bytesMenu());
    static final CodecFuzz.Menu TRANSPOSE = new CodecFuzz.Menu(List.of(
            array("transpose-10-int16-little", DataTypes.INT16, SHAPE, CHUNKS,
                    codec("transpose", "{\"order\":[1,0]}"), codec("bytes", "{\"endian\":\"little\"}")),
            array("transpose-10-float64-big", DataTypes.FLOAT64, SHAPE, CHUNKS,
                    codec("transpose", "{\"order\":[1,0]}"), codec("bytes", "{\"endian\":\"big\"}")),
            array("transpose-201-uint8", DataTypes.UINT8, new long[] {5, 4, 3}, new long[] {3, 2, 2},
                    codec("transpose", "{\"order\":[2,0,1]}"), codec("bytes", null)),
            array("transpose-120-int32-twice", DataTypes.INT32, new long[] {5, 4, 3}, new long[] {3, 2, 2},
                    codec("transpose", "{\"order\":[1,2,0]}"), codec("transpose", "{\"order\":[2,0,1]}"),
                    codec("bytes", "{\"endian\":\"little\"}")),
            array("transpose-01-bool", DataTypes.BOOL, SHAPE, CHUNKS,
                    codec("transpose", "{\"order\":[0,1]}"), codec("bytes", null))));
    static final CodecFuzz.Menu CRC32C = new CodecFuzz.Menu(List.of(
            array("crc32c-int32", DataTypes.INT32, SHAPE, CHUNKS, codec("bytes", "{\"endian\":\"little\"}"),
                    codec("crc32c", null)),
            array("crc32c-float32-big-transpose", DataTypes.FLOAT32, SHAPE, CHUNKS,
                    codec("transpose", "{\"order\":[1,0]}"), codec("bytes", "{\"endian\":\"big\"}"),
                    codec("crc32c", null)),
            array("crc32c-twice-uint8", DataTypes.UINT8, SHAPE, CHUNKS, codec("bytes", null), codec("crc32c", null),
                    codec("crc32c", null))));

    private static List<CodecFuzz.Config> bytesMenu() {
        List<CodecFuzz.Config> menu = new ArrayList<>();
        for (DataType t : TYPES) {
            for (String endian : new String[] {"little", "big"}) {
                menu.add(array("bytes-" + t.name() + "-" + endian, t, SHAPE, CHUNKS,
                        codec("bytes", "{\"endian\":\"" + endian + "\"}")));
            }
        }
        return menu;
    }

    @FuzzTest(maxDuration = "10s")
    void bytes(byte[] input) {
        BYTES.decode(input);
    }

    @FuzzTest(maxDuration = "10s")
    void transpose(byte[] input) {
        TRANSPOSE.decode(input);
    }

    @FuzzTest(maxDuration = "10s")
    void crc32c(byte[] input) {
        CRC32C.decode(input);
    }
}
