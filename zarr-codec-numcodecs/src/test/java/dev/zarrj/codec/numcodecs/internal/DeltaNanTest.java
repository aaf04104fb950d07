package dev.zarrj.codec.numcodecs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * numcodecs.delta over NaNs gives the bits numpy gives on x86, every time: the NaN operand,
 * the first when both are, quieted. Java leaves the NaN of an operation unspecified, and code the
 * JIT compiled once chose the other operand's NaN, so that encoding one chunk twice differed (the
 * kit's rule AA05 caught it in CI). Enough encodings that the loop is compiled.
 */
class DeltaNanTest {
    private static final int N = 4096;
    private static final int QUIET = 0x0040_0000;

    private static int expected(int[] bits, int i) {
        if (i == 0) {
            return Float.isNaN(Float.intBitsToFloat(bits[0])) ? bits[0] | QUIET : bits[0];
        }
        float a = Float.intBitsToFloat(bits[i]);
        float b = Float.intBitsToFloat(bits[i - 1]);
        if (Float.isNaN(a)) {
            return bits[i] | QUIET;
        }
        if (Float.isNaN(b)) {
            return bits[i - 1] | QUIET;
        }
        return Float.floatToRawIntBits(a - b);
    }

    @Test
    void nansOfEitherOperandComeOutTheSameEveryTime() {
        int[] bits = new int[N];
        for (int i = 0; i < N; i++) {
            // Runs of NaNs with distinct payloads (quiet and signalling, both signs) between numbers.
            bits[i] = switch (i % 5) {
                case 0, 1 -> 0x7f80_0000 | (i * 2654435 & 0x003f_ffff) | 1; // signalling, payload from i
                case 2 -> 0xffc0_0000 | (i & 0xffff);                         // quiet, negative
                default -> Float.floatToRawIntBits(i * 0.25f);
            };
        }
        ByteBuffer in = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
        for (int b : bits) {
            in.putInt(b);
        }
        ChunkSpec spec = new ChunkSpec(DataTypes.FLOAT32, new long[] {N}, DataTypes.FLOAT32.defaultFillValue());
        NdArray array = NdArray.wrap(DataTypes.FLOAT32, in.flip(), new long[] {N});
        DeltaCodec codec = (DeltaCodec) new DeltaCodec(null, null, "/codecs/0").resolveDefaults(spec);
        for (int round = 0; round < 300; round++) {
            ByteBuffer out = codec.encode(array, spec).bytes().order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < N; i++) {
                int want = expected(bits, i);
                int got = out.getInt(4 * i);
                if (got != want) {
                    assertEquals(Integer.toHexString(want), Integer.toHexString(got), "round " + round + ", element " + i);
                }
            }
        }
    }
}
