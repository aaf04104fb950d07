package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.RegionCopy;

/**
 * Whether a region of a C-ordered array is one contiguous run of elements, so that it can be
 * used in place (as a chunk to encode, or as the target of a whole decoded chunk) without a copy.
 */
final class ContiguousRegion {
    private ContiguousRegion() {}

    /**
     * A view of the region {@code [offset, offset + shape)} of {@code src} when its elements are
     * one contiguous run, else null.
     */
    static NdArray view(NdArray src, long[] offset, long[] shape) {
        int es = src.dataType().size();
        long at = start(src.shape(), offset, shape);
        if (at < 0) {
            return null;
        }
        if (src.holdsObjects()) {
            return src.reshape(src.elementCount()).slice(at, at + elementCount(shape)).reshape(shape);
        }
        return NdArray.wrap(src.dataType(), src.bytes().slice((int) (at * es), (int) (elementCount(shape) * es)),
                shape);
    }

    /**
     * The element index where the region {@code [offset, offset + region)} of a C-ordered array
     * of shape {@code shape} starts when its elements are one contiguous run (some leading
     * dimensions of extent 1, then one partial dimension, then whole ones), else -1.
     */
    static long start(long[] shape, long[] offset, long[] region) {
        int rank = region.length;
        int d = 0;
        while (d < rank && region[d] == 1) {
            d++;
        }
        for (int k = d + 1; k < rank; k++) {
            if (region[k] != shape[k]) {
                return -1;
            }
        }
        long[] strides = RegionCopy.strides(shape);
        long at = 0;
        for (int k = 0; k < rank; k++) {
            at += offset[k] * strides[k];
        }
        return at;
    }

    private static long elementCount(long[] shape) {
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        return n;
    }
}
