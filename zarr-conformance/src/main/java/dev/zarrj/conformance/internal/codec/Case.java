package dev.zarrj.conformance.internal.codec;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.Codec;

/**
 * One codec instance under test with one decoded representation and its sample data.
 *
 * @param label what a failure message calls this case: data type, shape and the codec's JSON
 * @param codec the instance under test
 * @param spec  the decoded representation
 * @param seed  the seed of the sample data
 */
public record Case(String label, Codec codec, ChunkSpec spec, long seed) {
    /** A fresh copy of the sample data. */
    public NdArray array() {
        return Samples.array(spec.dataType(), spec.shape(), seed);
    }

    /** The decoded size in bytes. */
    public long decodedBytes() {
        return spec.byteSize();
    }

    /** Whether the costly rules should check fewer variants of this case. */
    public boolean heavy() {
        return spec.byteSize() > Samples.HEAVY_BYTES;
    }

    @Override
    public String toString() {
        return label;
    }
}
