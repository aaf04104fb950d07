package dev.zarrj.api.datatype;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.Extension;
import dev.zarrj.api.InvalidMetadataException;
import org.apiguardian.api.API;

/**
 * The type of an array's elements: its size, how its bytes are read, and the JSON forms of its
 * fill value.
 *
 * <p>Elements are held in memory in the platform's native byte order; codecs such as {@code bytes}
 * convert to the stored byte order. A data type is identified in metadata by {@link #name()}
 * (and its configuration for extension types). Instances are immutable and thread-safe; two
 * instances are equal when they write the same metadata.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface DataType extends Extension {
    /**
     * The size of one element in bytes (at least 1). For a {@linkplain ElementKind#isVariableLength()
     * variable-length} kind, an estimate of one element's memory, used only to budget memory.
     */
    int size();

    /**
     * The unit that byte order applies to: the element size for numbers, the component size for
     * complex numbers, 1 for types that have no byte order ({@code bool}, 1-byte integers,
     * {@code r*}). The {@code bytes} codec requires {@code endian} only when this is above 1.
     */
    int byteOrderUnit();

    /** How the element's bytes are interpreted. */
    ElementKind kind();

    /**
     * Parses a fill value from its metadata JSON form.
     *
     * @param json    the {@code fill_value} member
     * @param pointer its JSON pointer, for messages
     * @throws InvalidMetadataException when the form or value is not allowed for this type
     */
    FillValue parseFillValue(JsonNode json, String pointer);

    /** The canonical JSON form of a fill value of this type. */
    JsonNode fillValueToJson(FillValue value);

    /**
     * For a type of kind {@link ElementKind#OTHER} whose elements are numbers in an encoding of its
     * own ({@code bfloat16}, {@code float8_e4m3}, {@code int4}...): how they convert to and from
     * Java numbers, which {@link dev.zarrj.api.NdArray}'s accessors and bulk copies then use. Empty
     * by default, and ignored for the other kinds.
     */
    default java.util.Optional<NumericEncoding> numericEncoding() {
        return java.util.Optional.empty();
    }

    /**
     * The array→bytes codec that stores elements of this type, as its metadata entry (for example
     * {@code {"name": "vlen-utf8"}}), for a type whose in-memory form is no storage format: elements
     * of varying length, or bytes of zarrj's own layout. Arrays created without an array→bytes
     * codec use it, and {@code bytes} refuses the type. Empty by default: {@code bytes} stores the
     * elements as they lie in memory. A type of a {@linkplain ElementKind#isVariableLength()
     * variable-length} kind must name one (conformance rule DT08).
     *
     * @since 0.15
     */
    default java.util.Optional<com.fasterxml.jackson.databind.node.ObjectNode> arrayToBytesCodec() {
        return java.util.Optional.empty();
    }

    /**
     * The fill value used when a user leaves it unset (zero, false, or all-zero bytes; for the
     * variable-length kinds, the empty string or byte string).
     */
    default FillValue defaultFillValue() {
        return FillValue.ofBytes(new byte[kind().isVariableLength() ? 0 : size()]);
    }
}
