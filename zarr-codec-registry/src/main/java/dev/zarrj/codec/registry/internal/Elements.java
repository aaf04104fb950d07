package dev.zarrj.codec.registry.internal;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.ElementKind;
import java.nio.ByteBuffer;

/**
 * Element access to an array by flat index: straight from its buffer for the integer types and
 * float32/float64 (the hot paths), through {@link NdArray}'s accessors for the rest (float16 and
 * the narrow types, whose conversions NdArray knows).
 */
final class Elements {
    private final NdArray array;
    private final ByteBuffer bytes;
    /** 'i' signed integer, 'u' unsigned integer, 'f' float32/float64, 0 through NdArray. */
    private final char mode;
    private final int size;

    Elements(NdArray array) {
        this.array = array;
        this.bytes = array.bytes();
        this.size = array.dataType().size();
        ElementKind kind = array.dataType().kind();
        if (kind == ElementKind.INT && (size == 1 || size == 2 || size == 4 || size == 8)) {
            mode = 'i';
        } else if (kind == ElementKind.UINT && (size == 1 || size == 2 || size == 4 || size == 8)) {
            mode = 'u';
        } else if (kind == ElementKind.FLOAT && (size == 4 || size == 8)) {
            mode = 'f';
        } else {
            mode = 0;
        }
    }

    NdArray array() {
        return array;
    }

    /** An integer element (uint64 as its unsigned pattern). */
    long getLong(int i) {
        int at = i * size;
        return switch (mode) {
            case 'i' -> switch (size) {
                case 1 -> bytes.get(at);
                case 2 -> bytes.getShort(at);
                case 4 -> bytes.getInt(at);
                default -> bytes.getLong(at);
            };
            case 'u' -> switch (size) {
                case 1 -> bytes.get(at) & 0xffL;
                case 2 -> bytes.getShort(at) & 0xffffL;
                case 4 -> bytes.getInt(at) & 0xffffffffL;
                default -> bytes.getLong(at);
            };
            default -> array.getLong(i);
        };
    }

    /** A float element. */
    double getDouble(int i) {
        if (mode == 'f') {
            return size == 4 ? bytes.getFloat(i * 4) : bytes.getDouble(i * 8);
        }
        return array.getDouble(i);
    }

    /** Sets an integer element, wrapped to the width. */
    void setLong(int i, long v) {
        int at = i * size;
        if (mode == 'i' || mode == 'u') {
            switch (size) {
                case 1 -> bytes.put(at, (byte) v);
                case 2 -> bytes.putShort(at, (short) v);
                case 4 -> bytes.putInt(at, (int) v);
                default -> bytes.putLong(at, v);
            }
        } else {
            array.setLong(i, v);
        }
    }

    /** Sets a float element to a value the type holds. */
    void setDouble(int i, double v) {
        if (mode == 'f') {
            if (size == 4) {
                bytes.putFloat(i * 4, (float) v);
            } else {
                bytes.putDouble(i * 8, v);
            }
        } else {
            array.setDouble(i, v);
        }
    }
}
