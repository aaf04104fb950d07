package dev.zarrj.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.Float16;
import dev.zarrj.api.datatype.NumericEncoding;
import dev.zarrj.ext.datetime.NumpyTimeType;
import dev.zarrj.ext.strings.FixedLengthUtf32Type;
import dev.zarrj.ext.optional.OptionalType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

/**
 * The element formats of {@code cat} and {@code write}: raw (C order, little endian, no header;
 * bool as one byte 0/1, complex as real then imaginary, {@code r*} as its bytes,
 * {@code numpy.datetime64}/{@code timedelta64} as their int64 counts, {@code NaT} as -2^63), JSON
 * and CSV (datetimes as ISO 8601 instants, timedeltas as ISO 8601 durations, {@code NaT} as
 * {@code null} in JSON and an empty field in CSV; a count whose unit has no such text, such as
 * {@code generic}, or beyond year ±10^9, as its number). Types with their own number encoding
 * ({@code bfloat16}, {@code float8_*}, {@code int4}...) print their values in JSON and CSV and their
 * stored bytes in raw (one byte per component, two little-endian bytes for 16-bit formats).
 *
 * <p>{@code string} elements are JSON strings, {@code bytes} elements base64 text; raw refuses
 * both, whose elements have no fixed size. Any other type (kind {@code OTHER} without a number
 * encoding: {@code fixed_length_utf32}, a third party's) prints each element as the JSON its
 * data type gives for a fill value of the element's bytes, and reads it back the same way, so that every installed type prints without the CLI knowing it. In CSV a JSON string
 * is a field (quoted when it holds a comma, quote or line break, and when empty, so that
 * {@code ""} differs from a missing value), {@code null} an empty field, and a JSON array or
 * object its compact JSON text, quoted.
 *
 * <p>zarrs' {@code optional} elements print in JSON as {@code null} when missing, {@code [null]}
 * when present with a missing inner value (nested types), else as their value (its fill value
 * form would wrap a present value in an array).
 */
final class ElementFormats {
    private ElementFormats() {}

