package dev.zarrj.codec.registry.internal;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import java.util.Map;

/**
 * How {@code packbits} sees the elements of a data type it supports: {@code components} numbers
 * of {@code bits} significant bits each, every one held in memory in {@code componentBytes} bytes
 * of native byte order (the narrow types of the registry keep their pattern in the low bits of
 * one byte), sign-extended on decoding when {@code signed}.
 */
record PackedType(int components, int componentBytes, int bits, boolean signed) {
    /** The types of packbits' README, with the core names of complex_float32/64 as well. */
    private static final Map<String, PackedType> BY_NAME = Map.ofEntries(
            Map.entry("bool", new PackedType(1, 1, 1, false)),
            Map.entry("int2", new PackedType(1, 1, 2, true)),
            Map.entry("uint2", new PackedType(1, 1, 2, false)),
            Map.entry("int4", new PackedType(1, 1, 4, true)),
            Map.entry("uint4", new PackedType(1, 1, 4, false)),
            Map.entry("float4_e2m1fn", new PackedType(1, 1, 4, false)),
            Map.entry("float6_e2m3fn", new PackedType(1, 1, 6, false)),
            Map.entry("float6_e3m2fn", new PackedType(1, 1, 6, false)),
            Map.entry("complex_float4_e2m1fn", new PackedType(2, 1, 4, false)),
            Map.entry("complex_float6_e2m3fn", new PackedType(2, 1, 6, false)),
            Map.entry("complex_float6_e3m2fn", new PackedType(2, 1, 6, false)),
            Map.entry("int8", new PackedType(1, 1, 8, true)),
            Map.entry("uint8", new PackedType(1, 1, 8, false)),
            Map.entry("int16", new PackedType(1, 2, 16, true)),
            Map.entry("uint16", new PackedType(1, 2, 16, false)),
            Map.entry("int32", new PackedType(1, 4, 32, true)),
            Map.entry("uint32", new PackedType(1, 4, 32, false)),
            Map.entry("int64", new PackedType(1, 8, 64, true)),
            Map.entry("uint64", new PackedType(1, 8, 64, false)),
            Map.entry("float32", new PackedType(1, 4, 32, false)),
            Map.entry("float64", new PackedType(1, 8, 64, false)),
            Map.entry("bfloat16", new PackedType(1, 2, 16, false)),
            Map.entry("complex_float32", new PackedType(2, 4, 32, false)),
            Map.entry("complex64", new PackedType(2, 4, 32, false)),
            Map.entry("complex_float64", new PackedType(2, 8, 64, false)),
            Map.entry("complex128", new PackedType(2, 8, 64, false)),
            Map.entry("complex_bfloat16", new PackedType(2, 2, 16, false)));

    /**
     * The layout of a data type packbits supports.
     *
     * @throws InvalidMetadataException naming the type when packbits' specification does not list it
     */
    static PackedType of(DataType type, String pointer) {
        PackedType t = BY_NAME.get(type.name());
        if (t == null || t.components * t.componentBytes != type.size()) {
            throw new InvalidMetadataException(pointer, "packbits does not support the data type " + type.name()
                    + " (its specification lists bool, int2, uint2, int4, uint4, the float4/float6 types, the 8- to"
                    + " 64-bit integers, float32, float64, bfloat16 and their complex forms)");
        }
        return t;
    }
}
