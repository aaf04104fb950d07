package dev.zarrj.core.selection;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * One index of a dimension, which the result drops (NumPy's {@code a[3]}); a negative index
 * counts from the end. Keep the dimension with {@code Slice.of(i, i + 1)}.
 *
 * @param index the index, {@code -length <= index < length}
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Index(long index) implements DimSelection {
    /** The index {@code index}. */
    public static Index of(long index) {
        return new Index(index);
    }

    @Override
    public long[] indices(long length) {
        return new long[] {IndexList.normalize(index, length)};
    }

    @Override
    public boolean keepsDimension() {
        return false;
    }

    @Override
    public String toString() {
        return Long.toString(index);
    }
}
