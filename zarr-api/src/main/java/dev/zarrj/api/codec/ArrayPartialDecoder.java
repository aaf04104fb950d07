package dev.zarrj.api.codec;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import java.nio.ByteBuffer;
import java.util.function.BiFunction;

/**
 * Decodes regions of one encoded chunk without necessarily decoding all of it: the result of the
 * spec's {@code partial_decode} for array outputs. Thread-safe.
 */
public interface ArrayPartialDecoder {
    /**
     * Decodes the region {@code [offset, offset + shape)} of the decoded chunk.
     *
     * @return a new array of that shape, owned by the caller
     */
    NdArray decode(long[] offset, long[] shape);

    /**
     * Decodes the region {@code [offset, offset + shape)} of the decoded chunk into
     * {@code destination} at {@code destinationOffset}, so that a read needs no intermediate
     * array. The default decodes the region and copies it.
     */
    default void decodeInto(long[] offset, long[] shape, NdArray destination, long[] destinationOffset) {
        NdArray.copy(decode(offset, shape), new long[shape.length], destination, destinationOffset, shape);
    }

    /**
     * The fallback: reads the whole value on first use, decodes it in full, and serves regions
     * from the decoded array.
     */
    static ArrayPartialDecoder fullDecode(ByteSource input, ChunkSpec spec,
                                          BiFunction<ByteBuffer, ChunkSpec, NdArray> decoder) {
        return new ArrayPartialDecoder() {
            private volatile NdArray whole;

            @Override
            public NdArray decode(long[] offset, long[] shape) {
                return whole().region(offset, shape);
            }

            @Override
            public void decodeInto(long[] offset, long[] shape, NdArray destination, long[] destinationOffset) {
                NdArray.copy(whole(), offset, destination, destinationOffset, shape);
            }

            private NdArray whole() {
                NdArray w = whole;
                if (w == null) {
                    synchronized (this) {
                        w = whole;
                        if (w == null) {
                            w = decoder.apply(input.read(ByteRange.all()), spec);
                            whole = w;
                        }
                    }
                }
                return w;
            }
        };
    }
}
