package dev.zarrj.core.selection;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What a {@link Selection} takes from one dimension: one {@link Index}, a {@link Slice} with a
 * step, an {@link IndexList} or a boolean {@link Mask}.
 *
 * <p>Immutable. A dimension selection is resolved against the dimension's length only when it is
 * used, so one value serves arrays of any size.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface DimSelection permits Index, Slice, IndexList, Mask {
    /**
     * The indices this selects in a dimension of this length, in the order the result holds them.
     *
     * @throws IllegalArgumentException when an index lies outside {@code [-length, length)} or a
     *                                  mask's length is not {@code length}
     */
    long[] indices(long length);

    /** Whether the result keeps this dimension: false only for an {@link Index}, as in NumPy. */
    default boolean keepsDimension() {
        return true;
    }
}
