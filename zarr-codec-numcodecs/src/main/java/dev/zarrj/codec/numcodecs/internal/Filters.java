package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** What the array→array filters share: element buffers in native order and shape checks. */
final class Filters {
    private Filters() {}

    /** The elements of an array, native order, position 0 (a view; not to be written). */
    static ByteBuffer elements(NdArray a) {
        return a.bytes().order(ByteOrder.nativeOrder());
    }

    /** A new array of {@code type} and {@code shape}, and its element buffer to fill. */
    static NdArray allocate(NumpyType type, long[] shape) {
        return NdArray.allocate(type.dataType(), shape);
    }

    /** A writable native-order view of a freshly allocated array's elements. */
    static ByteBuffer writable(NdArray a) {
        return a.bytes().order(ByteOrder.nativeOrder());
    }

    /**
     * Checks an encoded array against the encoded representation a filter computes.
     *
     * @throws CorruptDataException naming both
     */
    static void checkEncoded(String codec, NdArray encoded, ChunkSpec expected) {
        if (!Arrays.equals(encoded.shape(), expected.shape()) || encoded.dataType().size() != expected.dataType().size()
                || !encoded.dataType().name().equals(expected.dataType().name())) {
            throw new CorruptDataException(codec + ": the encoded array is " + encoded.dataType().name() + " "
                    + Arrays.toString(encoded.shape()) + ", expected " + expected.dataType().name() + " "
                    + Arrays.toString(expected.shape()));
        }
    }

    /** Checks an input array against the decoded representation; a caller's mistake, not corrupt data. */
    static void checkDecoded(String codec, NdArray array, ChunkSpec decoded) {
        if (!Arrays.equals(array.shape(), decoded.shape()) || array.dataType().size() != decoded.dataType().size()) {
            throw new IllegalArgumentException(codec + ": an array " + array.dataType().name() + " "
                    + Arrays.toString(array.shape()) + " does not match " + decoded);
        }
    }

    /** Element count of an array that fits a buffer. */
    static int count(NdArray a) {
        return (int) a.elementCount();
    }
}
