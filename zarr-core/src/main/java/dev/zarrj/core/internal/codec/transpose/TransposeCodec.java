package dev.zarrj.core.internal.codec.transpose;

import dev.zarrj.api.RegionCopy;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

/**
 * The {@code transpose} codec: permutes the dimensions of a chunk, so that the next codec sees
 * its elements in another order (for example Fortran order with {@code [2, 1, 0]}).
 *
 * <p>Spec: {@code codecs-transpose.rst}
 * (<a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/transpose/">transpose codec</a>).
 * Name: {@code transpose}; no aliases. {@code order} is required: a permutation of
 * {@code 0 .. n-1} for a chunk of rank {@code n}. The encoded array {@code B} of a decoded
 * {@code A} has {@code B_shape[i] = A_shape[order[i]]} and {@code B[B_pos] = A[A_pos]} where
 * {@code B_pos[i] = A_pos[order[i]]}; decoding applies the inverse permutation.
 *
 * <pre>{@code
 * {"name": "transpose", "configuration": {"order": [2, 0, 1]}}
 * }</pre>
 *
 * <p>The identity order returns its input without copying. Otherwise the output is filled in C
 * order with incrementally updated input offsets, copying whole runs where trailing dimensions
 * stay in place. Partial decoding: a region of the decoded chunk is the permuted region of the
 * encoded one, so the decoder asks the next codec's partial decoder for just that and transposes
 * it; a chain with {@code transpose} in front of {@code bytes} or sharding still reads partially.
 * Immutable and thread-safe.
 */
public final class TransposeCodec implements ArrayToArrayCodec {
    static final String ORDER = "order";

    private final int[] order;
    private final int[] inverse;
    private final String orderPointer;

