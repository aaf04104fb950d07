package dev.zarrj.codec.gzip;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;

/**
 * The configuration of the {@code gzip} codec: its compression level.
 *
 * <p>Use it to build array metadata in code:
 *
 * <pre>{@code
 * codecs.add(GzipConfiguration.level(5).toJson());   // {"name":"gzip","configuration":{"level":5}}
 * }</pre>
 *
 * @param level 0 (no compression, stored blocks) to 9 (smallest output, slowest); 1 is fastest
 * @see <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/gzip/">gzip codec spec</a>
 */
public record GzipConfiguration(int level) {
    /** The codec's registered name. */
    public static final String NAME = "gzip";

    /** The lowest level: no compression. */
    public static final int MIN_LEVEL = 0;

    /** The highest level: best compression. */
    public static final int MAX_LEVEL = 9;

    /**
     * @throws InvalidMetadataException when {@code level} is outside {@code [0, 9]}
     */
    public GzipConfiguration {
        if (level < MIN_LEVEL || level > MAX_LEVEL) {
            throw new InvalidMetadataException("/configuration/level",
                    NAME + ": 'level' must be in [" + MIN_LEVEL + ", " + MAX_LEVEL + "], found " + level);
        }
    }

    /**
     * The configuration with the given level.
     *
     * @throws InvalidMetadataException when {@code level} is outside {@code [0, 9]}
     */
    public static GzipConfiguration level(int level) {
        return new GzipConfiguration(level);
    }

    /** The {@code configuration} object, {@code {"level": n}}; a fresh node owned by the caller. */
    public ObjectNode configurationJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("level", level);
        return node;
    }

    /**
     * The codec entry for an array's {@code codecs}, {@code {"name": "gzip", "configuration":
     * {"level": n}}}; a fresh node owned by the caller.
     */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", NAME);
        node.set("configuration", configurationJson());
        return node;
    }
}
