package dev.zarrj.fuzz.codec;

import static dev.zarrj.fuzz.codec.CodecFuzz.array;
import static dev.zarrj.fuzz.codec.CodecFuzz.codec;
import static dev.zarrj.fuzz.codec.ShardingFuzzTest.sharding;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.ZarrArray;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The checksum property: a known array encoded through a chain that carries a checksum
 * ({@code crc32c}, gzip's CRC-32 and length trailer, zstd's content checksum, sharding with
 * {@code crc32c} on the index and the inner chunks, numcodecs' checksums and zlib/gzip/xz
 * containers), then damaged as the fuzzer chooses, must read back as the original values or fail
 * with a {@code ZarrException}; never as different values (compared element by element, whole and
 * for two regions through the partial decoders).
 *
 * <p>An input is a chain byte (modulo the menu's size) then damage operations of four bytes each,
 * {@code [kind][position high][position low][value]}: kind 0 sets the byte at the position
 * (modulo the length) to the value, 1 XORs it with the value, 2 truncates to the position, 3
 * appends the value once or more.
 */
class ChecksumFuzzTest {
    static final long[] SHAPE = {8, 6};
    private static final String LE = codec("bytes", "{\"endian\":\"little\"}");
    private static final String CRC = codec("crc32c", null);
    private static final String GZIP = codec("gzip", "{\"level\":1}");
    private static final String ZSTD = codec("zstd", "{\"level\":1,\"checksum\":true}");

    static final CodecFuzz.Menu CHAINS = new CodecFuzz.Menu(List.of(
            chain("crc32c", LE, CRC),
            chain("gzip", LE, GZIP),
            chain("zstd-checksum", LE, ZSTD),
            chain("transpose-gzip-crc32c", codec("transpose", "{\"order\":[1,0]}"), codec("bytes", "{\"endian\":\"big\"}"),
                    GZIP, CRC),
            chain("shard-end-crc32c", sharding("[4,3]", "end", "[" + LE + "," + CRC + "]", "[" + LE + "," + CRC + "]")),
            chain("shard-start-crc32c", sharding("[2,6]", "start", "[" + LE + "," + CRC + "]",
                    "[" + LE + "," + CRC + "]")),
            chain("shard-end-gzip", sharding("[4,2]", "end", "[" + LE + "," + GZIP + "]", "[" + LE + "," + CRC + "]")),
            chain("shard-start-zstd", sharding("[8,3]", "start", "[" + LE + "," + ZSTD + "]",
                    "[" + LE + "," + CRC + "]")),
            chain("shard-nested-crc32c", sharding("[4,6]", "end", "[" + sharding("[2,3]", "start",
                    "[" + LE + "," + CRC + "]", "[" + LE + "," + CRC + "]") + "]", "[" + LE + "," + CRC + "]")),
            chain("numcodecs.crc32", LE, codec("numcodecs.crc32", "{}")),
            chain("numcodecs.adler32", LE, codec("numcodecs.adler32", "{}")),
            chain("numcodecs.crc32c", LE, codec("numcodecs.crc32c", "{}")),
            chain("numcodecs.fletcher32", LE, codec("numcodecs.fletcher32", "{}")),
            chain("numcodecs.jenkins_lookup3", LE, codec("numcodecs.jenkins_lookup3", "{}")),
            chain("numcodecs.zlib", LE, codec("numcodecs.zlib", "{\"level\":1}")),
            chain("numcodecs.gzip", LE, codec("numcodecs.gzip", "{\"level\":1}")),
            chain("numcodecs.lzma-xz", LE, codec("numcodecs.lzma",
                    "{\"format\":1,\"check\":-1,\"preset\":1,\"filters\":null}"))));

    private static final Map<Integer, byte[]> ENCODED = new HashMap<>();

    private static CodecFuzz.Config chain(String name, String... codecs) {
        return array(name, DataTypes.INT32, SHAPE, SHAPE, codecs);
    }

    /** The known values: distinct, none equal to the fill value, so that no inner chunk is left out. */
    static NdArray original() {
        int[] values = new int[(int) (SHAPE[0] * SHAPE[1])];
        for (int i = 0; i < values.length; i++) {
            values[i] = 1 + i * 7919 ^ (i << 20);
        }
        return NdArray.copyOf(DataTypes.INT32, values, SHAPE);
    }

    /** The chain's array, holding the known values, and their encoded chunk. */
    static synchronized byte[] encoded(int chain) {
        return ENCODED.computeIfAbsent(chain, c -> {
            ZarrArray array = CHAINS.array(c);
            array.write(original());
            ByteBuffer stored = array.store().get(StoreKey.of(array.chunkKey(0, 0))).orElseThrow();
            byte[] bytes = new byte[stored.remaining()];
            stored.get(bytes);
            return bytes;
        });
    }

    /** The chunk after the damage operations that follow the chain byte. */
    static byte[] damaged(byte[] chunk, byte[] input) {
        byte[] out = chunk.clone();
        int n = out.length;
        ByteArrayOutputStream extra = new ByteArrayOutputStream();
        for (int i = 1; i + 3 < input.length; i += 4) {
            int pos = (Byte.toUnsignedInt(input[i + 1]) << 8) | Byte.toUnsignedInt(input[i + 2]);
            byte value = input[i + 3];
            switch (input[i] & 3) {
                case 0 -> {
                    if (n > 0) {
                        out[pos % n] = value;
                    }
                }
                case 1 -> {
                    if (n > 0) {
                        out[pos % n] ^= value;
                    }
                }
                case 2 -> n = n == 0 ? 0 : pos % n;
                default -> {
                    byte[] grown = Arrays.copyOf(out, n + 1 + (pos & 7));
                    Arrays.fill(grown, n, grown.length, value);
                    out = grown;
                    n = grown.length;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    @FuzzTest(maxDuration = "10s")
    void damage(byte[] input) {
        check(input);
    }

    /** Damages a chain's chunk as the input says and checks the checksum property. */
    static void check(byte[] input) {
        if (input.length < 1) {
            return;
        }
        int chain = Byte.toUnsignedInt(input[0]) % CHAINS.size();
        byte[] chunk = encoded(chain);
        ZarrArray array = CHAINS.array(chain);
        byte[] damaged = damaged(chunk, input);
        array.store().set(StoreKey.of(array.chunkKey(0, 0)), ByteBuffer.wrap(damaged));
        NdArray expected = original();
        String what = CHAINS.config(chain).name() + " damaged to " + damaged.length + " bytes";
        CodecFuzz.property(() -> same(expected, array.read(), what + ", read whole"));
        CodecFuzz.property(() -> same(region(expected, 1, 2, 2, 3), array.read(new long[] {1, 2}, new long[] {2, 3}),
                what + ", region [1,2]+[2,3]"));
        CodecFuzz.property(() -> same(region(expected, 7, 5, 1, 1), array.read(new long[] {7, 5}, new long[] {1, 1}),
                what + ", element [7,5]"));
    }

    private static NdArray region(NdArray all, int r0, int c0, int rows, int cols) {
        int[] values = new int[rows * cols];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                values[r * cols + c] = (int) all.getLong(r0 + r, c0 + c);
            }
        }
        return NdArray.copyOf(DataTypes.INT32, values, rows, cols);
    }

    private static void same(NdArray expected, NdArray actual, String what) {
        CodecFuzz.checkShape(actual, expected.shape(), what);
        int i = CodecFuzz.firstDifference(expected, actual);
        if (i >= 0) {
            throw new AssertionError(what + ": element " + i + " reads " + actual.getLong(i) + ", not "
                    + expected.getLong(i) + ", and no checksum caught the damage");
        }
    }
}
