package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A numpy data type as a filter's configuration names it, keeping the spelling it was given in
 * ({@code "int32"}, {@code "<i4"}) so that metadata is written back as it was read.
 *
 * @param type     the type
 * @param spelling the configuration's string
 */
record DType(NumpyType type, String spelling) {
    DType {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(spelling, "spelling");
    }

    /** Adds a filter's {@code dtype} and {@code astype} to its configuration, each when configured. */
    static void putTypes(ObjectNode node, DType dtype, DType astype) {
        if (dtype != null) {
            node.put("dtype", dtype.spelling());
        }
        if (astype != null) {
            node.put("astype", astype.spelling());
        }
    }

    /** The type as zarr-python writes it when it fills in a filter's type: numpy's name. */
    static DType of(NumpyType type) {
        return new DType(type, type.zarrName);
    }

    /**
     * The numpy type of a chunk's data type, for a filter that works on values.
     *
     * @throws InvalidMetadataException when the data type is not one of the numeric core types
     */
    static NumpyType typeOf(ChunkSpec spec, String codec, String pointer) {
        return NumpyType.of(spec.dataType()).orElseThrow(() -> new InvalidMetadataException(pointer, codec
                + " works on bool, integer and float data, not " + spec.dataType().name()));
    }

    /**
     * Checks that a configured decoded type is the chunk's type.
     *
     * @throws InvalidMetadataException naming both
     */
    static void checkMatches(DType configured, NumpyType actual, String codec, String field, String pointer) {
        if (configured != null && configured.type != actual) {
            throw new InvalidMetadataException(pointer + "/" + field, codec + ": '" + field + "' is \""
                    + configured.spelling + "\" (" + configured.type.zarrName + "), but the data reaching this codec"
                    + " is " + actual.zarrName);
        }
    }

    /** The chunk spec with another data type: the fill value converted as numpy's astype does. */
    static ChunkSpec withType(ChunkSpec spec, NumpyType from, NumpyType to) {
        if (from == to) {
            return spec;
        }
        return new ChunkSpec(to.dataType(), spec.shape(), convert(spec.fillValue(), from, to));
    }

    static FillValue convert(FillValue value, NumpyType from, NumpyType to) {
        ByteBuffer src = ByteBuffer.wrap(value.bytes()).order(ByteOrder.nativeOrder());
        ByteBuffer dst = ByteBuffer.allocate(to.size).order(ByteOrder.nativeOrder());
        to.convert(from, src, 0, dst, 0);
        return FillValue.ofBytes(dst.array());
    }
}
