package dev.zarrj.bench;

/**
 * The sizes and repetitions of one run: {@code full} (the figures docs/benchmarks.md reports),
 * {@code quick} (the same workloads, smaller, in well under a minute on two cores) and
 * {@code tiny} (for the command's own test: seconds).
 *
 * @param float32Shape     the float32 arrays' shape (chunks stay [64,128,128], shards [128,256,256])
 * @param runs             measured runs of each whole-array operation (the median is reported)
 * @param warmups          unmeasured runs before them (dropped only when measured runs follow)
 * @param runSeconds       no further whole-array run once this long has passed (at least one)
 * @param latencySeconds   how long to repeat a latency operation (after its warm-up)
 * @param latencyMinReps   at least this many repetitions of a latency operation
 * @param latencyMaxReps   at most this many
 * @param uint16Shape      the uint16 arrays' shape
 * @param uint16Chunks     their chunk (and shard) shape
 * @param uint16Inner      the sharded array's inner chunk shape
 * @param uint16Slab       the region written or read by one call (whole chunks)
 * @param streamShape      the streamed array's shape
 * @param streamChunks     its chunk shape
 * @param streamSlab       the region written or read by one call when streaming
 */
record Scale(String name, long[] float32Shape, int runs, int warmups, double runSeconds, double latencySeconds, int latencyMinReps,
             int latencyMaxReps, long[] uint16Shape, long[] uint16Chunks, long[] uint16Inner, long[] uint16Slab,
             long[] streamShape, long[] streamChunks, long[] streamSlab) {

    static final Scale FULL = new Scale("full", new long[] {256, 512, 512}, 5, 1, 30, 1.0, 10, 200,
            new long[] {1024, 1024, 1024}, new long[] {256, 256, 256}, new long[] {64, 64, 64}, new long[] {256, 256, 512},
            new long[] {2048, 1024, 1024}, new long[] {32, 256, 256}, new long[] {32, 512, 1024});

    static final Scale QUICK = new Scale("quick", new long[] {128, 256, 256}, 1, 1, 3, 0.15, 5, 50,
            new long[] {256, 256, 512}, new long[] {256, 256, 256}, new long[] {64, 64, 64}, new long[] {256, 256, 512},
            new long[] {64, 1024, 1024}, new long[] {32, 256, 256}, new long[] {32, 512, 1024});

    static final Scale TINY = new Scale("tiny", new long[] {32, 128, 256}, 1, 0, 0, 0.0, 2, 3,
            new long[] {128, 128, 128}, new long[] {64, 64, 64}, new long[] {32, 32, 32}, new long[] {64, 64, 128},
            new long[] {64, 256, 256}, new long[] {32, 128, 128}, new long[] {32, 256, 256});

    static Scale named(String name) {
        return switch (name) {
            case "full" -> FULL;
            case "quick" -> QUICK;
            case "tiny" -> TINY;
            default -> throw new IllegalArgumentException(name);
        };
    }
}
