package dev.zarrj.store.s3;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.store.Store;
import dev.zarrj.store.s3.internal.S3Location;
import dev.zarrj.store.s3.internal.S3Store;
import java.net.URI;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Opens S3 stores from {@code s3://bucket/prefix?option=value} URIs; the options are listed in
 * the module's documentation ({@code endpoint}, {@code region}, {@code path-style},
 * {@code anonymous}, {@code multipart-threshold}, {@code part-size},
 * {@code conditional-writes}). The store owns its client: close it.
 *
 * <p>Conditional writes ({@link Store#conditionalWrites()}) need a service that honours S3's
 * {@code If-Match} and {@code If-None-Match} headers: they are on by default for AWS S3 and off
 * for any other endpoint, where {@code conditional-writes=true} turns them on. A service that
 * ignores the headers while the store claims the capability would lose writes silently.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class S3Stores {
    private S3Stores() {}

    /**
     * Opens the store an {@code s3:} URI names, with the process's environment for the AWS
     * conventions ({@code AWS_ENDPOINT_URL_S3}, {@code AWS_ENDPOINT_URL}).
     *
     * @throws IllegalArgumentException when the URI is not a valid {@code s3:} URI
     * @throws dev.zarrj.api.StoreException when the client cannot be built
     */
    public static Store open(URI uri, boolean readOnly) {
        return new S3Store(S3Location.parse(uri, System.getenv()), readOnly);
    }

    /** As {@link #open(URI, boolean)}, with {@code environment} in place of the process's. */
    public static Store open(URI uri, boolean readOnly, Map<String, String> environment) {
        return new S3Store(S3Location.parse(uri, environment), readOnly);
    }
}
