package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.internal.codec.Samples;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The sample shapes and data of the codec contracts, for subclasses that choose their own shapes
 * (a sharding codec needs shard shapes its inner chunk shape divides).
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CodecSamples {
    /** The least size of the large sample, in bytes (4 MiB). */
    public static final long LARGE_BYTES = Samples.LARGE_BYTES;

    private CodecSamples() {}

    /**
     * The contracts' default shapes: {@code []}, {@code [1]}, {@code [17]}, {@code [3, 5]},
     * {@code [1, 31]}, {@code [2, 3, 4]}, {@code [5, 1, 7]}, {@code [16, 33, 9]}, and
     * {@link #largeShape largeShape(dataType, 1024, 1)}.
     */
    public static List<long[]> defaultShapes(DataType dataType) {
        return Samples.defaultShapes(dataType);
    }

    /**
     * A 2-d shape of {@code rows} rows, with a column count that is a multiple of
     * {@code columnMultiple}, holding at least {@link #LARGE_BYTES} of {@code dataType}.
     */
    public static long[] largeShape(DataType dataType, long rows, long columnMultiple) {
        return Samples.largeShape(dataType, rows, columnMultiple);
    }

    /** The sample array the contracts use for this data type and shape (a fresh copy). */
    public static NdArray array(DataType dataType, long... shape) {
        return Samples.array(dataType, shape, Samples.seed(dataType, shape));
    }
}
