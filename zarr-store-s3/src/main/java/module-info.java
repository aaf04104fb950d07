import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.store.s3.internal.S3StoreProvider;

/**
 * The S3 store: Zarr keys as the objects of a bucket under a prefix, opened from an
 * {@code s3://bucket/prefix} URI (found by its scheme through {@link StoreProvider}) or with
 * {@link dev.zarrj.store.s3.S3Stores}. Works with AWS S3 and S3-compatible services.
 *
 * <h2>Options</h2>
 * Given as URI query parameters, so that the same text works in code, in {@code Zarr.openArray}
 * and on the command line ({@code zarr info 's3://bucket/data.zarr?anonymous=true'}):
 * <ul>
 *   <li>{@code endpoint=http://127.0.0.1:9000} — an S3-compatible service. Without it the
 *       {@code AWS_ENDPOINT_URL_S3} and then {@code AWS_ENDPOINT_URL} environment variables apply,
 *       and without those AWS S3's own endpoints.</li>
 *   <li>{@code region=eu-west-1} — without it the SDK's default region chain applies
 *       ({@code AWS_REGION}, the {@code aws.region} system property, the profile file; not the
 *       instance metadata service); when that
 *       finds none, {@code us-east-1} with cross-region access, so a public bucket opens without
 *       knowing its region.</li>
 *   <li>{@code path-style=true|false} — path-style addressing ({@code http://host/bucket/key}).
 *       Default: true when the endpoint's host is {@code localhost} or an IP address, else
 *       false (virtual-hosted style, {@code http://bucket.host/key}).</li>
 *   <li>{@code anonymous=true} — unsigned requests, for public buckets. Otherwise credentials
 *       come from the SDK's default chain (environment, system properties, profile files, web
 *       identity, container and instance roles).</li>
 *   <li>{@code multipart-threshold=16777216}, {@code part-size=8388608} — values larger than
 *       the threshold are uploaded in parts of this size (S3 requires at least 5 MiB per part
 *       but the last).</li>
 *   <li>{@code conditional-writes=true|false} — whether the store offers conditional writes
 *       ({@link dev.zarrj.api.store.Store#conditionalWrites()}), with which concurrent partial
 *       writes of one chunk or shard from several processes lose nothing and of two processes
 *       creating one array only-if-absent exactly one wins. They are S3's {@code If-None-Match: *}
 *       and {@code If-Match: <etag>} on {@code PutObject} (and on
 *       {@code CompleteMultipartUpload} for values above the multipart threshold), so they need a
 *       service that honours those headers: AWS S3 does (since 2024), but many S3-compatible
 *       services ignore them and overwrite, which would lose writes silently (s3proxy 2.7.0 does).
 *       Default: true on AWS S3's own endpoints (no endpoint given), false with an endpoint
 *       ({@code endpoint=}, {@code AWS_ENDPOINT_URL_S3}, {@code AWS_ENDPOINT_URL}); give
 *       {@code conditional-writes=true} for a service known to honour them (Adobe S3Mock,
 *       which the tests use, does; check your service's documentation).</li>
 * </ul>
 *
 * <h2>Behaviour</h2>
 * Keys map to object names exactly: the object of key {@code k} is {@code prefix + "/" + k};
 * keys are validated by {@code StoreKey}, so none leaves the prefix. Objects under the prefix
 * whose names are not valid keys (folder markers ending in {@code /}, names with empty segments)
 * are not listed. Ranged reads send {@code Range: bytes=a-b} (or {@code bytes=-n}) and check
 * the answer's {@code Content-Range} and length: a server that ignores the range is an error,
 * never silently the wrong bytes. Values above the multipart threshold are uploaded in parts
 * sent concurrently (an interrupted upload is aborted; one whose process died, killed in the
 * middle, stays, with its parts, until aborted: {@code leftovers()} lists the unfinished uploads
 * under the prefix and {@code removeLeftovers} aborts them, as {@code zarr verify --clean} does); {@code erase_values} and
 * {@code erase_prefix} delete up to 1000 objects per {@code DeleteObjects} request. A
 * conditional write answered 412 Precondition Failed stores nothing and returns false (as does
 * {@code If-Match} answered 404: the key was erased); one answered 409 ConditionalRequestConflict
 * (another write to the key in progress) is retried up to 8 times after a short random pause, as
 * AWS asks. The version of a value is its ETag. Throttling
 * answers and 5xx are retried by the SDK's standard retry strategy (6 attempts, exponential
 * backoff with jitter); each attempt times out after 2 minutes, connecting after 10 s. An absent
 * object (404) is an absent key; every other failure is a
 * {@link dev.zarrj.api.StoreException} naming the bucket, key and HTTP status.
 *
 * <h2>Why this HTTP client</h2>
 * The store uses the SDK's asynchronous {@code S3AsyncClient} on the Netty NIO client
 * ({@code netty-nio-client}): it is pure Java (no native library per platform, unlike the AWS
 * CRT client), is the SDK's default asynchronous client and so the one most S3-compatible
 * services are tested with, keeps many requests in flight on a few event-loop threads (up to 64
 * connections per store, which is the store's {@code ioConcurrency}), and its jars carry {@code Automatic-Module-Name}s, so the store works
 * on the module path. The client is built explicitly, not found by the SDK's
 * {@code ServiceLoader} lookup, so nothing depends on service files being visible. The asynchronous
 * {@code Store} methods ({@code getAsync}, {@code getPartialValuesAsync}, {@code setAsync},
 * {@code eraseAsync}) complete from the client's callbacks, so no thread waits per request; the
 * blocking methods wait for them. Several ranges ({@code get_partial_values}) are requested
 * concurrently.
 *
 * <p>Request checksums are computed only where S3 requires them, and response checksums are
 * checked only where required (the SDK's {@code WHEN_REQUIRED}): many S3-compatible services do
 * not accept the trailing checksums the SDK sends by default since 2.30.
 *
 * @provides StoreProvider {@code s3}
 */
module dev.zarrj.store.s3 {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    requires software.amazon.awssdk.services.s3;
    requires software.amazon.awssdk.http.nio.netty;
    requires software.amazon.awssdk.awscore;
    requires software.amazon.awssdk.core;
    requires software.amazon.awssdk.auth;
    requires software.amazon.awssdk.regions;
    requires software.amazon.awssdk.http;
    requires software.amazon.awssdk.retries.api;
    requires software.amazon.awssdk.retries;
    // Netty, an automatic module, reads every resolved module but resolves none: without this,
    // jdk.unsupported (sun.misc.Unsafe) is not in the graph on the module path and Netty falls
    // back to slower buffers, saying so on standard error.
    requires jdk.unsupported;

    exports dev.zarrj.store.s3;

    provides StoreProvider with S3StoreProvider;
}
