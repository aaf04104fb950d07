package dev.zarrj.core.selection;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * A boolean mask over one dimension: the indices where it is true, in increasing order. Its
 * length must be the dimension's.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Mask implements DimSelection {
    private final boolean[] mask;

    private Mask(boolean[] mask) {
        this.mask = mask;
    }

    /** This mask, copied. */
    public static Mask of(boolean... mask) {
        return new Mask(mask.clone());
    }

    /** The mask (a copy). */
    public boolean[] values() {
        return mask.clone();
    }

    @Override
    public long[] indices(long length) {
        if (mask.length != length) {
            throw new IllegalArgumentException("a mask of length " + mask.length + " for a dimension of length " + length);
        }
        int n = 0;
        for (boolean b : mask) {
            n += b ? 1 : 0;
        }
        long[] out = new long[n];
        for (int i = 0, k = 0; i < mask.length; i++) {
            if (mask[i]) {
                out[k++] = i;
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Mask m && Arrays.equals(mask, m.mask);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(mask);
    }

    /** The mask, at most its first values and then its length: for messages. */
    @Override
    public String toString() {
        if (mask.length <= IndexList.SHOWN) {
            return "mask" + Arrays.toString(mask);
        }
        StringBuilder b = new StringBuilder("mask[");
        for (int i = 0; i < IndexList.SHOWN; i++) {
            b.append(mask[i]).append(", ");
        }
        return b.append("... (").append(mask.length).append(" in all)]").toString();
    }
}
