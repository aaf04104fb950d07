package dev.zarrj.conformance.vectors;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.Float16;
import dev.zarrj.conformance.vectors.VectorManifest.ArrayVector;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * Turns a manifest's expected values into an {@link NdArray}, for a writer that stores the same
 * array with another implementation (the other direction of a cross-implementation check).
 *
 * <p>Values are in manifest form (see {@link VectorManifest}). Thread-safe: holds no state.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class VectorValues {
    private VectorValues() {}

    /**
     * Every expected element of an array, in an array of its shape.
     *
     * @param type the data type named by the vector, as the registry resolves it
     * @throws IllegalArgumentException when a value is not one of the data type, naming the element
     */
    public static NdArray expected(DataType type, ArrayVector vector) {
        NdArray out = NdArray.allocate(type, vector.shape());
        long n = vector.elementCount();
        if (vector.values().size() != n) {
            throw new IllegalArgumentException(vector.path() + ": the manifest lists " + vector.values().size()
                    + " values for " + n + " elements");
        }
        ByteBuffer bytes = out.bytes();
        for (int i = 0; i < n; i++) {
            JsonNode v = vector.value(i);
            try {
                set(type, out, bytes, i, v);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(vector.path() + ": element " + i + ": " + v + " is not a " + type.name()
                        + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static void set(DataType t, NdArray out, ByteBuffer bytes, int i, JsonNode v) {
        int size = t.size();
        int off = i * size;
        switch (t.kind()) {
            case BOOL -> bytes.put(off, (byte) ((v.isBoolean() ? v.booleanValue() : integer(v).signum() != 0) ? 1 : 0));
            case INT, UINT -> out.setLong(i, integer(v).longValue());
            case FLOAT -> {
                double d = real(v);
                switch (size) {
                    case 2 -> bytes.putShort(off, Float16.fromFloat((float) d));
                    case 4 -> bytes.putFloat(off, (float) d);
                    default -> bytes.putDouble(off, d);
                }
            }
            case COMPLEX -> {
                if (!v.isArray() || v.size() != 2) {
                    throw new IllegalArgumentException("a complex value is [real, imaginary]");
                }
                int half = size / 2;
                if (half == 4) {
                    bytes.putFloat(off, (float) real(v.get(0))).putFloat(off + 4, (float) real(v.get(1)));
                } else {
                    bytes.putDouble(off, real(v.get(0))).putDouble(off + 8, real(v.get(1)));
                }
            }
            default -> {
                if (!v.isArray() || v.size() != size) {
                    throw new IllegalArgumentException("a raw value is an array of " + size + " byte values");
                }
                for (int b = 0; b < size; b++) {
                    bytes.put(off + b, (byte) v.get(b).asInt());
                }
            }
        }
    }

    /** An integer in manifest form: a JSON integer, or a decimal string. */
    static BigInteger integer(JsonNode v) {
        if (v.isTextual()) {
            return new BigInteger(v.textValue());
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue();
        }
        if (v.isNumber()) {
            return v.decimalValue().toBigIntegerExact();
        }
        throw new IllegalArgumentException("not an integer");
    }

    /** A real number in manifest form: a JSON number, {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}. */
    static double real(JsonNode v) {
        if (v.isTextual()) {
            return switch (v.textValue()) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> new BigDecimal(v.textValue()).doubleValue();
            };
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        throw new IllegalArgumentException("not a number");
    }
}
