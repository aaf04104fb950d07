package dev.zarrj.core;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.codec.CodecConfiguration;
import org.apiguardian.api.API;

/**
 * The {@code crc32c} codec, which has no configuration: it appends a CRC-32C checksum to each
 * chunk, checked on every read. It goes after the array→bytes codec and any compressor.
 *
 * <pre>{@code
 * zarr.array(DataTypes.INT32, 1000).codec(Crc32cConfiguration.of()).create(store, "/checked");
 * }</pre>
 *
 * @see <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/crc32c/">crc32c codec spec</a>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record Crc32cConfiguration() implements CodecConfiguration {
    /** The codec's registered name. */
    public static final String NAME = "crc32c";

    private static final Crc32cConfiguration INSTANCE = new Crc32cConfiguration();

    /** The codec. */
    public static Crc32cConfiguration of() {
        return INSTANCE;
    }

    /** The codec's registered name, {@value #NAME}. */
    @Override
    public String name() {
        return NAME;
    }

    /** An empty object: the codec has no configuration. */
    @Override
    public ObjectNode configurationJson() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
