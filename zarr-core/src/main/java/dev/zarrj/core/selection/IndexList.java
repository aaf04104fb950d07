package dev.zarrj.core.selection;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * A list of indices of a dimension, in any order and with repeats (NumPy's {@code a[[7, 2, 2]]}
 * on one axis); negative indices count from the end. The result holds the elements in the list's
 * order.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class IndexList implements DimSelection {
    private final long[] indices;

    private IndexList(long[] indices) {
        this.indices = indices;
    }

    /** These indices, copied. */
    public static IndexList of(long... indices) {
        return new IndexList(indices.clone());
    }

    /** These indices, copied. */
    public static IndexList of(int... indices) {
        return new IndexList(Arrays.stream(indices).asLongStream().toArray());
    }

    /** The indices as given (a copy). */
    public long[] values() {
        return indices.clone();
    }

    @Override
    public long[] indices(long length) {
        long[] out = new long[indices.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = normalize(indices[i], length);
        }
        return out;
    }

    /** {@code index}, or {@code length + index} when negative, checked to lie in the dimension. */
    static long normalize(long index, long length) {
        long i = index < 0 ? index + length : index;
        if (i < 0 || i >= length) {
            throw new IllegalArgumentException("index " + index + " outside a dimension of length " + length);
        }
        return i;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexList l && Arrays.equals(indices, l.indices);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(indices);
    }

    /** The indices, at most the first {@link #SHOWN} and then how many there are: for messages. */
    @Override
    public String toString() {
        return abbreviated(indices);
    }

    /** How many values {@link #toString} shows of a long list. */
    static final int SHOWN = 16;

    /** {@code values} as {@link Arrays#toString(long[])} shows them, only the first {@link #SHOWN} of a longer array. */
    static String abbreviated(long[] values) {
        if (values.length <= SHOWN) {
            return Arrays.toString(values);
        }
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < SHOWN; i++) {
            b.append(values[i]).append(", ");
        }
        return b.append("... (").append(values.length).append(" in all)]").toString();
    }
}
