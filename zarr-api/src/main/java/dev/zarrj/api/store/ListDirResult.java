package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The result of {@code list_dir}: keys directly under a prefix, and the child prefixes (each
 * ending in {@code /}), both sorted.
 *
 * @param keys     keys with no further {@code /} after the prefix
 * @param prefixes child prefixes, each ending in {@code /}
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ListDirResult(List<StoreKey> keys, List<String> prefixes) {
    public ListDirResult {
        keys = List.copyOf(keys);
        prefixes = List.copyOf(prefixes);
    }
}
