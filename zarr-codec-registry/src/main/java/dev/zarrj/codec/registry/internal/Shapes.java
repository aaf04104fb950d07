package dev.zarrj.codec.registry.internal;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import java.util.Arrays;

/** The checks every codec of the module makes of the arrays it is given. */
final class Shapes {
    private Shapes() {}

    /** An array to encode must be of the decoded representation: a caller's mistake otherwise. */
    static void checkInput(String codec, NdArray array, ChunkSpec decoded) {
        if (!Arrays.equals(array.shape(), decoded.shape()) || array.dataType().size() != decoded.dataType().size()) {
            throw new IllegalArgumentException(codec + ": an array " + array.dataType().name() + " "
                    + Arrays.toString(array.shape()) + " does not match " + decoded);
        }
    }

    /**
     * A stored array must be of the encoded representation.
     *
     * @throws CorruptDataException naming both
     */
    static void checkEncoded(String codec, NdArray encoded, DataType type, long[] shape) {
        if (!Arrays.equals(encoded.shape(), shape) || encoded.dataType().size() != type.size()) {
            throw new CorruptDataException(codec + ": an encoded array " + encoded.dataType().name() + " "
                    + Arrays.toString(encoded.shape()) + " does not match the expected " + type.name() + " "
                    + Arrays.toString(shape));
        }
    }
}
