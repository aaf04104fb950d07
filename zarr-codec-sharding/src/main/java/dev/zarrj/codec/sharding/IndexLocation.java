package dev.zarrj.codec.sharding;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Where a shard keeps its index: the {@code index_location} of the {@code sharding_indexed} codec.
 * Either way the index is read with one ranged request of its fixed size.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public enum IndexLocation {
    /** The first bytes of the shard; inner chunks follow it. */
    START("start"),
    /** The last bytes of the shard, after the inner chunks; the spec's default. */
    END("end");

    private final String json;

    IndexLocation(String json) {
        this.json = json;
    }

    /** The value as written in metadata: {@code "start"} or {@code "end"}. */
    public String json() {
        return json;
    }

    /** The location written as {@code value} in metadata, or empty for any other string. */
    public static Optional<IndexLocation> fromJson(String value) {
        for (IndexLocation l : values()) {
            if (l.json.equals(value)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }
}
