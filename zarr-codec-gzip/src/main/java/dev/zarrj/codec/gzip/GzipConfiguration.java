package dev.zarrj.codec.gzip;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.CodecConfiguration;
import org.apiguardian.api.API;

/**
 * The configuration of the {@code gzip} codec: its compression level.
 *
 * <p>Give it to the array builder (it goes after the {@code bytes} codec), or use
 * {@link #toJson()} to build metadata by hand:
 *
 * <pre>{@code
 * zarr.array(DataTypes.FLOAT32, 1000, 1000).chunks(100, 100)
 *         .codec(GzipConfiguration.level(5))       // {"name":"gzip","configuration":{"level":5}}
 *         .create(store, "/temperature");
 * }</pre>
 *
 * @param level 0 (no compression, stored blocks) to 9 (smallest output, slowest); 1 is fastest
 * @see <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/gzip/">gzip codec spec</a>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record GzipConfiguration(int level) implements CodecConfiguration {
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

    /** The codec's registered name, {@value #NAME}. */
    @Override
    public String name() {
        return NAME;
    }

    /** The {@code configuration} object, {@code {"level": n}}; a fresh node owned by the caller. */
    @Override
    public ObjectNode configurationJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("level", level);
        return node;
    }

    /**
     * The codec entry for an array's {@code codecs}, {@code {"name": "gzip", "configuration":
     * {"level": n}}}; a fresh node owned by the caller.
     */
    @Override
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", NAME);
        node.set("configuration", configurationJson());
        return node;
    }
}
