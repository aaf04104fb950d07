package dev.zarrj.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.core.internal.metadata.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * A node's user attributes as an immutable value, read with the Java type the caller expects
 * rather than as raw JSON ({@link ZarrNode#attributes()}).
 *
 * <p>{@link #get(String, Class)} converts an attribute to {@link String}, {@link Boolean}, a
 * number type ({@link Integer}, {@link Long}, {@link Short}, {@link Byte}, {@link Double},
 * {@link Float}, {@link BigInteger}, {@link BigDecimal}, {@link Number}; an integer type only when
 * the value is a whole number in its range), {@link List} and {@link Map} (of plain values, as
 * {@link #asMap()}), {@link Object} (the plain value), or a Jackson node type ({@link JsonNode},
 * {@link ObjectNode}, ...: a copy). A value of another kind is an
 * {@link InvalidMetadataException} naming the attribute, its kind and the type asked for.
 *
 * <p>Plain values: JSON strings are {@link String}, booleans {@link Boolean}, whole numbers
 * {@link Long} (or {@link BigInteger} beyond it), other numbers {@link Double} (or
 * {@link BigDecimal} when so parsed), arrays unmodifiable {@link List}s, objects unmodifiable
 * {@link Map}s in document order, and {@code null} {@code null}.
 *
 * <p>Changed copies come from {@link #with} and {@link #without}; to store changes, use
 * {@link ZarrNode#updateAttributes(Map)} or {@link ZarrNode#setAttributes(ObjectNode)} with
 * {@link #toJson()}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Attributes {
    private static final Attributes EMPTY = new Attributes(JsonNodeFactory.instance.objectNode());

    private final ObjectNode json;

    private Attributes(ObjectNode json) {
        this.json = json;
    }

    /** No attributes. */
    public static Attributes empty() {
        return EMPTY;
    }

    /** The attributes of a JSON object (copied). */
    public static Attributes of(ObjectNode json) {
        return new Attributes(json.deepCopy());
    }

    /**
     * The attributes of a map of values Jackson can write as JSON (strings, numbers, booleans,
     * lists, maps, arrays, Jackson nodes); null values are JSON nulls.
     *
     * @throws IllegalArgumentException naming the attribute whose value cannot be written as JSON
     */
    public static Attributes of(Map<String, ?> values) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        values.forEach((k, v) -> o.set(k, toJson(k, v)));
        return new Attributes(o);
    }

    private static JsonNode toJson(String name, Object value) {
        if (value == null) {
            return JsonNodeFactory.instance.nullNode();
        }
        if (value instanceof JsonNode n) {
            return n.deepCopy();
        }
        try {
            return Json.MAPPER.valueToTree(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("attribute '" + name + "': cannot write a "
                    + value.getClass().getName() + " as JSON: " + e.getMessage(), e);
        }
    }

    /** Whether there is an attribute of this name (its value may be JSON {@code null}). */
    public boolean contains(String name) {
        return json.has(name);
    }

    /** The attribute names, in document order. */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        json.fieldNames().forEachRemaining(names::add);
        return Collections.unmodifiableSet(names);
    }

    /** How many attributes there are. */
    public int size() {
        return json.size();
    }

    /** Whether there are none. */
    public boolean isEmpty() {
        return json.isEmpty();
    }

    /**
     * The attribute as {@code type} (see the class description); {@code null} when its value is
     * JSON {@code null}.
     *
     * @throws InvalidMetadataException naming the attribute when there is none of this name, or
     *                                  its value is not of the type
     */
    public <T> T get(String name, Class<T> type) {
        JsonNode v = json.get(name);
        if (v == null) {
            throw new InvalidMetadataException(pointer(name), "no attribute '" + name + "' (attributes: "
                    + names() + ")");
        }
        return convert(name, v, type);
    }

    /**
     * The attribute as {@code type}, or empty when there is none of this name or its value is
     * JSON {@code null}.
     *
     * @throws InvalidMetadataException naming the attribute when its value is not of the type
     */
    public <T> Optional<T> getOptional(String name, Class<T> type) {
        JsonNode v = json.get(name);
        return v == null || v.isNull() ? Optional.empty() : Optional.of(convert(name, v, type));
    }

    /** The attributes as plain Java values (see the class description), unmodifiable, in document order. */
    public Map<String, Object> asMap() {
        return plainObject(json);
    }

    /** A copy of the attributes as a JSON object. */
    public ObjectNode toJson() {
        return json.deepCopy();
    }

    /**
     * These attributes with {@code name} set to {@code value} (as {@link #of(Map)} writes it), or
     * removed when {@code value} is null (use a Jackson {@code NullNode} to store a JSON null).
     */
    public Attributes with(String name, Object value) {
        ObjectNode o = json.deepCopy();
        if (value == null) {
            o.remove(name);
        } else {
            o.set(name, toJson(name, value));
        }
        return new Attributes(o);
    }

    /** These attributes without {@code name}. */
    public Attributes without(String name) {
        return with(name, null);
    }

    /**
     * These attributes with every change applied: a value sets the attribute, a null value
     * removes it. What {@link ZarrNode#updateAttributes(Map)} stores.
     */
    public Attributes withAll(Map<String, ?> changes) {
        ObjectNode o = json.deepCopy();
        changes.forEach((k, v) -> {
            if (v == null) {
                o.remove(k);
            } else {
                o.set(k, toJson(k, v));
            }
        });
        return new Attributes(o);
    }

    private static String pointer(String name) {
        return "/attributes/" + name.replace("~", "~0").replace("/", "~1");
    }

    @SuppressWarnings("unchecked")
    private static <T> T convert(String name, JsonNode v, Class<T> type) {
        if (v.isNull()) {
            return null;
        }
        Object out = null;
        if (JsonNode.class.isAssignableFrom(type)) {
            out = type.isInstance(v) ? v.deepCopy() : null;
        } else if (type == Object.class) {
            out = plain(v);
        } else if (type == String.class) {
            out = v.isTextual() ? v.textValue() : null;
        } else if (type == Boolean.class) {
            out = v.isBoolean() ? v.booleanValue() : null;
        } else if (type == List.class) {
            out = v.isArray() ? plain(v) : null;
        } else if (type == Map.class) {
            out = v.isObject() ? plain(v) : null;
        } else if (Number.class.isAssignableFrom(type) && v.isNumber()) {
            out = number(v, type);
        } else if (!Number.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("attribute '" + name + "': cannot read as " + type.getName()
                    + "; ask for String, Boolean, a Number type, List, Map, Object or a JsonNode type");
        }
        if (out == null) {
            throw new InvalidMetadataException(pointer(name), "attribute '" + name + "' is " + kind(v) + " ("
                    + abbreviated(v) + "), not " + (Number.class.isAssignableFrom(type) && v.isNumber()
                    ? "a value of " + type.getSimpleName() : "a " + type.getSimpleName()));
        }
        return (T) out;
    }

    /** The number as {@code type}, or null when it does not fit exactly. */
    private static Object number(JsonNode v, Class<?> type) {
        if (type == Number.class) {
            return plain(v);
        }
        if (type == Double.class) {
            return v.doubleValue();
        }
        if (type == Float.class) {
            return v.floatValue();
        }
        if (!v.isIntegralNumber() && !Double.isFinite(v.doubleValue()) && !v.isBigDecimal()) {
            return null; // NaN or an infinity (an attribute set from Java) has no exact or whole value
        }
        if (type == BigDecimal.class) {
            return v.decimalValue();
        }
        BigInteger whole;
        if (v.isIntegralNumber()) {
            whole = v.bigIntegerValue();
        } else {
            BigDecimal d = v.decimalValue();
            try {
                whole = d.toBigIntegerExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }
        if (type == BigInteger.class) {
            return whole;
        }
        long min;
        long max;
        if (type == Long.class) {
            min = Long.MIN_VALUE;
            max = Long.MAX_VALUE;
        } else if (type == Integer.class) {
            min = Integer.MIN_VALUE;
            max = Integer.MAX_VALUE;
        } else if (type == Short.class) {
            min = Short.MIN_VALUE;
            max = Short.MAX_VALUE;
        } else if (type == Byte.class) {
            min = Byte.MIN_VALUE;
            max = Byte.MAX_VALUE;
        } else {
            return null;
        }
        if (whole.bitLength() > 63 || whole.longValue() < min || whole.longValue() > max) {
            return null;
        }
        long l = whole.longValue();
        return type == Long.class ? (Object) l : type == Integer.class ? (Object) (int) l
                : type == Short.class ? (Object) (short) l : (Object) (byte) l;
    }

    private static String kind(JsonNode v) {
        JsonNodeType t = v.getNodeType();
        return switch (t) {
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            default -> t.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static String abbreviated(JsonNode v) {
        String s = v.toString();
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    private static Object plain(JsonNode v) {
        switch (v.getNodeType()) {
            case STRING:
                return v.textValue();
            case BOOLEAN:
                return v.booleanValue();
            case NUMBER:
                if (v.isIntegralNumber()) {
                    return v.canConvertToLong() ? (Object) v.longValue() : v.bigIntegerValue();
                }
                return v.isBigDecimal() ? v.decimalValue() : (Object) v.doubleValue();
            case ARRAY: {
                List<Object> l = new ArrayList<>(v.size());
                for (JsonNode e : v) {
                    l.add(plain(e));
                }
                return Collections.unmodifiableList(l);
            }
            case OBJECT:
                return plainObject(v);
            default:
                return null;
        }
    }

    private static Map<String, Object> plainObject(JsonNode o) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            m.put(e.getKey(), plain(e.getValue()));
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Attributes a && json.equals(a.json);
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return json.toString();
    }
}
