package dev.zarrj.core;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.codec.CodecConfiguration;
import java.nio.ByteOrder;
import org.apiguardian.api.API;

/**
 * The configuration of the {@code bytes} codec, the array→bytes codec every array has unless
 * another one (such as sharding) takes its place: the byte order of multi-byte elements.
 *
 * <p>The array builder adds {@link #LITTLE_ENDIAN} by itself; give this only for another order,
 * or to spell out a whole chain:
 *
 * <pre>{@code
 * zarr.array(DataTypes.FLOAT64, 1000).codec(BytesConfiguration.BIG_ENDIAN).create(store, "/x");
 * }</pre>
 *
 * @param endian the byte order, or null for none: allowed only for data types whose elements are
 *               single bytes; with another data type, creating the array fails naming the codec
 * @see <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/bytes/">bytes codec spec</a>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record BytesConfiguration(ByteOrder endian) implements CodecConfiguration {
    /** The codec's registered name. */
    public static final String NAME = "bytes";

    /** Little endian, the default. */
    public static final BytesConfiguration LITTLE_ENDIAN = new BytesConfiguration(ByteOrder.LITTLE_ENDIAN);

    /** Big endian. */
    public static final BytesConfiguration BIG_ENDIAN = new BytesConfiguration(ByteOrder.BIG_ENDIAN);

    /** Without {@code endian}, for data types whose elements are single bytes. */
    public static final BytesConfiguration NO_ENDIAN = new BytesConfiguration(null);

    /** The configuration with this byte order. */
    public static BytesConfiguration of(ByteOrder endian) {
        return new BytesConfiguration(java.util.Objects.requireNonNull(endian, "endian"));
    }

    /** The codec's registered name, {@value #NAME}. */
    @Override
    public String name() {
        return NAME;
    }

    /** {@code {"endian": "little"}} or {@code "big"}; empty when no order is given. */
    @Override
    public ObjectNode configurationJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (endian != null) {
            node.put("endian", endian == ByteOrder.LITTLE_ENDIAN ? "little" : "big");
        }
        return node;
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