    /** Little-endian bytes of an array's elements (a copy). */
    static byte[] toRawLittleEndian(NdArray a) {
        if (a.holdsObjects()) {
            throw new UserError("--format raw cannot hold " + a.dataType().name() + " elements, whose lengths vary;"
                    + " use --format json or csv");
        }
        byte[] out = a.toByteArray();
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            swap(out, a.dataType().byteOrderUnit());
        }
        return out;
    }

    /** An array from little-endian raw bytes. */
    static NdArray fromRawLittleEndian(DataType type, byte[] bytes, long[] shape) {
        byte[] copy = bytes.clone();
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            swap(copy, type.byteOrderUnit());
        }
        return NdArray.wrap(type, ByteBuffer.wrap(copy), shape);
    }

    private static void swap(byte[] b, int unit) {
        if (unit <= 1) {
            return;
        }
        for (int i = 0; i + unit <= b.length; i += unit) {
            for (int j = 0; j < unit / 2; j++) {
                byte t = b[i + j];
                b[i + j] = b[i + unit - 1 - j];
                b[i + unit - 1 - j] = t;
            }
        }
    }

    /**
     * One element as JSON: numbers, "NaN"/"Infinity"/"-Infinity", booleans, [re, im], byte lists,
     * strings, base64 text, or the JSON form the data type gives it.
     */
    static com.fasterxml.jackson.databind.JsonNode element(NdArray a, long i) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        DataType t = a.dataType();
        if (t instanceof NumpyTimeType time) {
            return time(time, a.getLong(i));
        }
        if (t instanceof OptionalType optional) {
            return optional(optional, a, i);
        }
        if (t.kind() == ElementKind.OTHER) {
            return t.numericEncoding().isPresent() ? narrow(t, t.numericEncoding().get(), a, i) : asFillValue(a, i);
        }
        return switch (t.kind()) {
            case STRING -> f.textNode(a.getString(i));
            case BYTES -> f.textNode(Base64.getEncoder().encodeToString(a.getBytes(i)));
            case BOOL -> f.booleanNode(a.getBoolean(i));
            case INT -> f.numberNode(a.getLong(i));
            case UINT -> t.size() == 8 && a.getLong(i) < 0
                    ? f.numberNode(new java.math.BigInteger(Long.toUnsignedString(a.getLong(i))))
                    : f.numberNode(a.getLong(i));
            case FLOAT -> floatNode(a.getDouble(i), t.size());
            case COMPLEX -> {
                ByteBuffer b = a.bytes();
                int o = (int) (i * t.size());
                ArrayNode pair = f.arrayNode();
                if (t.size() == 8) {
                    pair.add(floatNode(b.getFloat(o), 4)).add(floatNode(b.getFloat(o + 4), 4));
                } else {
                    pair.add(floatNode(b.getDouble(o), 8)).add(floatNode(b.getDouble(o + 8), 8));
                }
                yield pair;
            }
            default -> {
                ByteBuffer b = a.bytes();
                ArrayNode bytes = f.arrayNode();
                for (int k = 0; k < t.size(); k++) {
                    bytes.add(b.get((int) (i * t.size()) + k) & 0xff);
                }
                yield bytes;
            }
        };
    }

    /**
     * An element of a type the CLI does not know, as its data type writes a fill value of the
     * element's bytes: the spec's JSON form of one value of that type.
     *
     * @throws CorruptDataException when the data type cannot express the element's bytes
     */
    private static com.fasterxml.jackson.databind.JsonNode asFillValue(NdArray a, long i) {
        DataType t = a.dataType();
        try {
            return t.fillValueToJson(FillValue.ofBytes(a.getBytes(i)));
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException("element " + i + " of the " + typeText(t) + " array has no JSON form: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Sets element {@code i} from its JSON form, the one {@link #element} prints: datetimes also
     * as ISO 8601 text ({@code null} for {@code NaT}), everything else as the data type parses a
     * fill value.
     *
     * @throws dev.zarrj.api.InvalidMetadataException when the data type rejects the value
     * @throws UserError when ISO 8601 text is not a moment or duration this type holds exactly
     */
    static void setElement(NdArray a, long i, com.fasterxml.jackson.databind.JsonNode v, String where) {
        DataType t = a.dataType();
        if (t instanceof OptionalType optional) {
            a.setBytes(i, optionalElement(optional, v, where).bytes());
            return;
        }
        if (t instanceof NumpyTimeType && v.isNull()) {
            a.setLong(i, NumpyTimeType.NAT);
            return;
        }
        if (t instanceof NumpyTimeType time && v.isTextual() && !v.textValue().equals("NaT")) {
            try {
                long count = time.variant() == NumpyTimeType.Variant.DATETIME64
                        ? time.fromInstant(Instant.parse(v.textValue()))
                        : time.fromDuration(Duration.parse(v.textValue()));
                a.setLong(i, count);
                return;
            } catch (DateTimeException | ArithmeticException e) {
                throw new UserError(where + ": " + v + " is not a " + t + " value: " + e.getMessage(), e);
            }
        }
        byte[] bytes = t.parseFillValue(v, where).bytes();
        try {
            a.setBytes(i, bytes);
        } catch (IllegalArgumentException e) {
            throw new UserError(where + ": " + e.getMessage(), e);
        }
    }

    /**
     * An optional element from the form {@link #element} prints: {@code null} missing, a value
     * present; {@code [x]} present with {@code x} in the inner type's form (so {@code [null]} is a
     * present element whose inner optional value is missing, and zarrs' {@code [v]} reads too).
     */
    private static FillValue optionalElement(OptionalType t, com.fasterxml.jackson.databind.JsonNode v, String where) {
        if (v.isNull()) {
            return t.missing();
        }
        com.fasterxml.jackson.databind.JsonNode inner = v.isArray() && v.size() == 1 ? v.get(0) : v;
        if (t.inner() instanceof OptionalType nested) {
            return t.present(optionalElement(nested, inner, where));
        }
        return t.present(t.inner().parseFillValue(inner, where));
    }

    /**
     * An optional element: {@code null} (in as many arrays as levels are present above the missing
     * one) when missing at some level, else the innermost value as its own type prints.
     */
    private static com.fasterxml.jackson.databind.JsonNode optional(OptionalType t, NdArray a, long i) {
        byte[] e = new byte[t.size()];
        a.bytes().get((int) (i * t.size()), e);
        DataType leaf = t;
        int end = e.length;
        while (leaf instanceof OptionalType o) {
            if (e[end - 1] == 0) {
                return t.toJson(e);
            }
            end--;
            leaf = o.inner();
        }
        return element(NdArray.wrap(leaf, ByteBuffer.wrap(e, 0, end)), 0);
    }

    /** An element of a type with its own number encoding (bfloat16, int4...): a number, or [re, im]. */
    private static com.fasterxml.jackson.databind.JsonNode narrow(DataType t, NumericEncoding enc, NdArray a, long i) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (enc.isInteger() && enc.components() == 1) {
            return f.numberNode(a.getLong(i));
        }
        ByteBuffer b = a.bytes();
        int o = (int) (i * t.size());
        if (enc.components() == 1) {
            return floatNode(enc.get(b, o), 4);
        }
        int half = t.size() / 2;
        return f.arrayNode().add(floatNode(enc.get(b, o), 4)).add(floatNode(enc.get(b, o + half), 4));
    }

    /** A datetime64/timedelta64 count as ISO 8601 text, {@code null} for NaT, its number where no text is exact. */
    static com.fasterxml.jackson.databind.JsonNode time(NumpyTimeType type, long count) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        try {
            return type.toIsoString(count).<com.fasterxml.jackson.databind.JsonNode>map(f::textNode).orElse(f.nullNode());
        } catch (DateTimeException e) {
            return f.numberNode(count);
        }
    }

    /**
     * A data type as people write it: the core types by name, NumPy's time types as
     * {@code numpy.datetime64[10ms]}, {@code fixed_length_utf32} as {@code fixed_length_utf32[<U12]},
     * others by name when they have no configuration, else as their metadata JSON.
     */
    static String typeText(DataType t) {
        if (t instanceof NumpyTimeType || t instanceof FixedLengthUtf32Type) {
            return t.toString();
        }
        com.fasterxml.jackson.databind.JsonNode json = t.toJson();
        if (json.isObject() && json.size() == 1 && json.path("name").isTextual()) {
            return json.get("name").asText();
        }
        return json.isTextual() ? json.asText() : json.toString();
    }

    /**
     * A fill value as its JSON form, with {@code NaT} and the ISO text of a time beside the count,
     * and a byte string's length beside its base64 text.
     */
    static String fillText(DataType t, FillValue fill) {
        com.fasterxml.jackson.databind.JsonNode json = t.fillValueToJson(fill);
        if (t instanceof NumpyTimeType time) {
            long count = json.longValue();
            com.fasterxml.jackson.databind.JsonNode text = time(time, count);
            return text.isNull() ? "NaT" : text.isTextual() ? count + " (" + text.textValue() + ")" : Long.toString(count);
        }
        if (t.kind() == ElementKind.BYTES && fill.size() > 0) {
            return json + " (base64 of " + fill.size() + (fill.size() == 1 ? " byte)" : " bytes)");
        }
        return json.toString();
    }

    private static com.fasterxml.jackson.databind.JsonNode floatNode(double v, int size) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (Double.isNaN(v)) {
            return f.textNode("NaN");
        }
        if (Double.isInfinite(v)) {
            return f.textNode(v > 0 ? "Infinity" : "-Infinity");
        }
        if (size == 4) {
            return f.numberNode(new BigDecimal(Float.toString((float) v)));
        }
        if (size == 2) {
            return f.numberNode(new BigDecimal(Float.toString(Float16.toFloat(Float16.fromFloat((float) v)))));
        }
        return f.numberNode(v);
    }

    /** The whole array as nested JSON arrays (a scalar for a 0-d array). */
    static com.fasterxml.jackson.databind.JsonNode nested(NdArray a) {
        long[] shape = a.shape();
        if (shape.length == 0) {
            return element(a, 0);
        }
        return nested(a, shape, 0, 0);
    }

    private static com.fasterxml.jackson.databind.JsonNode nested(NdArray a, long[] shape, int dim, long base) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        long inner = 1;
        for (int d = dim + 1; d < shape.length; d++) {
            inner *= shape[d];
        }
        for (long i = 0; i < shape[dim]; i++) {
            long at = base + i * inner;
            out.add(dim == shape.length - 1 ? element(a, at) : nested(a, shape, dim + 1, at));
        }
        return out;
    }

    /** CSV: one value per line for 1-d, one row per line for 2-d; the fields as the class comment says. */
    static String csv(NdArray a) {
        long[] s = a.shape();
        if (s.length == 0 || s.length > 2) {
            throw new UserError("csv needs a 1-d or 2-d region; this one has " + s.length + " dimensions (use --format json)");
        }
        DataType t = a.dataType();
        if (t.kind() == ElementKind.COMPLEX || t.kind() == ElementKind.RAW
                || t.numericEncoding().map(e -> e.components() != 1).orElse(false)) {
            throw new UserError("csv holds one value per field; use --format json for " + a.dataType().name());
        }
        long rows = s.length == 1 ? s[0] : s[0];
        long cols = s.length == 1 ? 1 : s[1];
        StringBuilder sb = new StringBuilder();
        for (long r = 0; r < rows; r++) {
            for (long c = 0; c < cols; c++) {
                if (c > 0) {
                    sb.append(',');
                }
                com.fasterxml.jackson.databind.JsonNode e = element(a, r * cols + c);
                if (e.isTextual()) {
                    csvField(sb, e.textValue());
                } else if (e.isContainerNode()) {
                    csvField(sb, e.toString());
                } else if (!e.isNull()) {
                    sb.append(e);
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A CSV field (RFC 4180): quoted, quotes doubled, when empty or holding a comma, quote or line break. */
    private static void csvField(StringBuilder sb, String text) {
        if (!text.isEmpty() && text.chars().noneMatch(ch -> ch == ',' || ch == '"' || ch == '\n' || ch == '\r')) {
            sb.append(text);
            return;
        }
        sb.append('"').append(text.replace("\"", "\"\"")).append('"');
    }

    /**
     * An array of {@code shape} from nested JSON arrays as {@link #nested} prints them (a scalar
     * for a 0-d array), each element read by {@link #setElement}.
     *
     * @throws UserError when the nesting does not match the shape
     */
    static NdArray fromJson(DataType type, com.fasterxml.jackson.databind.JsonNode doc, long[] shape) {
        NdArray a = NdArray.allocate(type, shape);
        if (shape.length == 0) {
            setElement(a, 0, doc, "--json element []");
        } else {
            fromJson(a, doc, shape, 0, 0, new long[shape.length]);
        }
        return a;
    }

    private static void fromJson(NdArray a, com.fasterxml.jackson.databind.JsonNode node, long[] shape, int dim,
            long base, long[] at) {
        if (!node.isArray() || node.size() != shape[dim]) {
            String found = node.isArray() ? "an array of " + node.size() : node.getNodeType().toString().toLowerCase(Locale.ROOT);
            throw new UserError("--json " + (dim == 0 ? "document" : "element " + Arrays.toString(Arrays.copyOf(at, dim)))
                    + ": expected an array of " + shape[dim] + " (the region's shape is " + Arrays.toString(shape)
                    + "), found " + found);
        }
        long inner = 1;
        for (int d = dim + 1; d < shape.length; d++) {
            inner *= shape[d];
        }
        for (int i = 0; i < shape[dim]; i++) {
            at[dim] = i;
            com.fasterxml.jackson.databind.JsonNode child = node.get(i);
            if (dim == shape.length - 1) {
                setElement(a, base + i, child, "--json element " + Arrays.toString(at));
            } else {
                fromJson(a, child, shape, dim + 1, base + i * inner, at);
            }
        }
    }
}
