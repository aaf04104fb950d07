package dev.zarrj.core.internal.codec.transpose;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.core.internal.metadata.LegacyForm;
import java.util.Optional;

/**
 * {@code transpose} with {@code "order": "C"} or {@code "F"}, as older zarr-python wrote it before
 * the spec kept only explicit permutations: {@code "C"} is the identity, {@code "F"} the reversed
 * order, of whatever rank the chunk has. Read only: the array's metadata is rewritten with the
 * explicit permutation ({@link #canonical}). Immutable and thread-safe.
 *
 * @param reversed whether the order is {@code "F"}
 */
record LegacyTransposeCodec(boolean reversed, String pointer) implements ArrayToArrayCodec, LegacyForm {
    /** The explicit codec for a chunk of this rank. */
    private TransposeCodec of(int rank) {
        int[] order = new int[rank];
        for (int i = 0; i < rank; i++) {
            order[i] = reversed ? rank - 1 - i : i;
        }
        return new TransposeCodec(order, pointer);
    }

    @Override
    public Codec canonical(ChunkSpec decoded) {
        return of(decoded.rank());
    }

    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        return canonical(decoded);
    }

    @Override
    public String name() {
        return TransposeCodecProvider.NAME;
    }

    /** The legacy form as read (written back only through {@link #canonical}). */
    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put(TransposeCodec.ORDER, reversed ? "F" : "C");
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return of(decoded.rank()).encodedSpec(decoded);
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        return of(decoded.rank()).encode(array, decoded);
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        return of(decoded.rank()).decode(encoded, decoded);
    }

    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ArrayPartialDecoder encoded, ChunkSpec decoded) {
        return of(decoded.rank()).partialDecoder(encoded, decoded);
    }
}
