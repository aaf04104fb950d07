package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import java.util.Arrays;

/**
 * {@code reshape} (zarr-extensions): gives the chunk another shape with the same elements in the
 * same C order ({@code ravel(B) == ravel(A)}), as a view, without copying. Each entry of
 * {@code shape} is a size, a list of input dimensions whose sizes multiply into it, or
 * {@code -1} (at most once) for what the element count leaves. The encoded shape is computed from
 * the decoded one when an array is opened, with the specification's checks: input dimensions in
 * strictly increasing order across the whole list, each list lining up with the dimensions before
 * and after it, and the element count kept; a shape that fails one is invalid metadata naming it.
 *
 * <p>Lossless; immutable and thread-safe.
 *
 * @param shape the {@code shape} entries: a {@code long[]} of input dimensions, or a {@code Long}
 *              size (-1 for the inferred one)
 */
record ReshapeCodec(Object[] shape, String pointer) implements ArrayToArrayCodec {
    static final String NAME = "reshape";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ArrayNode s = JsonNodeFactory.instance.arrayNode();
        for (Object o : shape) {
            if (o instanceof long[] dims) {
                ArrayNode d = s.addArray();
                for (long x : dims) {
                    d.add(x);
                }
            } else {
                s.add((Long) o);
            }
        }
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.set("shape", s);
        return c;
    }

    /** The output shape for an input shape, with the specification's checks. */
    long[] outputShape(long[] in) {
        String at = pointer + "/configuration/shape";
        long[] out = new long[shape.length];
        int inferred = -1;
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] instanceof long[] dims) {
                long p = 1;
                for (long d : dims) {
                    if (d >= in.length) {
                        throw new InvalidMetadataException(at + "/" + i, NAME + ": input dimension " + d
                                + " does not exist in a chunk of shape " + Arrays.toString(in));
                    }
                    p = Math.multiplyExact(p, in[(int) d]);
                }
                out[i] = p;
            } else if ((Long) shape[i] == -1) {
                inferred = i;
            } else {
                out[i] = (Long) shape[i];
            }
        }
        long total = product(in, 0, in.length);
        if (inferred >= 0) {
            long known = 1;
            for (int i = 0; i < out.length; i++) {
                known = i == inferred ? known : Math.multiplyExact(known, out[i]);
            }
            if (known == 0 ? total != 0 : total % known != 0) {
                throw new InvalidMetadataException(at, NAME + ": no size for -1 makes " + Arrays.toString(shape(out,
                        inferred)) + " hold the " + total + " elements of a chunk of shape " + Arrays.toString(in));
            }
            out[inferred] = known == 0 ? 0 : total / known;
        }
        if (product(out, 0, out.length) != total) {
            throw new InvalidMetadataException(at, NAME + ": shape " + Arrays.toString(out) + " does not hold the "
                    + total + " elements of a chunk of shape " + Arrays.toString(in));
        }
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] instanceof long[] dims && dims.length > 0) {
                int first = (int) dims[0];
                int last = (int) dims[dims.length - 1];
                if (product(out, 0, i) != product(in, 0, first)
                        || product(out, i + 1, out.length) != product(in, last + 1, in.length)) {
                    throw new InvalidMetadataException(at + "/" + i, NAME + ": output dimension " + i + " of "
                            + Arrays.toString(out) + " does not line up with input dimensions "
                            + Arrays.toString(dims) + " of " + Arrays.toString(in));
                }
            }
        }
        return out;
    }

    private static String[] shape(long[] out, int inferred) {
        String[] s = new String[out.length];
        for (int i = 0; i < out.length; i++) {
            s[i] = i == inferred ? "-1" : Long.toString(out[i]);
        }
        return s;
    }

    private static long product(long[] s, int from, int to) {
        long p = 1;
        for (int i = from; i < to; i++) {
            p = Math.multiplyExact(p, s[i]);
        }
        return p;
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded.withShape(outputShape(decoded.shape()));
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        long[] out = outputShape(decoded.shape());
        Shapes.checkInput(NAME, array, decoded);
        return array.reshape(out);
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        long[] expected = outputShape(decoded.shape());
        Shapes.checkEncoded(NAME, encoded, decoded.dataType(), expected);
        return encoded.reshape(decoded.shape());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReshapeCodec r && configuration().equals(r.configuration());
    }

    @Override
    public int hashCode() {
        return configuration().hashCode();
    }

    @Override
    public String toString() {
        return NAME + configuration();
    }
}
