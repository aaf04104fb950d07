package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The {@code configuration} of one extension object in metadata, with readers that validate each
 * field and report errors that name the JSON pointer, the value and what is allowed.
 *
 * <p>Immutable. A provider typically calls {@link #rejectUnknownFields} with the fields it knows,
 * then reads each field:
 *
 * <pre>{@code
 * config.rejectUnknownFields("level");
 * int level = config.intField("level", 0, 9);
 * }</pre>
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ExtensionConfig {
    private final String name;
    private final ObjectNode json;
    private final String pointer;

    private ExtensionConfig(String name, ObjectNode json, String pointer) {
        this.name = name;
        this.json = json;
        this.pointer = pointer;
    }

    /**
     * Wraps a configuration.
     *
     * @param name          the extension's name, for messages
     * @param configuration the configuration object, or null / missing for none
     * @param pointer       JSON pointer of the configuration object in its document
     * @throws InvalidMetadataException when {@code configuration} is present but not an object
     */
    public static ExtensionConfig of(String name, JsonNode configuration, String pointer) {
        if (configuration == null || configuration.isMissingNode() || configuration.isNull()) {
            return new ExtensionConfig(name, JsonNodeFactory.instance.objectNode(), pointer);
        }
        if (!configuration.isObject()) {
            throw new InvalidMetadataException(pointer, "the configuration of '" + name
                    + "' must be a JSON object, found " + configuration);
        }
        return new ExtensionConfig(name, ((ObjectNode) configuration).deepCopy(), pointer);
    }

    /** An empty configuration, for creating extensions in code. */
    public static ExtensionConfig empty(String name) {
        return new ExtensionConfig(name, JsonNodeFactory.instance.objectNode(), "/configuration");
    }

    /** The extension's name. */
    public String name() {
        return name;
    }

    /** A copy of the configuration object. */
    public ObjectNode json() {
        return json.deepCopy();
    }

    /** JSON pointer of the configuration object. */
    public String pointer() {
        return pointer;
    }

    /** JSON pointer of one field of the configuration. */
    public String pointer(String field) {
        return pointer + "/" + field.replace("~", "~0").replace("/", "~1");
    }

    /** Whether the field is present (and not JSON null). */
    public boolean has(String field) {
        JsonNode n = json.get(field);
        return n != null && !n.isNull();
    }

    /** The raw field, if present. */
    public Optional<JsonNode> field(String field) {
        return Optional.ofNullable(json.get(field));
    }

    /** An error about one field, naming its pointer. */
    public InvalidMetadataException error(String field, String message) {
        return new InvalidMetadataException(pointer(field), name + ": " + message);
    }

    /**
     * Fails when the configuration has a field not in {@code allowed}.
     *
     * @throws InvalidMetadataException naming the unknown field and the allowed ones
     */
    public void rejectUnknownFields(String... allowed) {
        Set<String> ok = Set.of(allowed);
        Iterator<String> it = json.fieldNames();
        while (it.hasNext()) {
            String f = it.next();
            if (!ok.contains(f)) {
                throw error(f, "unknown configuration field '" + f + "'; allowed: "
                        + (allowed.length == 0 ? "none" : String.join(", ", sorted(allowed))));
            }
        }
    }

    private static List<String> sorted(String[] names) {
        String[] copy = names.clone();
        Arrays.sort(copy);
        return List.of(copy);
    }

    private JsonNode required(String field) {
        JsonNode n = json.get(field);
        if (n == null || n.isNull()) {
            throw error(field, "required field '" + field + "' is missing");
        }
        return n;
    }

    /**
     * A required integer field within {@code [min, max]}.
     *
     * @throws InvalidMetadataException when missing, not an integer, or out of range
     */
    public int intField(String field, int min, int max) {
        return (int) longValue(field, required(field), min, max);
    }

    /** An optional integer field within {@code [min, max]}, {@code defaultValue} when absent. */
    public int intField(String field, int min, int max, int defaultValue) {
        return has(field) ? intField(field, min, max) : defaultValue;
    }

    /** A required integer field within {@code [min, max]}, as a long. */
    public long longField(String field, long min, long max) {
        return longValue(field, required(field), min, max);
    }

    private long longValue(String field, JsonNode n, long min, long max) {
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw error(field, "'" + field + "' must be an integer in [" + min + ", " + max + "], found " + n);
        }
        long v = n.longValue();
        if (v < min || v > max) {
            throw error(field, "'" + field + "' must be in [" + min + ", " + max + "], found " + v);
        }
        return v;
    }

    /** A required boolean field. */
    public boolean booleanField(String field) {
        JsonNode n = required(field);
        if (!n.isBoolean()) {
            throw error(field, "'" + field + "' must be true or false, found " + n);
        }
        return n.booleanValue();
    }

    /** An optional boolean field, {@code defaultValue} when absent. */
    public boolean booleanField(String field, boolean defaultValue) {
        return has(field) ? booleanField(field) : defaultValue;
    }

    /**
     * A required string field whose value is one of {@code allowed} (any string when none given).
     */
    public String stringField(String field, String... allowed) {
        JsonNode n = required(field);
        if (!n.isTextual()) {
            throw error(field, "'" + field + "' must be a string" + allowedList(allowed) + ", found " + n);
        }
        String v = n.textValue();
        if (allowed.length > 0 && !Arrays.asList(allowed).contains(v)) {
            throw error(field, "'" + field + "' must be" + allowedList(allowed) + ", found \"" + v + "\"");
        }
        return v;
    }

    /** An optional string field whose value is one of {@code allowed}. */
    public Optional<String> optionalStringField(String field, String... allowed) {
        return has(field) ? Optional.of(stringField(field, allowed)) : Optional.empty();
    }

    private static String allowedList(String[] allowed) {
        if (allowed.length == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" one of ");
        for (int i = 0; i < allowed.length; i++) {
            sb.append(i == 0 ? "" : ", ").append('"').append(allowed[i]).append('"');
        }
        return sb.toString();
    }

    /**
     * A required array of integers, each within {@code [min, max]}.
     *
     * @throws InvalidMetadataException naming the element that is wrong
     */
    public long[] longArrayField(String field, long min, long max) {
        JsonNode n = required(field);
        if (!n.isArray()) {
            throw error(field, "'" + field + "' must be an array of integers, found " + n);
        }
        long[] out = new long[n.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode e = n.get(i);
            if (!e.isIntegralNumber() || !e.canConvertToLong() || e.longValue() < min || e.longValue() > max) {
                throw new InvalidMetadataException(pointer(field) + "/" + i, name + ": '" + field
                        + "' must hold integers in [" + min + ", " + max + "], found " + e);
            }
            out[i] = e.longValue();
        }
        return out;
    }

    /** A required array of integers within {@code [min, max]}, as ints. */
    public int[] intArrayField(String field, int min, int max) {
        long[] v = longArrayField(field, min, max);
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (int) v[i];
        }
        return out;
    }

    /** A required field of any JSON type. */
    public JsonNode nodeField(String field) {
        return required(field);
    }

    @Override
    public String toString() {
        return name + json;
    }
}
