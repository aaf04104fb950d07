package dev.zarrj.codec.zstd;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.CodecConfiguration;
import org.apiguardian.api.API;

/**
 * The configuration of the {@code zstd} codec: compression level and whether frames carry a
 * content checksum.
 *
 * <p>Give it to the array builder (it goes after the {@code bytes} codec), or use
 * {@link #toJson()} to build metadata by hand:
 *
 * <pre>{@code
 * zarr.array(DataTypes.UINT16, 1024, 1024).chunks(256, 256)
 *         .codec(ZstdConfiguration.of(3, true))    // {"name":"zstd","configuration":{"level":3,"checksum":true}}
 *         .create(store, "/image");
 * }</pre>
 *
 * @param level    -131072 (fastest) to 22 (smallest output); 0 means zstd's default level (3).
 *                 It affects encoding only.
 * @param checksum whether encoded frames carry a content checksum, verified when decoding
 * @see <a href="https://github.com/zarr-developers/zarr-extensions/tree/main/codecs/zstd">zstd
 *      codec in the zarr-extensions registry</a>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record ZstdConfiguration(int level, boolean checksum) implements CodecConfiguration {
    /** The codec's registered name. */
    public static final String NAME = "zstd";

    /** The lowest level zstd accepts: the fastest, with the least compression. */
    public static final int MIN_LEVEL = -131072;

    /** The highest level: best compression. */
    public static final int MAX_LEVEL = 22;

    /** The level used when metadata leaves it out: zstd's default. */
    public static final int DEFAULT_LEVEL = 0;

    /** Whether frames carry a checksum when metadata leaves it out. */
    public static final boolean DEFAULT_CHECKSUM = false;

    /**
     * @throws InvalidMetadataException when {@code level} is outside {@code [-131072, 22]}
     */
    public ZstdConfiguration {
        if (level < MIN_LEVEL || level > MAX_LEVEL) {
            throw new InvalidMetadataException("/configuration/level",
                    NAME + ": 'level' must be in [" + MIN_LEVEL + ", " + MAX_LEVEL + "], found " + level);
        }
    }

    /**
     * The configuration with the given level and checksum setting.
     *
     * @throws InvalidMetadataException when {@code level} is outside {@code [-131072, 22]}
     */
    public static ZstdConfiguration of(int level, boolean checksum) {
        return new ZstdConfiguration(level, checksum);
    }

    /**
     * The configuration with the given level and no checksum.
     *
     * @throws InvalidMetadataException when {@code level} is outside {@code [-131072, 22]}
     */
    public static ZstdConfiguration level(int level) {
        return new ZstdConfiguration(level, DEFAULT_CHECKSUM);
    }

    /** The defaults: level 0 (zstd's default) and no checksum. */
    public static ZstdConfiguration defaults() {
        return new ZstdConfiguration(DEFAULT_LEVEL, DEFAULT_CHECKSUM);
    }

    /** The codec's registered name, {@value #NAME}. */
    @Override
    public String name() {
        return NAME;
    }

    /**
     * The {@code configuration} object with both fields, {@code {"level": n, "checksum": b}}; a
     * fresh node owned by the caller.
     */
    @Override
    public ObjectNode configurationJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("level", level);
        node.put("checksum", checksum);
        return node;
    }

    /**
     * The codec entry for an array's {@code codecs}, {@code {"name": "zstd", "configuration":
     * {...}}}; a fresh node owned by the caller.
     */
    @Override
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", NAME);
        node.set("configuration", configurationJson());
        return node;
    }
}
