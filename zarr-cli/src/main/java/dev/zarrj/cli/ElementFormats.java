package dev.zarrj.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.Float16;
import dev.zarrj.api.datatype.NumericEncoding;
import dev.zarrj.ext.datetime.NumpyTimeType;
import dev.zarrj.ext.optional.OptionalType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.DateTimeException;

/**
 * The element formats of {@code cat} and {@code write}: raw (C order, little endian, no header;
 * bool as one byte 0/1, complex as real then imaginary, {@code r*} as its bytes,
 * {@code numpy.datetime64}/{@code timedelta64} as their int64 counts, {@code NaT} as -2^63), JSON
 * and CSV (datetimes as ISO 8601 instants, timedeltas as ISO 8601 durations, {@code NaT} as
 * {@code null} in JSON and an empty field in CSV; a count whose unit has no such text, such as
 * {@code generic}, or beyond year ±10^9, as its number). Types with their own number encoding
 * ({@code bfloat16}, {@code float8_*}, {@code int4}...) print their values in JSON and CSV and their
 * stored bytes in raw (one byte per component, two little-endian bytes for 16-bit formats).
 * zarrs' {@code optional} elements print in JSON as {@code null} when missing, {@code [null]} when
 * present with a missing inner value (nested types), else as their value.
 */
final class ElementFormats {
    private ElementFormats() {}

    /** Little-endian bytes of an array's elements (a copy). */
    static byte[] toRawLittleEndian(NdArray a) {
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

    /** One element as JSON: numbers, "NaN"/"Infinity"/"-Infinity", booleans, [re, im], byte lists. */
    static com.fasterxml.jackson.databind.JsonNode element(NdArray a, long i) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        DataType t = a.dataType();
        if (t instanceof NumpyTimeType time) {
            return time(time, a.getLong(i));
        }
        if (t instanceof OptionalType optional) {
            return optional(optional, a, i);
        }
        if (t.kind() == ElementKind.OTHER && t.numericEncoding().isPresent()) {
            return narrow(t, t.numericEncoding().get(), a, i);
        }
        return switch (t.kind()) {
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
     * {@code numpy.datetime64[10ms]}, others as their metadata JSON.
     */
    static String typeText(DataType t) {
        if (t instanceof NumpyTimeType) {
            return t.toString();
        }
        com.fasterxml.jackson.databind.JsonNode json = t.toJson();
        return json.isTextual() ? json.asText() : json.toString();
    }

    /** A fill value as its JSON form, with {@code NaT} and the ISO text of a time beside the count. */
    static String fillText(DataType t, FillValue fill) {
        com.fasterxml.jackson.databind.JsonNode json = t.fillValueToJson(fill);
        if (t instanceof NumpyTimeType time) {
            long count = json.longValue();
            com.fasterxml.jackson.databind.JsonNode text = time(time, count);
            return text.isNull() ? "NaT" : text.isTextual() ? count + " (" + text.textValue() + ")" : Long.toString(count);
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

    /** CSV: one value per line for 1-d, one row per line for 2-d. */
    static String csv(NdArray a) {
        long[] s = a.shape();
        if (s.length == 0 || s.length > 2) {
            throw new UserError("csv needs a 1-d or 2-d region; this one has " + s.length + " dimensions (use --format json)");
        }
        DataType t = a.dataType();
        boolean realNumbers = t.numericEncoding().map(e -> e.components() == 1).orElse(false) || t instanceof NumpyTimeType;
        if (t.kind() == ElementKind.COMPLEX || t.kind() == ElementKind.RAW
                || (t.kind() == ElementKind.OTHER && !realNumbers)) {
            throw new UserError("csv holds plain numbers and booleans; use --format json for " + a.dataType().name());
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
                sb.append(e.isNull() ? "" : e.isTextual() ? e.textValue() : e.toString());
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