    TransposeCodec(int[] order, String orderPointer) {
        this.order = order;
        this.orderPointer = orderPointer;
        this.inverse = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            inverse[order[i]] = i;
        }
    }

    /**
     * A codec with this order.
     *
     * @throws InvalidMetadataException when {@code order} is not a permutation of {@code 0 .. n-1}
     */
    public static TransposeCodec of(int... order) {
        String pointer = "/configuration/" + ORDER;
        int[] o = order.clone();
        checkPermutation(o, pointer);
        return new TransposeCodec(o, pointer);
    }

    /**
     * Fails unless {@code order} holds each of {@code 0 .. n-1} once.
     *
     * @throws InvalidMetadataException naming the offending element
     */
    static void checkPermutation(int[] order, String pointer) {
        boolean[] seen = new boolean[order.length];
        for (int i = 0; i < order.length; i++) {
            int v = order[i];
            if (v < 0 || v >= order.length) {
                throw new InvalidMetadataException(pointer + "/" + i, "transpose: 'order' " + Arrays.toString(order)
                        + " must be a permutation of 0.." + (order.length - 1) + "; " + v + " is out of range");
            }
            if (seen[v]) {
                throw new InvalidMetadataException(pointer + "/" + i, "transpose: 'order' " + Arrays.toString(order)
                        + " must be a permutation of 0.." + (order.length - 1) + "; " + v + " appears twice");
            }
            seen[v] = true;
        }
    }

    /** A copy of the order. */
    public int[] order() {
        return order.clone();
    }

    @Override
    public String name() {
        return TransposeCodecProvider.NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        ArrayNode o = node.putArray(ORDER);
        for (int v : order) {
            o.add(v);
        }
        return node;
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        if (decoded.rank() != order.length) {
            throw new InvalidMetadataException(orderPointer, "transpose: 'order' " + Arrays.toString(order) + " has "
                    + order.length + " entries, but the chunk " + Arrays.toString(decoded.shape()) + " has rank "
                    + decoded.rank() + "; give a permutation of 0.." + (decoded.rank() - 1));
        }
        return decoded.withShape(permute(decoded.shape(), order));
    }

    private static long[] permute(long[] shape, int[] perm) {
        long[] out = new long[shape.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = shape[perm[i]];
        }
        return out;
    }

    private boolean isIdentity() {
        for (int i = 0; i < order.length; i++) {
            if (order[i] != i) {
                return false;
            }
        }
        return true;
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        ChunkSpec encoded = encodedSpec(decoded);
        long[] a = decoded.shape();
        if (!Arrays.equals(array.shape(), a)) {
            throw new IllegalArgumentException("transpose: an array of shape " + Arrays.toString(array.shape())
                    + " does not match " + decoded);
        }
        if (isIdentity()) {
            return array;
        }
        // Output dimension i walks input dimension order[i].
        return transpose(array, encoded.shape(), permute(RegionCopy.strides(a), order));
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        long[] b = encodedSpec(decoded).shape();
        if (!Arrays.equals(encoded.shape(), b)) {
            throw new CorruptDataException("transpose: the encoded array has shape " + Arrays.toString(encoded.shape())
                    + ", expected " + Arrays.toString(b) + " for " + decoded);
        }
        if (isIdentity()) {
            return encoded;
        }
        // Output (decoded) dimension j walks encoded dimension inverse[j].
        return transpose(encoded, decoded.shape(), permute(RegionCopy.strides(b), inverse));
    }

    /** Asks {@code encoded} for the permuted region and transposes only that. */
    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ArrayPartialDecoder encoded, ChunkSpec decoded) {
        encodedSpec(decoded); // the rank check, before anything is read
        long[] chunk = decoded.shape();
        return Optional.of(region -> {
            region.checkWithin(chunk, "the chunk");
            return encoded.decode(region.permute(order)).map(part -> decode(part, decoded.withShape(region.shape())));
        });
    }

    /**
     * A new array of {@code outShape} whose element at C-order position {@code p} is the input
     * element at {@code sum(p[i] * inStride[i])}.
     */
    private static NdArray transpose(NdArray input, long[] outShape, long[] inStride) {
        NdArray output = NdArray.allocate(input.dataType(), outShape);
        if (output.elementCount() == 0) {
            return output;
        }
        if (input.holdsObjects()) {
            transposeElements(input, output, outShape, inStride);
            return output;
        }
        int es = input.dataType().size();
        int rank = outShape.length;
        // Trailing dimensions whose input stride equals their output stride form contiguous runs.
        int outer = rank;
        long run = 1;
        while (outer > 0 && inStride[outer - 1] == run) {
            outer--;
            run *= outShape[outer];
        }
        ByteBuffer src = input.bytes();
        ByteBuffer dst = output.bytes();
        int runBytes = (int) (run * es);
        if (outer == 0) {
            // Every dimension merged: the permutation moves only length-1 dimensions.
            dst.put(0, src, 0, runBytes);
            return output;
        }
        int last = outer - 1;
        int lastLength = (int) outShape[last];
        int lastStride = (int) (inStride[last] * es);
        long[] idx = new long[last];
        long inPos = 0;
        int outPos = 0;
        while (true) {
            int p = (int) (inPos * es);
            outPos = copyLine(src, p, lastStride, lastLength, dst, outPos, runBytes);
            int d = last - 1;
            while (d >= 0) {
                idx[d]++;
                inPos += inStride[d];
                if (idx[d] < outShape[d]) {
                    break;
                }
                inPos -= outShape[d] * inStride[d];
                idx[d] = 0;
                d--;
            }
            if (d < 0) {
                return output;
            }
        }
    }

    /**
     * Copies {@code count} runs of {@code runBytes} from {@code src} (starting at {@code in}, one
     * every {@code stride} bytes) to consecutive positions of {@code dst} from {@code out}.
     *
     * @return the output position after the last run
     */
    /** {@link #transpose} for arrays of objects, whose elements move as references. */
    private static void transposeElements(NdArray input, NdArray output, long[] outShape, long[] inStride) {
        if (input.dataType().kind() == ElementKind.STRING) {
            String[] out = new String[(int) output.elementCount()];
            permute(input.toStringArray(), out, outShape, inStride);
            output.copyFrom(out);
        } else {
            byte[][] out = new byte[(int) output.elementCount()][];
            permute(input.toBytesArray(), out, outShape, inStride);
            output.copyFrom(out);
        }
    }

    private static void permute(Object[] in, Object[] out, long[] outShape, long[] inStride) {
        int rank = outShape.length;
        long[] idx = new long[rank];
        long inPos = 0;
        for (int outPos = 0; outPos < out.length; outPos++) {
            out[outPos] = in[(int) inPos];
            for (int d = rank - 1; d >= 0; d--) {
                idx[d]++;
                inPos += inStride[d];
                if (idx[d] < outShape[d]) {
                    break;
                }
                inPos -= outShape[d] * inStride[d];
                idx[d] = 0;
            }
        }
    }

    private static int copyLine(ByteBuffer src, int in, int stride, int count, ByteBuffer dst, int out, int runBytes) {
        switch (runBytes) {
            case 1 -> {
                for (int k = 0; k < count; k++, in += stride, out += 1) {
                    dst.put(out, src.get(in));
                }
            }
            case 2 -> {
                for (int k = 0; k < count; k++, in += stride, out += 2) {
                    dst.putShort(out, src.getShort(in));
                }
            }
            case 4 -> {
                for (int k = 0; k < count; k++, in += stride, out += 4) {
                    dst.putInt(out, src.getInt(in));
                }
            }
            case 8 -> {
                for (int k = 0; k < count; k++, in += stride, out += 8) {
                    dst.putLong(out, src.getLong(in));
                }
            }
            default -> {
                for (int k = 0; k < count; k++, in += stride, out += runBytes) {
                    dst.put(out, src, in, runBytes);
                }
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TransposeCodec c && Arrays.equals(order, c.order);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(order);
    }

    @Override
    public String toString() {
        return "transpose" + Arrays.toString(order);
    }
}
