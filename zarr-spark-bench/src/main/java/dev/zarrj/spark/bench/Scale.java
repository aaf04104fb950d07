package dev.zarrj.spark.bench;

import java.util.Arrays;

/**
 * The size of one run: the float32 array's shape and chunks, and how many warm-up and measured
 * rounds. {@link #FULL} is issue 17's workload; {@link #QUICK} is a smoke test of the same code.
 */
record Scale(String name, long[] shape, long[] chunks, int warmups, int rounds) {
    /** Issue 17: float32 {@code [256, 512, 512]} (268 MB), chunks {@code [64, 128, 128]} (4 MiB, 64 chunks). */
    static final Scale FULL = new Scale("full", new long[] {256, 512, 512}, new long[] {64, 128, 128}, 2, 5);
    /** 2 MB in 8 chunks, one round: checks that every part runs and agrees, in seconds. */
    static final Scale QUICK = new Scale("quick", new long[] {32, 128, 128}, new long[] {16, 64, 64}, 0, 1);

    Scale withRounds(int newWarmups, int newRounds) {
        return new Scale(name, shape, chunks, newWarmups, newRounds);
    }

    long elements() {
        return shape[0] * shape[1] * shape[2];
    }

    /** The float data's bytes, what MB/s is counted on. */
    long bytes() {
        return elements() * Float.BYTES;
    }

    long sliceElements() {
        return shape[1] * shape[2];
    }

    @Override
    public String toString() {
        return name + " " + Arrays.toString(shape) + " chunks " + Arrays.toString(chunks);
    }
}
