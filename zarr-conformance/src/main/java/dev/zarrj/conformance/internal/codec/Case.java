package dev.zarrj.conformance.internal.codec;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
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
    /**
     * A fresh copy of the sample data. For an array→array or array→bytes codec that declares
     * itself lossy, the sample is first passed through it once, so that it is a value the codec
     * reproduces exactly (the rules then hold lossy codecs to their fixed points; {@code optional}
     * keeps only canonical elements, not the random bytes of a missing one).
     */
    public NdArray array() {
        NdArray sample = Samples.array(spec.dataType(), spec.shape(), seed);
        if (!codec.lossless() && (codec instanceof dev.zarrj.api.codec.ArrayToArrayCodec
                || codec instanceof dev.zarrj.api.codec.ArrayToBytesCodec)) {
            try {
                NdArray rounded = codec instanceof dev.zarrj.api.codec.ArrayToArrayCodec a
                        ? a.decode(a.encode(sample, spec), spec)
                        : ((dev.zarrj.api.codec.ArrayToBytesCodec) codec).decode(
                                ((dev.zarrj.api.codec.ArrayToBytesCodec) codec).encode(sample, spec), spec);
                NdArray copy = NdArray.allocate(spec.dataType(), spec.shape());
                RegionCopy.copy(rounded, Region.of(new long[spec.rank()], spec.shape()), copy, new long[spec.rank()]);
                return copy;
            } catch (RuntimeException e) {
                return sample; // the round-trip rule reports it
            }
        }
        return sample;
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
