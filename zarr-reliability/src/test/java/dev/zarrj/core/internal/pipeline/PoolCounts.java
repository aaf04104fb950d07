package dev.zarrj.core.internal.pipeline;

/**
 * The buffer pools' counts, for the reliability tests (which run on the class path, so this class
 * shares zarr-core's package): what must return to where it was once reads and writes have ended.
 */
public final class PoolCounts {
    private PoolCounts() {}

    /** Buffers lent by leases ({@link BufferLease}) and not given back. */
    public static long leasedBuffers() {
        return BufferLease.outstanding();
    }

    /** Pooled direct memory ({@link ChunkBuffers}) taken and not given back, in bytes. */
    public static long pooledBytesInUse() {
        return ChunkBuffers.bytesInUse();
    }

    /** Both counts, for a message. */
    public static String describe() {
        return leasedBuffers() + " leased buffers, " + pooledBytesInUse() + " pooled bytes in use";
    }
}
