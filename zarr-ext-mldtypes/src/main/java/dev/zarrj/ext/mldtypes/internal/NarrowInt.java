package dev.zarrj.ext.mldtypes.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrj.api.InvalidMetadataException;

/**
 * {@code int2}, {@code int4}, {@code uint2}, {@code uint4}: one byte whose low 2 or 4 bits are
 * the number (two's complement when signed) and whose upper bits are ignored when read; written
 * sign-extended (signed) or zero (unsigned), as ml_dtypes holds them in memory.
 */
record NarrowInt(String name, int bits, boolean signed) implements Component {
    static final NarrowInt INT2 = new NarrowInt("int2", 2, true);
    static final NarrowInt INT4 = new NarrowInt("int4", 4, true);
    static final NarrowInt UINT2 = new NarrowInt("uint2", 2, false);
    static final NarrowInt UINT4 = new NarrowInt("uint4", 4, false);

    long min() {
        return signed ? -(1L << (bits - 1)) : 0;
    }

    long max() {
        return signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
    }

    @Override
    public boolean isInteger() {
        return true;
    }

    @Override
    public double decode(long pattern) {
        long low = pattern & ((1L << bits) - 1);
        return signed ? (low << (64 - bits)) >> (64 - bits) : low;
    }

    /** Truncated toward zero, then wrapped to the width; the pattern is the whole byte, as ml_dtypes writes it. */
    @Override
    public long encode(double value) {
        if (Double.isNaN(value)) {
            throw new IllegalArgumentException(name + " has no NaN");
        }
        long v = (long) value;
        long low = v & ((1L << bits) - 1);
        long canonical = signed ? (low << (64 - bits)) >> (64 - bits) : low;
        return canonical & 0xff;
    }

    @Override
    public long parse(JsonNode json, String pointer, String what) {
        if (!json.isIntegralNumber() || !json.canConvertToLong() || json.longValue() < min() || json.longValue() > max()) {
            String s = json.toString();
            throw new InvalidMetadataException(pointer, what + " must be a JSON integer (no fraction or exponent part) in ["
                    + min() + ", " + max() + "]; found " + (s.length() <= 80 ? s : s.substring(0, 77) + "..."));
        }
        return encode(json.longValue());
    }

    @Override
    public JsonNode toJson(long pattern) {
        return IntNode.valueOf((int) decode(pattern));
    }
}
