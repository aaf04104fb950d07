package dev.zarrj.fuzz.codec;

/**
 * The codec targets for Jazzer's standalone driver, which runs a class's
 * {@code public static void fuzzerTestOneInput(byte[])} and nothing else: that method runs the
 * target the system property {@code zarrj.fuzz.codec} names (a method of this class, named after
 * its {@code @FuzzTest} method, whose inputs folder holds its seeds; the {@code @FuzzTest} methods
 * call the same code). From {@code zarr-fuzz}:
 * <pre>
 * java -Xmx256m -Dzarrj.fuzz.codec=shard -cp "target/test-classes:target/classes:$(cat target/cp.txt)" \
 *   com.code_intelligence.jazzer.Jazzer --target_class=dev.zarrj.fuzz.codec.CodecTargets \
 *   --instrumentation_includes='dev.zarrj.**' -runs=1000000 -timeout=10 \
 *   scratch-corpus src/test/resources/dev/zarrj/fuzz/codec/ShardingFuzzTestInputs/shard
 * </pre>
 */
public final class CodecTargets {
    private static final java.lang.invoke.MethodHandle TARGET = target(System.getProperty("zarrj.fuzz.codec", ""));

    private CodecTargets() {}

    private static java.lang.invoke.MethodHandle target(String name) {
        if (name.isEmpty()) {
            return null;
        }
        try {
            return java.lang.invoke.MethodHandles.lookup().findStatic(CodecTargets.class, name,
                    java.lang.invoke.MethodType.methodType(void.class, byte[].class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("zarrj.fuzz.codec names no target of CodecTargets: " + name, e);
        }
    }

    /**
     * Called by Jazzer before fuzzing: creates every array of the target's menu (decoding an empty
     * chunk of each), so that class loading and instrumentation do not count against the first
     * inputs' timeout.
     */
    public static void fuzzerInitialize() throws Throwable {
        if (TARGET != null) {
            for (int i = 0; i < 32; i++) {
                TARGET.invokeExact(new byte[] {(byte) i, 0});
            }
        }
    }

    /** Runs the target the system property {@code zarrj.fuzz.codec} names. */
    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        if (TARGET == null) {
            throw new IllegalStateException("set -Dzarrj.fuzz.codec to a target of CodecTargets, e.g. shard");
        }
        TARGET.invokeExact(input);
    }

    /** {@link CoreCodecFuzzTest#bytes}. */
    public static void bytes(byte[] input) {
        CoreCodecFuzzTest.BYTES.decode(input);
    }

    /** {@link CoreCodecFuzzTest#transpose}. */
    public static void transpose(byte[] input) {
        CoreCodecFuzzTest.TRANSPOSE.decode(input);
    }

    /** {@link CoreCodecFuzzTest#crc32c}. */
    public static void crc32c(byte[] input) {
        CoreCodecFuzzTest.CRC32C.decode(input);
    }

    /** {@link CompressorFuzzTest#gzip}. */
    public static void gzip(byte[] input) {
        CompressorFuzzTest.GZIP.decode(input);
    }

    /** {@link CompressorFuzzTest#zstd}. */
    public static void zstd(byte[] input) {
        CompressorFuzzTest.ZSTD.decode(input);
    }

    /** {@link CompressorFuzzTest#blosc}. */
    public static void blosc(byte[] input) {
        CompressorFuzzTest.BLOSC.decode(input);
    }

    /** {@link ShardingFuzzTest#shard}. */
    public static void shard(byte[] input) {
        ShardingFuzzTest.SHARDS.decode(input);
    }

    /** {@link StringCodecFuzzTest#vlenUtf8}. */
    public static void vlenUtf8(byte[] input) {
        StringCodecFuzzTest.UTF8.decode(input);
    }

    /** {@link StringCodecFuzzTest#vlenBytes}. */
    public static void vlenBytes(byte[] input) {
        StringCodecFuzzTest.BYTES.decode(input);
    }

    /** {@link NumcodecsFuzzTest#compressors}. */
    public static void compressors(byte[] input) {
        NumcodecsFuzzTest.COMPRESSORS.decode(input);
    }

    /** {@link NumcodecsFuzzTest#checksums}. */
    public static void checksums(byte[] input) {
        NumcodecsFuzzTest.CHECKSUMS.decode(input);
    }

    /** {@link NumcodecsFuzzTest#filters}. */
    public static void filters(byte[] input) {
        NumcodecsFuzzTest.FILTERS.decode(input);
    }

    /** {@link NumcodecsFuzzTest#zfpy}. */
    public static void zfpy(byte[] input) {
        NumcodecsFuzzTest.ZFPY.decode(input);
    }

    /** {@link V2CodecFuzzTest#chunk}. */
    public static void chunk(byte[] input) {
        V2CodecFuzzTest.V2.decode(input);
    }

    /** {@link ChecksumFuzzTest#damage}. */
    public static void damage(byte[] input) {
        ChecksumFuzzTest.check(input);
    }
}
