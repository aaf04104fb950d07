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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apiguardian.api.API;

/**
 * The {@code fixed_length_utf32} data type: strings of at most {@code length_bytes / 4} code
 * points, each element stored as that many UTF-32 code units with {@code U+0000} after the text
 * (NumPy's {@code <U} strings; zarr-python 3.1 writes them).
 *
 * <p>Spec: zarr-extensions {@code data-types/fixed_length_utf32}. Metadata:
 * {@code {"name": "fixed_length_utf32", "configuration": {"length_bytes": 48}}}; the fill value is a
 * JSON string. Elements have a fixed size, so arrays of this type hold bytes (code units in native
 * byte order) and go through {@code bytes}, which must then name an {@code endian}; read and write
 * them as text with {@link #get}, {@link #set}, {@link #toStringArray} and {@link #copyOf}.
 * Trailing {@code U+0000} are padding, so a string that ends in one does not survive.
 *
 * <p>Immutable and thread-safe; equal when the length is.
 *
 * @since 0.15
 */
@API(status = EXPERIMENTAL, since = "0.15")
public final class FixedLengthUtf32Type implements DataType {
    /** The registered name. */
    public static final String NAME = "fixed_length_utf32";

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final int lengthBytes;

    private FixedLengthUtf32Type(int lengthBytes) {
        this.lengthBytes = lengthBytes;
    }

    /**
     * The type of strings of at most {@code codePoints} code points ({@code length_bytes} is four
     * times that).
     *
     * @throws IllegalArgumentException when {@code codePoints} is not in [1, 2^29)
     */
    public static FixedLengthUtf32Type ofCodePoints(int codePoints) {
        if (codePoints < 1 || codePoints >= 1 << 29) {
            throw new IllegalArgumentException("a fixed_length_utf32 type holds 1 to 2^29 - 1 code points, not " + codePoints);
        }
        return new FixedLengthUtf32Type(4 * codePoints);
    }

    /**
     * The type with the given {@code length_bytes}.
     *
     * @throws IllegalArgumentException when it is not a positive multiple of 4 below 2^31
     */
    public static FixedLengthUtf32Type ofLengthBytes(int lengthBytes) {
        if (lengthBytes < 4 || lengthBytes % 4 != 0) {
            throw new IllegalArgumentException("length_bytes must be a positive multiple of 4, not " + lengthBytes);
        }
        return new FixedLengthUtf32Type(lengthBytes);
    }

    /** {@code length_bytes}: the size of one element. */
    public int lengthBytes() {
        return lengthBytes;
    }

    /** The most code points an element holds. */
    public int codePoints() {
        return lengthBytes / 4;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("length_bytes", lengthBytes);
        return c;
    }

    @Override
    public int size() {
        return lengthBytes;
    }

    /** Each code unit is a 4-byte integer. */
    @Override
    public int byteOrderUnit() {
        return 4;
    }

    @Override
    public ElementKind kind() {
        return ElementKind.OTHER;
    }

    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        if (!json.isTextual()) {
            String s = json.toString();
            throw new InvalidMetadataException(pointer, "the fixed_length_utf32 fill value must be a JSON string, found "
                    + (s.length() <= 80 ? s : s.substring(0, 77) + "..."));
        }
        try {
            return FillValue.ofBytes(encode(json.textValue()));
        } catch (IllegalArgumentException e) {
            throw new InvalidMetadataException(pointer, e.getMessage());
        }
    }

    /** The text without its padding, as a JSON string. */
    @Override
    public JsonNode fillValueToJson(FillValue value) {
        if (value.size() != lengthBytes) {
            throw new IllegalArgumentException("a " + this + " fill value has " + lengthBytes + " bytes, not " + value.size());
        }
        return TextNode.valueOf(decode(ByteBuffer.wrap(value.bytes()).order(NATIVE), 0));
    }

    /**
     * The element's bytes (native byte order) for {@code text}.
     *
     * @throws IllegalArgumentException when the text has more code points than the type holds
     */
    public byte[] encode(String text) {
        int n = text.codePointCount(0, text.length());
        if (n > codePoints()) {
            throw new IllegalArgumentException("\"" + (text.length() <= 40 ? text : text.substring(0, 37) + "...")
                    + "\" has " + n + " code points; " + this + " holds at most " + codePoints());
        }
        ByteBuffer out = ByteBuffer.allocate(lengthBytes).order(NATIVE);
        text.codePoints().forEach(out::putInt);
        return out.array();
    }

    /** The text of the element at byte position {@code at}, trailing {@code U+0000} removed. */
    private String decode(ByteBuffer data, int at) {
        int end = codePoints();
        while (end > 0 && data.getInt(at + 4 * (end - 1)) == 0) {
            end--;
        }
        int[] cps = new int[end];
        for (int i = 0; i < end; i++) {
            cps[i] = data.getInt(at + 4 * i);
            if (!Character.isValidCodePoint(cps[i])) {
                throw new IllegalArgumentException(this + ": code unit " + i + " is 0x" + Integer.toHexString(cps[i])
                        + ", which is no Unicode code point");
            }
        }
        return new String(cps, 0, end);
    }

    /**
     * The text of an element, by flat C-order index.
     *
     * @throws IllegalArgumentException when the array is not of this type, or the element holds a
     *                                  code unit that is no code point
     */
    public String get(NdArray array, long index) {
        check(array);
        return decode(ByteBuffer.wrap(array.getBytes(index)).order(NATIVE), 0);
    }

    /**
     * Sets an element from text, by flat C-order index.
     *
     * @throws IllegalArgumentException when the array is not of this type or the text is too long
     */
    public void set(NdArray array, long index, String text) {
        check(array);
        array.setBytes(index, encode(text));
    }

    /** Every element's text, in C order. */
    public String[] toStringArray(NdArray array) {
        check(array);
        ByteBuffer data = array.bytes();
        String[] out = new String[(int) array.elementCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = decode(data, i * lengthBytes);
        }
        return out;
    }

    /**
     * A new array of this type holding {@code values}.
     *
     * @throws IllegalArgumentException when a value is too long or null, or the count does not
     *                                  match the shape
     */
    public NdArray copyOf(String[] values, long... shape) {
        NdArray out = NdArray.allocate(this, shape);
        if (values.length != out.elementCount()) {
            throw new IllegalArgumentException(values.length + " strings for an array of " + out.elementCount()
                    + " elements");
        }
        ByteBuffer data = out.bytes();
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                throw new IllegalArgumentException("element " + i + " is null");
            }
            data.put(i * lengthBytes, encode(values[i]));
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
        return o instanceof FixedLengthUtf32Type t && t.lengthBytes == lengthBytes;
    }

    @Override
    public int hashCode() {
        return lengthBytes;
    }

    /** NumPy's spelling with the zarr name: {@code fixed_length_utf32[<U12]}. */
    @Override
    public String toString() {
        return NAME + "[<U" + codePoints() + "]";
    }
}
