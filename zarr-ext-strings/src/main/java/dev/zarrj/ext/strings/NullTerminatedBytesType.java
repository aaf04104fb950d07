package dev.zarrj.ext.strings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.util.Arrays;
import java.util.Base64;
import org.apiguardian.api.API;

/**
 * The {@code null_terminated_bytes} data type: byte strings of at most {@code length_bytes}
 * bytes, each element stored as exactly that many bytes with zeros after the string (NumPy's
 * {@code |S} strings; zarr-python 3 writes the name for them, and it is what a Zarr v2
 * {@code "|S10"} reads as).
 *
 * <p>Metadata: {@code {"name": "null_terminated_bytes", "configuration": {"length_bytes": 10}}};
 * the fill value is the base64 text of the string without its trailing zeros. Elements are their
 * {@code length_bytes} stored bytes ({@code NdArray.getBytes} returns them padded, {@link #get}
 * without the padding, {@link #copyOf} pads); as in NumPy, trailing zero bytes are padding, so a
 * string that ends in one does not survive.
 *
 * <p>Immutable and thread-safe; equal when the length is.
 *
 * @since 0.16
 */
@API(status = EXPERIMENTAL, since = "0.16")
public final class NullTerminatedBytesType implements DataType {
    /** The registered name. */
    public static final String NAME = "null_terminated_bytes";

    private final int lengthBytes;

    private NullTerminatedBytesType(int lengthBytes) {
        this.lengthBytes = lengthBytes;
    }

    /**
     * The type of byte strings of at most {@code lengthBytes} bytes.
     *
     * @throws IllegalArgumentException when {@code lengthBytes} is not positive
     */
    public static NullTerminatedBytesType ofLengthBytes(int lengthBytes) {
        if (lengthBytes < 1) {
            throw new IllegalArgumentException("length_bytes must be positive, not " + lengthBytes);
        }
        return new NullTerminatedBytesType(lengthBytes);
    }

    /** {@code length_bytes}: the size of one element. */
    public int lengthBytes() {
        return lengthBytes;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put("length_bytes", lengthBytes);
    }

    @Override
    public int size() {
        return lengthBytes;
    }

    @Override
    public int byteOrderUnit() {
        return 1;
    }

    @Override
    public ElementKind kind() {
        return ElementKind.OTHER;
    }

    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        if (!json.isTextual()) {
            String s = json.toString();
            throw new InvalidMetadataException(pointer, "the null_terminated_bytes fill value must be base64 text, found "
                    + (s.length() <= 80 ? s : s.substring(0, 77) + "..."));
        }
        byte[] b;
        try {
            b = Base64.getDecoder().decode(json.textValue());
        } catch (IllegalArgumentException e) {
            throw new InvalidMetadataException(pointer, "the null_terminated_bytes fill value \"" + json.textValue()
                    + "\" is not base64: " + e.getMessage());
        }
        if (b.length > lengthBytes) {
            throw new InvalidMetadataException(pointer, "the fill value has " + b.length + " bytes; " + this
                    + " holds at most " + lengthBytes);
        }
        return FillValue.ofBytes(Arrays.copyOf(b, lengthBytes));
    }

    /** The base64 text of the bytes without their trailing zeros. */
    @Override
    public JsonNode fillValueToJson(FillValue value) {
        if (value.size() != lengthBytes) {
            throw new IllegalArgumentException("a " + this + " fill value has " + lengthBytes + " bytes, not " + value.size());
        }
        byte[] b = value.bytes();
        int end = b.length;
        while (end > 0 && b[end - 1] == 0) {
            end--;
        }
        return TextNode.valueOf(Base64.getEncoder().encodeToString(Arrays.copyOf(b, end)));
    }

    /**
     * The string of an element, by flat C-order index: its bytes without the trailing zeros, as
     * NumPy gives it.
     *
     * @throws IllegalArgumentException when the array is not of this type
     */
    public byte[] get(NdArray array, long index) {
        check(array);
        byte[] b = array.getBytes(index);
        int end = b.length;
        while (end > 0 && b[end - 1] == 0) {
            end--;
        }
        return Arrays.copyOf(b, end);
    }

    /**
     * A new array of this type holding {@code values}, each padded with zeros.
     *
     * @throws IllegalArgumentException when a value is longer than {@code length_bytes} or null, or
     *                                  the count does not match the shape
     */
    public NdArray copyOf(byte[][] values, long... shape) {
        NdArray out = NdArray.allocate(this, shape);
        if (values.length != out.elementCount()) {
            throw new IllegalArgumentException(values.length + " byte strings for an array of " + out.elementCount()
                    + " elements");
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null || values[i].length > lengthBytes) {
                throw new IllegalArgumentException("element " + i + (values[i] == null ? " is null"
                        : " has " + values[i].length + " bytes; " + this + " holds at most " + lengthBytes));
            }
            out.setBytes(i, Arrays.copyOf(values[i], lengthBytes));
        }
        return out;
    }

    private void check(NdArray array) {
        if (!equals(array.dataType())) {
            throw new IllegalArgumentException("an array of " + array.dataType().name() + ", not " + this);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NullTerminatedBytesType t && t.lengthBytes == lengthBytes;
    }

    @Override
    public int hashCode() {
        return 31 * lengthBytes + 7;
    }

    /** NumPy's spelling with the zarr name: {@code null_terminated_bytes[|S10]}. */
    @Override
    public String toString() {
        return NAME + "[|S" + lengthBytes + "]";
    }
}
