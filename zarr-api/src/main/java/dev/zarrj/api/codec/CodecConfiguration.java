package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.Extension;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * One entry of an array's {@code codecs} as a typed value: the codec's name and its
 * configuration. Users build arrays with these instead of JSON text; each codec module exports
 * one for its codec ({@code GzipConfiguration}, {@code ZstdConfiguration},
 * {@code BloscConfiguration}, {@code ShardingConfiguration}, and in {@code dev.zarrj.core}
 * {@code BytesConfiguration}, {@code TransposeConfiguration}, {@code Crc32cConfiguration}).
 * {@link #of(String, Map)} names any other codec, such as one from a plugin without a typed
 * configuration:
 *
 * <pre>{@code
 * zarr.array(DataTypes.FLOAT32, 1000, 1000)
 *         .chunks(100, 100)
 *         .codec(GzipConfiguration.level(5))
 *         .codec(CodecConfiguration.of("bitround", Map.of("keepbits", 10)))
 *         .create(store, "/temperature");
 * }</pre>
 *
 * <p>Implementations are immutable values. The configuration is checked when an array is created
 * with it, by the codec's provider, with errors that name the codec and the field; a typed
 * configuration may check its fields earlier, when it is constructed.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface CodecConfiguration {
    /** The codec's registered name, as written in metadata (for example {@code "gzip"}). */
    String name();

    /**
     * The {@code configuration} object, empty for a codec that has none; a fresh node owned by
     * the caller.
     */
    ObjectNode configurationJson();

    /**
     * The entry for an array's {@code codecs}, {@code {"name": ..., "configuration": {...}}}, with
     * {@code configuration} left out when it is empty; a fresh node owned by the caller.
     */
    default ObjectNode toJson() {
        return Extension.entry(name(), configurationJson());
    }

    /**
     * A codec by name, without configuration (for example {@code of("crc32c")}).
     *
     * @throws IllegalArgumentException when the name is empty
     */
    static CodecConfiguration of(String name) {
        return new NamedCodecConfiguration(name, JsonNodeFactory.instance.objectNode());
    }

    /**
     * A codec by name with a configuration of JSON-compatible values ({@link Number},
     * {@link Boolean}, {@link String}, lists, maps, {@link JsonNode}s); null or empty for none.
     *
     * @throws IllegalArgumentException when the name is empty or a value has no JSON form
     */
    static CodecConfiguration of(String name, Map<String, ?> configuration) {
        return new NamedCodecConfiguration(name, NamedCodecConfiguration.toObject(configuration));
    }

    /**
     * A codec by name with its configuration object as JSON; null for none.
     *
     * @throws IllegalArgumentException when the name is empty or the configuration is not a JSON
     *                                  object
     */
    static CodecConfiguration of(String name, JsonNode configuration) {
        return new NamedCodecConfiguration(name, NamedCodecConfiguration.toObject(configuration));
    }

    /**
     * A codec entry of metadata, {@code {"name": ..., "configuration": {...}}}, as a value
     * (fields other than these two, such as {@code must_understand}, are not kept).
     *
     * @throws IllegalArgumentException when the entry is not an object with a string {@code name}
     */
    static CodecConfiguration fromJson(JsonNode entry) {
        if (entry == null || !entry.isObject() || !entry.path("name").isTextual()) {
            throw new IllegalArgumentException("a codec entry is an object with a string 'name', found " + entry);
        }
        return of(entry.get("name").textValue(), entry.get("configuration"));
    }
}
