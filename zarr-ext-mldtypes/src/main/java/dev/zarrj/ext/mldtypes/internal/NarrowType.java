package dev.zarrj.ext.mldtypes.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.NumericEncoding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * A data type of the ml_dtypes family: one {@link Component} per element, or two for the
 * {@code complex_*} types (real, then imaginary). Kind {@code OTHER}, with a
 * {@link NumericEncoding} so that {@code NdArray} reads and writes the values.
 *
 * <p>Bytes: one byte per component for formats of up to 8 bits ({@code endian} has no effect),
 * two for {@code bfloat16}/{@code float16} (byte-order unit 2). Fill values as the core types':
 * a number (an integer for the integer types), {@code "NaN"}/{@code "Infinity"}/{@code
 * "-Infinity"} where the format has them, {@code "0x.."} bits; complex ones as {@code [re, im]}.
 *
 * <p>Immutable; equal when the names are equal.
 */
public final class NarrowType implements DataType {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final String name;
    private final Component component;
    private final int components;
    private final NumericEncoding encoding;

    NarrowType(String name, Component component, int components) {
        this.name = name;
        this.component = component;
        this.components = components;
        this.encoding = new Encoding(component, components);
    }

    Component component() {
        return component;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** Written as its bare name, like the core types. */
    @Override
    public JsonNode toJson() {
        return JsonNodeFactory.instance.textNode(name);
    }

    @Override
    public int size() {
        return components * component.bytes();
    }

    @Override
    public int byteOrderUnit() {
        return component.bytes();
    }

    @Override
    public ElementKind kind() {
        return ElementKind.OTHER;
    }

    @Override
    public Optional<NumericEncoding> numericEncoding() {
        return Optional.of(encoding);
    }

    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        ByteBuffer out = ByteBuffer.allocate(size()).order(NATIVE);
        if (components == 1) {
            put(out, 0, component.parse(json, pointer, "the " + name + " fill value"));
        } else {
            if (!json.isArray() || json.size() != 2) {
                String s = json.toString();
                throw new InvalidMetadataException(pointer, "the " + name + " fill value must be a two-element array [real,"
                        + " imaginary] of " + component.name() + " values; found " + (s.length() <= 80 ? s
                        : s.substring(0, 77) + "..."));
            }
            put(out, 0, component.parse(json.get(0), pointer + "/0", "the real part of the " + name + " fill value"));
            put(out, component.bytes(), component.parse(json.get(1), pointer + "/1",
                    "the imaginary part of the " + name + " fill value"));
        }
        return FillValue.ofBytes(out.array());
    }

    @Override
    public JsonNode fillValueToJson(FillValue value) {
        if (value.size() != size()) {
            throw new IllegalArgumentException("a " + name + " fill value has " + size() + " bytes, not " + value.size());
        }
        ByteBuffer in = ByteBuffer.wrap(value.bytes()).order(NATIVE);
        if (components == 1) {
            return component.toJson(get(in, 0));
        }
        ArrayNode pair = JsonNodeFactory.instance.arrayNode(2);
        pair.add(component.toJson(get(in, 0)));
        pair.add(component.toJson(get(in, component.bytes())));
        return pair;
    }

    private long get(ByteBuffer b, int offset) {
        return component.bytes() == 1 ? b.get(offset) & 0xffL : b.getShort(offset) & 0xffffL;
    }

    private void put(ByteBuffer b, int offset, long pattern) {
        if (component.bytes() == 1) {
            b.put(offset, (byte) pattern);
        } else {
            b.putShort(offset, (short) pattern);
        }
    }

    /** The numbers of a component format, for NdArray. */
    private record Encoding(Component component, int components) implements NumericEncoding {
        @Override
        public boolean isInteger() {
            return component.isInteger();
        }

        @Override
        public double get(ByteBuffer data, int offset) {
            long p = component.bytes() == 1 ? data.get(offset) & 0xffL : data.getShort(offset) & 0xffffL;
            return component.decode(p);
        }

        @Override
        public void set(ByteBuffer data, int offset, double value) {
            long p = component.encode(value);
            if (component.bytes() == 1) {
                data.put(offset, (byte) p);
            } else {
                data.putShort(offset, (short) p);
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NarrowType t && t.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
