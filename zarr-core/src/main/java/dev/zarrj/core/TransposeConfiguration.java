package dev.zarrj.core;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.CodecConfiguration;
import dev.zarrj.core.internal.codec.transpose.TransposeCodec;
import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * The configuration of the {@code transpose} codec: the order in which a chunk's dimensions are
 * stored. {@code order[i]} is the dimension of the array that becomes dimension {@code i} of the
 * stored chunk, so {@code [1, 0]} stores a matrix column by column (Fortran order).
 *
 * <pre>{@code
 * zarr.array(DataTypes.FLOAT32, 1000, 2000).chunks(100, 200)
 *         .codec(TransposeConfiguration.of(1, 0))   // goes before the bytes codec
 *         .create(store, "/columns");
 * }</pre>
 *
 * <p>Immutable: {@link #order()} returns a copy.
 *
 * @param order a permutation of {@code 0..n-1}, one entry per dimension of the array
 * @see <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/transpose/">transpose codec spec</a>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record TransposeConfiguration(int[] order) implements CodecConfiguration {
    /** The codec's registered name. */
    public static final String NAME = "transpose";

    /**
     * @throws InvalidMetadataException when {@code order} is not a permutation of
     *                                  {@code 0..n-1}, naming the entry that is wrong
     */
    public TransposeConfiguration {
        order = order.clone();
        TransposeCodec.of(order); // checks the permutation
    }

    /**
     * The configuration with this order.
     *
     * @throws InvalidMetadataException when {@code order} is not a permutation of {@code 0..n-1}
     */
    public static TransposeConfiguration of(int... order) {
        return new TransposeConfiguration(order);
    }

    /** A copy of the order. */
    @Override
    public int[] order() {
        return order.clone();
    }

    /** The codec's registered name, {@value #NAME}. */
    @Override
    public String name() {
        return NAME;
    }

    /** {@code {"order": [...]}}; a fresh node owned by the caller. */
    @Override
    public ObjectNode configurationJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        ArrayNode o = node.putArray("order");
        for (int d : order) {
            o.add(d);
        }
        return node;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TransposeConfiguration t && Arrays.equals(order, t.order);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(order);
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
