package dev.zarrj.conformance.codec;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.Region;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A plain, correct re-implementation of {@code transpose} (one element at a time), and copies of
 * it with one defect each.
 */
final class TransposeCodecFixture implements ArrayToArrayCodec {
    /** What is wrong with a copy, and the rule it breaks. */
    enum Defect {
        /** Nothing: passes every rule (the control). */
        NONE,
        /** encodedSpec returns the decoded shape, not the permuted one: AA02. */
        SPEC_LIES,
        /** Decode indexes into an encoded array of any shape: AA06. */
        NO_SHAPE_CHECK,
        /** Permutes with the inverse of {@code order} (consistently, so it round-trips): AA08. */
        INVERSE_ORDER,
        /** The partial decoder asks the encoded decoder for the region unpermuted: AA09. */
        PARTIAL_DECODE_UNPERMUTED,
        /** The partial decoder throws CorruptDataException when the encoded value is absent: AA10. */
        PARTIAL_DECODE_THROWS_ON_ABSENT
    }

    private final int[] order;
    private final Defect defect;

    TransposeCodecFixture(int[] order, Defect defect) {
        this.order = order;
        this.defect = defect;
    }

    static CodecProvider provider(Defect defect) {
        return new CodecProvider() {
            @Override
            public String name() {
                return "transpose";
            }

            @Override
            public List<ObjectNode> exampleConfigurations() {
                return List.of(Configs.of("{\"order\": [1, 0]}").get(0), Configs.of("{\"order\": [2, 0, 1]}").get(0));
            }

            @Override
            public Codec create(ExtensionConfig config, ProviderContext context) {
                config.rejectUnknownFields("order");
                return new TransposeCodecFixture(config.intArrayField("order", 0, 31), defect);
            }
        };
    }

    @Override
    public String name() {
        return "transpose";
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        ArrayNode a = node.putArray("order");
        for (int o : order) {
            a.add(o);
        }
        return node;
    }

    /** The permutation encode applies: order, or its inverse for the broken copy. */
    private int[] forward() {
        if (defect != Defect.INVERSE_ORDER) {
            return order;
        }
        int[] inverse = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            inverse[order[i]] = i;
        }
        return inverse;
    }

    private long[] permuted(long[] shape) {
        int[] p = forward();
        long[] out = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            out[i] = shape[p[i]];
        }
        return out;
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        if (decoded.rank() != order.length) {
            throw new InvalidMetadataException("/configuration/order", "transpose: rank " + decoded.rank()
                    + " does not match order " + Arrays.toString(order));
        }
        return defect == Defect.SPEC_LIES ? decoded : decoded.withShape(permuted(decoded.shape()));
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        encodedSpec(decoded);
        long[] a = decoded.shape();
        long[] b = permuted(a);
        NdArray out = NdArray.allocate(array.dataType(), b);
        int[] p = forward();
        long[] idx = new long[b.length];
        long[] src = new long[a.length];
        for (long flat = 0; flat < out.elementCount(); flat++) {
            unravel(flat, b, idx);
            for (int i = 0; i < b.length; i++) {
                src[p[i]] = idx[i];
            }
            copyElement(array, array.flatIndex(src), out, flat);
        }
        return out;
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        long[] a = decoded.shape();
        long[] b = permuted(a);
        if (defect != Defect.NO_SHAPE_CHECK && !Arrays.equals(encoded.shape(), b)) {
            throw new CorruptDataException("transpose: encoded shape " + Arrays.toString(encoded.shape())
                    + ", expected " + Arrays.toString(b));
        }
        NdArray out = NdArray.allocate(decoded.dataType(), a);
        int[] p = forward();
        long[] idx = new long[a.length];
        long[] src = new long[b.length];
        for (long flat = 0; flat < out.elementCount(); flat++) {
            unravel(flat, a, idx);
            for (int i = 0; i < b.length; i++) {
                src[i] = idx[p[i]];
            }
            copyElement(encoded, encoded.flatIndex(src), out, flat);
        }
        return out;
    }

    /** Asks {@code encoded} for the permuted region and transposes only that block. */
    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ArrayPartialDecoder encoded, ChunkSpec decoded) {
        encodedSpec(decoded);
        return Optional.of(region -> {
            Region asked = defect == Defect.PARTIAL_DECODE_UNPERMUTED ? region : region.permute(forward());
            Optional<NdArray> block = encoded.decode(asked);
            if (defect == Defect.PARTIAL_DECODE_THROWS_ON_ABSENT && block.isEmpty()) {
                throw new CorruptDataException("transpose: the encoded value is missing");
            }
            return block.map(b -> decode(b, decoded.withShape(region.shape())));
        });
    }

    private static void unravel(long flat, long[] shape, long[] idx) {
        for (int d = shape.length - 1; d >= 0; d--) {
            idx[d] = flat % shape[d];
            flat /= shape[d];
        }
    }

    private static void copyElement(NdArray from, long i, NdArray to, long j) {
        int es = from.dataType().size();
        ByteBuffer dst = to.bytes();
        dst.put((int) (j * es), from.bytes(), (int) (i * es), es);
    }
}
