package dev.zarrj.fuzz.codec;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes the seed corpora of the codec targets: for every configuration of every menu, a valid
 * chunk (the array written with known values) behind its menu byte and two region bytes; for
 * {@link ChecksumFuzzTest}, each chain undamaged and with one byte changed. Seeds are named after
 * their configuration and are a few hundred bytes, so replaying them is quick.
 *
 * <p>Regenerate (from {@code zarr-fuzz}):
 * <pre>
 * mvn -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * java -cp "target/test-classes:target/classes:$(cat target/cp.txt)" dev.zarrj.fuzz.codec.SeedCorpora src/test/resources
 * </pre>
 * It replaces the seeds it writes and leaves other files (regression inputs of findings) alone.
 */
public final class SeedCorpora {
    private SeedCorpora() {}

    /** Writes the seeds under the resources folder {@code args[0]}. */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "src/test/resources").resolve("dev/zarrj/fuzz/codec");
        menu(root, "CoreCodecFuzzTest", "bytes", CoreCodecFuzzTest.BYTES);
        menu(root, "CoreCodecFuzzTest", "transpose", CoreCodecFuzzTest.TRANSPOSE);
        menu(root, "CoreCodecFuzzTest", "crc32c", CoreCodecFuzzTest.CRC32C);
        menu(root, "CompressorFuzzTest", "gzip", CompressorFuzzTest.GZIP);
        menu(root, "CompressorFuzzTest", "zstd", CompressorFuzzTest.ZSTD);
        menu(root, "CompressorFuzzTest", "blosc", CompressorFuzzTest.BLOSC);
        menu(root, "ShardingFuzzTest", "shard", ShardingFuzzTest.SHARDS);
        menu(root, "StringCodecFuzzTest", "vlenUtf8", StringCodecFuzzTest.UTF8);
        menu(root, "StringCodecFuzzTest", "vlenBytes", StringCodecFuzzTest.BYTES);
        menu(root, "NumcodecsFuzzTest", "compressors", NumcodecsFuzzTest.COMPRESSORS);
        menu(root, "NumcodecsFuzzTest", "checksums", NumcodecsFuzzTest.CHECKSUMS);
        menu(root, "NumcodecsFuzzTest", "filters", NumcodecsFuzzTest.FILTERS);
        menu(root, "NumcodecsFuzzTest", "zfpy", NumcodecsFuzzTest.ZFPY);
        menu(root, "V2CodecFuzzTest", "chunk", V2CodecFuzzTest.V2);
        Path dir = Files.createDirectories(root.resolve("ChecksumFuzzTestInputs/damage"));
        for (int c = 0; c < ChecksumFuzzTest.CHAINS.size(); c++) {
            String name = ChecksumFuzzTest.CHAINS.config(c).name();
            Files.write(dir.resolve("seed-" + name), new byte[] {(byte) c});
            Files.write(dir.resolve("seed-" + name + "-xor"), new byte[] {(byte) c, 1, 0, 9, 0x10});
        }
    }

    private static void menu(Path root, String testClass, String method, CodecFuzz.Menu menu) throws IOException {
        Path dir = Files.createDirectories(root.resolve(testClass + "Inputs").resolve(method));
        for (int i = 0; i < menu.size(); i++) {
            ZarrArray array = menu.config(i).creator().create(CodecFuzz.ZARR.openStore("memory:"));
            array.write(known(array.dataType(), array.shape()));
            ByteBuffer chunk = array.store().get(StoreKey.of(array.chunkKey(new long[array.rank()]))).orElseThrow();
            for (byte region : new byte[] {0, (byte) 0xFF}) {
                byte[] seed = new byte[2 + chunk.remaining()];
                seed[0] = (byte) i;
                seed[1] = region;
                chunk.duplicate().get(seed, 2, chunk.remaining());
                Files.write(dir.resolve(String.format(Locale.ROOT, "seed-%s-%02x", menu.config(i).name(), region)),
                        seed);
            }
        }
    }

    /** Known values of every kind: small, exact in every type and filter of the menus. */
    static NdArray known(DataType type, long[] shape) {
        NdArray a = NdArray.allocate(type, shape);
        long n = a.elementCount();
        switch (type.kind()) {
            case BOOL -> {
                for (long i = 0; i < n; i++) {
                    a.setBoolean(i, i % 3 == 0);
                }
            }
            case INT, UINT -> {
                for (long i = 0; i < n; i++) {
                    a.setLong(i, (i * 37) % 100 + 1);
                }
            }
            case FLOAT -> {
                for (long i = 0; i < n; i++) {
                    a.setDouble(i, i * 0.25 + 1);
                }
            }
            case STRING -> {
                for (long i = 0; i < n; i++) {
                    a.setString(i, "s" + i + (i % 2 == 0 ? "é" : ""));
                }
            }
            case BYTES -> {
                for (long i = 0; i < n; i++) {
                    a.setBytes(i, ("b" + i).getBytes(StandardCharsets.UTF_8));
                }
            }
            default -> {
                ByteBuffer b = a.bytes().order(ByteOrder.nativeOrder());
                int half = type.size() / 2;
                for (int i = 0; b.remaining() >= half; i++) {
                    if (half == 4) {
                        b.putFloat(i * 0.5f);
                    } else {
                        b.putDouble(i * 0.5);
                    }
                }
            }
        }
        return a;
    }

    static List<String> names(CodecFuzz.Menu menu) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < menu.size(); i++) {
            names.add(menu.config(i).name());
        }
        return names;
    }
}
