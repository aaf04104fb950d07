package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A codec that turns an array into another array (for example {@code transpose}).
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public non-sealed interface ArrayToArrayCodec extends Codec {
    /**
     * The spec's {@code compute_encoded_representation_type}: the encoded array's type, shape and
     * fill value, from the decoded one alone.
     *
     * @throws InvalidMetadataException when this codec cannot encode that representation
     */
    ChunkSpec encodedSpec(ChunkSpec decoded);

    /** Encodes a decoded array of {@code decoded}'s representation. */
    NdArray encode(NdArray array, ChunkSpec decoded);

    /** Decodes an encoded array back to {@code decoded}'s representation. */
    NdArray decode(NdArray encoded, ChunkSpec decoded);

    /**
     * A decoder of regions of the decoded array that asks {@code encoded} (a partial decoder of
     * the encoded array, of {@link #encodedSpec}'s representation) only for the part each region
     * needs, so that a chain with this codec still reads partially: {@code transpose} asks for the
     * permuted region and transposes only that. Creating it reads nothing; absence passes through.
     * Empty (the default) when this codec cannot; the pipeline then decodes whole chunks.
     */
    default Optional<ArrayPartialDecoder> partialDecoder(ArrayPartialDecoder encoded, ChunkSpec decoded) {
        return Optional.empty();
    }
}
