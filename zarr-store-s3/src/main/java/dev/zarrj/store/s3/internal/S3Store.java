package dev.zarrj.store.s3.internal;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ValueChangedException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;
import software.amazon.awssdk.regions.providers.AwsRegionProviderChain;
import software.amazon.awssdk.regions.providers.SystemSettingsRegionProvider;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A {@link Store} over the objects of one bucket under one prefix, on {@link S3AsyncClient}: the
 * asynchronous methods complete from the client's callbacks, each blocking method waits for its
 * asynchronous one. See the module documentation.
 */
public final class S3Store implements Store {
    static final int MAX_CONCURRENCY = 64;
    static final int MAX_ATTEMPTS = 6;
    static final int DELETE_BATCH = 1000;
    /** Attempts of a conditional write that S3 answers with 409 ConditionalRequestConflict. */
    static final int CONFLICT_ATTEMPTS = 8;
    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");
    /** The multipart uploads this JVM has started and not yet completed or aborted: live leftovers. */
    private static final Set<String> UPLOADING = ConcurrentHashMap.newKeySet();

    private final S3Location location;
    private final boolean readOnly;
    private final S3AsyncClient s3;
    /** Whether DeleteObjects works here; false after the service answered it with 501. */
    private volatile boolean batchDeletes = true;
    private final Optional<ConditionalWrites> conditional;

    public S3Store(S3Location location, boolean readOnly) {
        this.location = location;
        this.readOnly = readOnly;
        try {
            this.s3 = client(location);
        } catch (RuntimeException e) {
            throw new StoreException(location.describe() + ": cannot create the S3 client: " + e.getMessage(), e);
        }
        this.conditional = location.conditionalWrites() ? Optional.of(new Conditional()) : Optional.empty();
    }

    private static S3AsyncClient client(S3Location loc) {
        S3AsyncClientBuilder b = S3AsyncClient.builder()
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .maxConcurrency(MAX_CONCURRENCY)
                        .connectionTimeout(Duration.ofSeconds(10))
                        .readTimeout(Duration.ofSeconds(60))
                        .writeTimeout(Duration.ofSeconds(60)))
                .overrideConfiguration(c -> c
                        .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(MAX_ATTEMPTS).build())
                        .apiCallAttemptTimeout(Duration.ofMinutes(2)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .forcePathStyle(loc.pathStyle())
                .credentialsProvider(loc.anonymous()
                        ? AnonymousCredentialsProvider.create()
                        : DefaultCredentialsProvider.create());
        loc.endpoint().ifPresent(b::endpointOverride);
        Optional<Region> region = loc.region().map(Region::of).or(S3Store::defaultRegion);
        if (region.isPresent()) {
            b.region(region.get());
        } else {
            b.region(Region.US_EAST_1).crossRegionAccessEnabled(loc.endpoint().isEmpty());
        }
        return b.build();
    }

    private static Optional<Region> defaultRegion() {
        try {
            // The environment, system properties and profile files; not the instance metadata service,
            // which would cost a network timeout off EC2 (without a region, cross-region access applies).
            return Optional.ofNullable(new AwsRegionProviderChain(new SystemSettingsRegionProvider(),
                    new AwsProfileRegionProvider()).getRegion());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public StoreCapabilities capabilities() {
        return readOnly ? StoreCapabilities.READ_ONLY : StoreCapabilities.READ_WRITE;
    }

    @Override
    public String describe() {
        return location.describe();
    }

    /** As many requests as the client keeps in flight (its connections). */
    @Override
    public int ioConcurrency() {
        return MAX_CONCURRENCY;
    }

    /** Present when the location says the service honours {@code If-Match} and {@code If-None-Match}. */
    @Override
    public Optional<ConditionalWrites> conditionalWrites() {
        return conditional;
    }

    private String object(StoreKey key) {
        return location.prefix() + key.value();
    }

    // ---- readable ----

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        return join(getAsync(key), key);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        return join(getAsync(key, range), key);
    }

    @Override
    public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
        return join(getPartialValuesAsync(ranges), null);
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
        return settle(fetch(key, null), "get", key);
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
        if (range == null) {
            return CompletableFuture.failedFuture(new NullPointerException("range"));
        }
        return settle(fetch(key, range), "get", key);
    }

    /** A value or a range of it; {@code range == null} or from 0 reads the whole value. */
    private CompletableFuture<Optional<ByteBuffer>> fetch(StoreKey key, ByteRange requested) {
        return fetch(key, requested, null).thenApply(Got::bytes);
    }

    /**
     * What one GET answered: the bytes (empty when absent) and the object's ETag, null when the
     * answer carried none (an empty range, answered from the size).
     */
    private record Got(Optional<ByteBuffer> bytes, String etag) {}

    /**
     * A value or a range of it, with the ETag of the object it came from; with {@code ifMatch},
     * only from the object of that ETag: S3 answers 412 when the object has another one, which
     * fails the future with a {@link ValueChangedException}.
     */
    private CompletableFuture<Got> fetch(StoreKey key, ByteRange requested, String ifMatch) {
        ByteRange range = requested instanceof ByteRange.From f && f.start() == 0 ? null : requested;
        String header = rangeHeader(range);
        if (range != null && header == null) {
            // An empty range cannot be written as an HTTP range: the size decides.
            return sizeAsync(key).thenApply(size -> new Got(size.isEmpty()
                    ? Optional.<ByteBuffer>empty()
                    : Optional.of(emptyWithin(key, range, size.getAsLong())), null));
        }
        return s3.getObject(r -> r.bucket(location.bucket()).key(object(key)).range(header).ifMatch(ifMatch),
                        AsyncResponseTransformer.toBytes())
                .handle((bytes, error) -> {
                    if (error == null) {
                        String etag = bytes.response().eTag();
                        return CompletableFuture.completedFuture(new Got(Optional.of(checked(key, range, bytes)),
                                etag == null || etag.isEmpty() ? null : etag));
                    }
                    int status = status(error);
                    if (status == 412 && ifMatch != null) {
                        return CompletableFuture.<Got>failedFuture(new ValueChangedException(where("get", key)
                                + ": replaced while being read (If-Match " + ifMatch + " answered HTTP 412)", error));
                    }
                    if (absent(error)) {
                        return CompletableFuture.completedFuture(new Got(Optional.<ByteBuffer>empty(), null));
                    }
                    if (status == 416 && range != null) {
                        // Unsatisfiable: absent, an empty range at the end, or outside the value.
                        return sizeAsync(key).thenApply(size -> new Got(size.isEmpty()
                                ? Optional.<ByteBuffer>empty()
                                : Optional.of(emptyWithin(key, range, size.getAsLong())), null));
                    }
                    return CompletableFuture.<Got>failedFuture(failure("get", key, error));
                })
                .thenCompose(f -> f);
    }

    /**
     * Reads whose ranges all come from one version of the value, at no extra request: the ETag of
     * the first answer that found the value goes with every later request as {@code If-Match}, and
     * a 412 (replaced), a 404 (erased) or an answer with another ETag throws
     * {@link ValueChangedException}. Ranges requested together before any ETag is known go out at
     * once and their answers' ETags must agree. An answer without an ETag (a service that sends
     * none) cannot be checked: such a service reads as the default reader does.
     */
    @Override
    public RangeReader rangeReader(StoreKey key) {
        java.util.Objects.requireNonNull(key, "key");
        return new RangeReader() {
            /** The ETag of the value read first, once an answer carried one. */
            private final java.util.concurrent.atomic.AtomicReference<String> version =
                    new java.util.concurrent.atomic.AtomicReference<>();

            @Override
            public Optional<ByteBuffer> get(ByteRange range) {
                return join(getAllAsync(List.of(range)), key).get(0);
            }

            @Override
            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges) {
                return join(getAllAsync(ranges), key);
            }

            @Override
            public CompletableFuture<List<Optional<ByteBuffer>>> getAllAsync(List<ByteRange> ranges) {
                String want = version.get();
                List<CompletableFuture<Got>> parts = new ArrayList<>(ranges.size());
                for (ByteRange r : ranges) {
                    if (r == null) {
                        return CompletableFuture.failedFuture(new NullPointerException("range"));
                    }
                    parts.add(fetch(key, r, want));
                }
                return settle(CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0])).thenApply(v -> {
                    List<Optional<ByteBuffer>> out = new ArrayList<>(parts.size());
                    String seen = want;
                    for (CompletableFuture<Got> part : parts) {
                        Got got = part.join();
                        if (got.bytes().isEmpty() && seen != null) {
                            throw new ValueChangedException(where("get", key) + ": erased while being read"
                                    + " (version " + seen + " was read before)", null);
                        }
                        if (got.etag() != null) {
                            if (seen == null) {
                                seen = got.etag();
                            } else if (!seen.equals(got.etag())) {
                                throw new ValueChangedException(where("get", key) + ": replaced while being read"
                                        + " (ETag " + seen + ", then " + got.etag() + ")", null);
                            }
                        }
                        out.add(got.bytes());
                    }
                    if (want == null && seen != null && !version.compareAndSet(null, seen)
                            && !seen.equals(version.get())) {
                        // Another read of this reader, made at the same time, saw another version.
                        throw new ValueChangedException(where("get", key) + ": replaced while being read"
                                + " (ETag " + version.get() + ", then " + seen + ")", null);
                    }
                    return out;
                }), "get", key);
            }

            /** Known from the first answer: true when it carried an ETag. */
            @Override
            public boolean versioned() {
                return version.get() != null;
            }
        };
    }

    /** {@code bytes=a-b}, {@code bytes=a-}, {@code bytes=-n}; null for the whole value or an empty range. */
    static String rangeHeader(ByteRange range) {
        if (range == null) {
            return null;
        }
        if (range instanceof ByteRange.Bounded b) {
            return b.length() == 0 ? null : "bytes=" + b.start() + "-" + (b.start() + b.length() - 1);
        }
        if (range instanceof ByteRange.From f) {
            return "bytes=" + f.start() + "-";
        }
        ByteRange.Suffix s = (ByteRange.Suffix) range;
        return s.length() == 0 ? null : "bytes=-" + s.length();
    }

    /** An empty buffer when {@code range} is an empty range inside a value of {@code size} bytes. */
    private ByteBuffer emptyWithin(StoreKey key, ByteRange range, long size) {
        long[] r;
        try {
            r = range.resolve(size);
        } catch (IllegalArgumentException e) {
            throw error(where("get", key) + ": " + e.getMessage(), e);
        }
        if (r[0] != r[1]) {
            throw error(where("get", key) + ": the server refused range " + range
                    + " (HTTP 416) of a value of " + size + " bytes");
        }
        return ByteBuffer.allocate(0);
    }

    /**
     * The body of an answer, after checking that it is the range asked for: a server that ignores
     * {@code Range} answers 200 with the whole value, which must never pass for the range.
     */
    private ByteBuffer checked(StoreKey key, ByteRange range, ResponseBytes<GetObjectResponse> bytes) {
        byte[] body = bytes.asByteArrayUnsafe();
        GetObjectResponse r = bytes.response();
        if (rangeHeader(range) == null) {
            if (r.contentLength() != null && r.contentLength() != body.length) {
                throw error(where("get", key) + ": received " + body.length
                        + " bytes, Content-Length said " + r.contentLength());
            }
            return ByteBuffer.wrap(body);
        }
        String cr = r.contentRange();
        int status = r.sdkHttpResponse().statusCode();
        if (cr == null || status != 206) {
            throw error(where("get", key) + ": the server ignored the range " + range
                    + " (HTTP " + status + ", " + body.length + " bytes, no Content-Range)");
        }
        Matcher m = CONTENT_RANGE.matcher(cr.trim());
        if (!m.matches()) {
            throw error(where("get", key) + ": unreadable Content-Range '" + cr + "' for range " + range);
        }
        long first = Long.parseLong(m.group(1));
        long last = Long.parseLong(m.group(2));
        if (m.group(3).equals("*")) {
            throw error(where("get", key) + ": Content-Range '" + cr + "' gives no total size");
        }
        long total = Long.parseLong(m.group(3));
        long[] want;
        try {
            want = range.resolve(total);
        } catch (IllegalArgumentException e) {
            throw error(where("get", key) + ": " + e.getMessage(), e);
        }
        if (first != want[0] || last + 1 != want[1] || body.length != want[1] - want[0]) {
            throw error(where("get", key) + ": asked for range " + range + " of " + total
                    + " bytes, the server answered Content-Range '" + cr + "' with " + body.length + " bytes");
        }
        return ByteBuffer.wrap(body);
    }

    @Override
    public OptionalLong size(StoreKey key) {
        return join(sizeAsync(key), key);
    }

    private CompletableFuture<OptionalLong> sizeAsync(StoreKey key) {
        return s3.headObject(r -> r.bucket(location.bucket()).key(object(key)))
                .handle((head, error) -> {
                    if (error == null) {
                        return OptionalLong.of(head.contentLength());
                    }
                    if (absent(error)) {
                        return OptionalLong.empty();
                    }
                    throw failure("size", key, error);
                });
    }

    // ---- writable ----

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        join(setAsync(key, value), key);
    }

    /** Copies the value before returning (the caller may reuse its memory), then uploads it. */
    @Override
    public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
        if (readOnly) {
            return CompletableFuture.failedFuture(readOnly("set '" + key + "'"));
        }
        return settle(put(key, copy(value), null, null).thenApply(r -> (Void) null), "set", key);
    }

    private static byte[] copy(ByteBuffer value) {
        byte[] copy = new byte[value.remaining()];
        value.duplicate().get(copy);
        return copy;
    }

    /**
     * A PutObject, or a multipart upload above the threshold; {@code ifNoneMatch} and
     * {@code ifMatch} (null for none) go on the PutObject or on the CompleteMultipartUpload.
     */
    private CompletableFuture<?> put(StoreKey key, byte[] value, String ifNoneMatch, String ifMatch) {
        return value.length > location.multipartThreshold()
                ? multipart(key, value, ifNoneMatch, ifMatch)
                : s3.putObject(r -> r.bucket(location.bucket()).key(object(key)).contentLength((long) value.length)
                                .ifNoneMatch(ifNoneMatch).ifMatch(ifMatch),
                        AsyncRequestBody.fromBytes(value));
    }

    private CompletableFuture<?> multipart(StoreKey key, byte[] value, String ifNoneMatch, String ifMatch) {
        String name = object(key);
        return s3.createMultipartUpload(r -> r.bucket(location.bucket()).key(name)).thenCompose(created -> {
            String id = created.uploadId();
            UPLOADING.add(id);
            long partSize = location.partSize();
            int parts = (int) ((value.length + partSize - 1) / partSize);
            List<CompletableFuture<CompletedPart>> uploads = new ArrayList<>(parts);
            for (int i = 0; i < parts; i++) {
                int number = i + 1;
                int from = (int) (i * partSize);
                int length = (int) Math.min(partSize, value.length - from);
                uploads.add(s3.uploadPart(r -> r.bucket(location.bucket()).key(name).uploadId(id)
                                        .partNumber(number).contentLength((long) length),
                                AsyncRequestBody.fromByteBufferUnsafe(ByteBuffer.wrap(value, from, length).slice()))
                        .thenApply(p -> CompletedPart.builder().partNumber(number).eTag(p.eTag()).build()));
            }
            return CompletableFuture.allOf(uploads.toArray(CompletableFuture[]::new))
                    .thenCompose(v -> s3.completeMultipartUpload(r -> r.bucket(location.bucket()).key(name).uploadId(id)
                            .ifNoneMatch(ifNoneMatch).ifMatch(ifMatch)
                            .multipartUpload(u -> u.parts(uploads.stream().map(CompletableFuture::join).toList()))))
                    .handle((done, error) -> {
                        if (error == null) {
                            return CompletableFuture.completedFuture(done);
                        }
                        // Nothing was stored: abort so the parts are not kept (and billed); report the first failure.
                        return s3.abortMultipartUpload(r -> r.bucket(location.bucket()).key(name).uploadId(id))
                                .handle((a, e2) -> {
                                    throw new CompletionException(unwrap(error));
                                });
                    })
                    .thenCompose(f -> f)
                    .whenComplete((done, error) -> UPLOADING.remove(id));
        });
    }

    @Override
    public void erase(StoreKey key) {
        join(eraseAsync(key), key);
    }

    @Override
    public CompletableFuture<Void> eraseAsync(StoreKey key) {
        if (readOnly) {
            return CompletableFuture.failedFuture(readOnly("erase '" + key + "'"));
        }
        return settle(s3.deleteObject(r -> r.bucket(location.bucket()).key(object(key))).handle((r, e) -> {
            if (e != null && !absent(e)) {
                throw new CompletionException(e);
            }
            return (Void) null;
        }), "erase", key);
    }

    // ---- conditional writes ----

    /** {@code If-None-Match: *} and {@code If-Match: <etag>} on PutObject and CompleteMultipartUpload. */
    private final class Conditional implements ConditionalWrites {
        @Override
        public Optional<VersionedValue> getVersioned(StoreKey key) {
            return join(settle(s3.getObject(r -> r.bucket(location.bucket()).key(object(key)),
                            AsyncResponseTransformer.toBytes())
                    .handle((bytes, error) -> {
                        if (error != null) {
                            if (absent(error)) {
                                return Optional.<VersionedValue>empty();
                            }
                            throw new CompletionException(error);
                        }
                        ByteBuffer value = checked(key, null, bytes);
                        String etag = bytes.response().eTag();
                        if (etag == null || etag.isEmpty()) {
                            throw error(where("get", key) + ": the server sent no ETag, which conditional writes"
                                    + " need (open the store with conditional-writes=false)");
                        }
                        return Optional.of(new VersionedValue(value, etag));
                    }), "get", key), key);
        }

        @Override
        public boolean setIfAbsent(StoreKey key, ByteBuffer value) {
            requireWritable("set '" + key + "' if absent");
            return join(conditionalPut(key, copy(value), "*", null, 1), key);
        }

        @Override
        public boolean setIfMatch(StoreKey key, ByteBuffer value, String version) {
            requireWritable("set '" + key + "' if unchanged");
            if (version == null || version.isEmpty()) {
                throw new IllegalArgumentException("a version must not be null or empty");
            }
            return join(conditionalPut(key, copy(value), null, version, 1), key);
        }
    }

    /**
     * True when stored; false on 412 Precondition Failed or 304 Not Modified (and, for If-Match,
     * on 404: the key was erased). A 409 ConditionalRequestConflict (another write to the key in progress) is retried,
     * as AWS asks, after a short randomised pause.
     */
    private CompletableFuture<Boolean> conditionalPut(StoreKey key, byte[] value, String ifNoneMatch, String ifMatch,
            int attempt) {
        String op = ifMatch == null ? "set if absent" : "set if unchanged";
        return put(key, value, ifNoneMatch, ifMatch).handle((r, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(true);
            }
            int status = status(error);
            // 304 is how some services (S3Mock on CompleteMultipartUpload) answer a failed If-None-Match.
            if (status == 412 || status == 304 || (status == 404 && ifMatch != null && absent(error))) {
                return CompletableFuture.completedFuture(false);
            }
            if (status == 409 && attempt < CONFLICT_ATTEMPTS) {
                long pause = (5L << attempt) + java.util.concurrent.ThreadLocalRandom.current().nextLong(10L << attempt);
                return CompletableFuture.supplyAsync(() -> null,
                                CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS))
                        .thenCompose(x -> conditionalPut(key, value, ifNoneMatch, ifMatch, attempt + 1));
            }
            return CompletableFuture.<Boolean>failedFuture(failure(op, key, error));
        }).thenCompose(f -> f);
    }

    @Override
    public void eraseValues(Collection<StoreKey> keys) {
        requireWritable("erase values");
        List<StoreKey> all = new ArrayList<>(new TreeSet<>(keys));
        List<CompletableFuture<?>> batches = new ArrayList<>();
        for (int i = 0; i < all.size(); i += DELETE_BATCH) {
            List<StoreKey> batch = all.subList(i, Math.min(all.size(), i + DELETE_BATCH));
            batches.add(deleteBatch(batch));
        }
        for (CompletableFuture<?> b : batches) {
            join(b, null);
        }
    }

    private CompletableFuture<?> deleteBatch(List<StoreKey> batch) {
        if (!batchDeletes) {
            return deleteEach(batch);
        }
        List<ObjectIdentifier> ids = batch.stream().map(k -> ObjectIdentifier.builder().key(object(k)).build()).toList();
        return s3.deleteObjects(r -> r.bucket(location.bucket()).delete(Delete.builder().objects(ids).quiet(true).build()))
                .handle((resp, error) -> {
                    if (error != null && status(error) == 501) {
                        // The service does not implement DeleteObjects as the SDK sends it (s3proxy 2.7.0
                        // refuses its checksum header): delete one by one from now on.
                        batchDeletes = false;
                        return deleteEach(batch);
                    }
                    if (error != null) {
                        throw failure("erase values (" + batch.size() + " keys from '" + batch.get(0) + "')", null, error);
                    }
                    if (resp.hasErrors() && !resp.errors().isEmpty()) {
                        var e = resp.errors().get(0);
                        throw new StoreException(describe() + ": bucket '" + location.bucket() + "': cannot erase object '"
                                + e.key() + "': " + e.code() + " " + e.message() + " (" + resp.errors().size()
                                + " of " + batch.size() + " deletions failed)", null);
                    }
                    return CompletableFuture.completedFuture(resp);
                })
                .thenCompose(f -> f);
    }

    private CompletableFuture<?> deleteEach(List<StoreKey> batch) {
        return CompletableFuture.allOf(batch.stream()
                .map(k -> s3.deleteObject(r -> r.bucket(location.bucket()).key(object(k))).exceptionally(e -> {
                    if (absent(e)) {
                        return null;
                    }
                    throw failure("erase", k, e);
                }))
                .toArray(CompletableFuture[]::new));
    }

    @Override
    public void erasePrefix(String prefix) {
        StoreKey.checkPrefix(prefix);
        requireWritable("erase prefix '" + prefix + "'");
        eraseValues(listPrefix(prefix));
    }

    private void requireWritable(String what) {
        if (readOnly) {
            throw readOnly(what);
        }
    }

    private ReadOnlyException readOnly(String what) {
        return new ReadOnlyException(describe() + " is read-only; cannot " + what);
    }

    // ---- listable ----

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        StoreKey.checkPrefix(prefix);
        List<StoreKey> keys = new ArrayList<>();
        list(prefix, false, (key, size) -> keys.add(key), null);
        keys.sort(null);
        return keys;
    }

    /**
     * The sizes come with the listing (each object's {@code Size} in ListObjectsV2's answer): one
     * request per thousand keys instead of a HEAD request per key. An answer without a size (not
     * seen from S3 itself) is asked with HEAD.
     */
    @Override
    public List<KeySize> listPrefixSizes(String prefix) {
        StoreKey.checkPrefix(prefix);
        List<KeySize> out = new ArrayList<>();
        List<StoreKey> unsized = new ArrayList<>();
        list(prefix, false, (key, size) -> {
            if (size != null && size >= 0) {
                out.add(new KeySize(key, size));
            } else {
                unsized.add(key);
            }
        }, null);
        for (StoreKey k : unsized) {
            size(k).ifPresent(size -> out.add(new KeySize(k, size)));
        }
        out.sort(Comparator.comparing(KeySize::key));
        return out;
    }

    @Override
    public ListDirResult listDir(String prefix) {
        StoreKey.checkPrefix(prefix);
        List<StoreKey> keys = new ArrayList<>();
        TreeSet<String> prefixes = new TreeSet<>();
        list(prefix, true, (key, size) -> keys.add(key), prefixes);
        keys.sort(null);
        return new ListDirResult(keys, new ArrayList<>(prefixes));
    }

    /**
     * Pages through ListObjectsV2, giving each key with its listed size (null when the answer has
     * none); object names that are not valid keys are skipped.
     */
    private void list(String prefix, boolean delimited, BiConsumer<StoreKey, Long> keys, TreeSet<String> prefixes) {
        String full = location.prefix() + prefix;
        int cut = location.prefix().length();
        String token = null;
        do {
            ListObjectsV2Request.Builder req = ListObjectsV2Request.builder().bucket(location.bucket()).prefix(full)
                    .continuationToken(token);
            if (delimited) {
                req.delimiter("/");
            }
            ListObjectsV2Response page;
            try {
                page = s3.listObjectsV2(req.build()).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(describe() + ": interrupted listing '" + prefix + "'", e);
            } catch (ExecutionException e) {
                throw failure("list prefix '" + prefix + "'", null, e.getCause());
            }
            for (S3Object o : page.contents()) {
                StoreKey k = key(o.key().substring(cut));
                if (k != null) {
                    keys.accept(k, o.size());
                }
            }
            if (delimited) {
                for (CommonPrefix p : page.commonPrefixes()) {
                    String rel = p.prefix().substring(cut);
                    if (rel.length() > prefix.length() + 1 && key(rel.substring(0, rel.length() - 1)) != null) {
                        prefixes.add(rel);
                    }
                }
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
    }

    private static StoreKey key(String name) {
        try {
            return StoreKey.of(name);
        } catch (RuntimeException e) {
            return null;
        }
    }

    // ---- maintenance ----

    /**
     * The multipart uploads started under the prefix and neither completed nor aborted: what a
     * writer killed in the middle of a {@code set} above the multipart threshold leaves (S3 keeps
     * its parts, and bills them, until the upload is aborted; they are never a value). Each is
     * {@code s3://bucket/object?uploadId=id}, its size the parts uploaded so far, its time when it
     * was started; live when this JVM is still uploading it. Another process's upload in progress
     * cannot be told apart, so {@link #removeLeftovers} spares it by its age alone.
     */
    @Override
    public List<Leftover> leftovers() {
        List<Leftover> out = new ArrayList<>();
        for (MultipartUpload u : uploads()) {
            out.add(new Leftover(uploadLocation(u), uploaded(u), started(u), UPLOADING.contains(u.uploadId())));
        }
        return out;
    }

    /**
     * Aborts the uploads of {@link #leftovers()} that this JVM is not uploading and that were
     * started at least {@code minimumAge} ago.
     */
    @Override
    public List<Leftover> removeLeftovers(Duration minimumAge) {
        Objects.requireNonNull(minimumAge, "minimumAge");
        if (minimumAge.isNegative()) {
            throw new IllegalArgumentException("negative minimumAge " + minimumAge);
        }
        Instant cutoff;
        try {
            cutoff = Instant.now().minus(minimumAge);
        } catch (DateTimeException | ArithmeticException e) {
            cutoff = Instant.MIN;
        }
        List<Leftover> removed = new ArrayList<>();
        for (MultipartUpload u : uploads()) {
            if (started(u).isAfter(cutoff) || UPLOADING.contains(u.uploadId())) {
                continue;
            }
            long size = uploaded(u);
            try {
                s3.abortMultipartUpload(r -> r.bucket(location.bucket()).key(u.key()).uploadId(u.uploadId())).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(describe() + ": interrupted removing leftovers (" + removed.size()
                        + " removed before)", e);
            } catch (ExecutionException e) {
                if (status(e.getCause()) != 404) { // NoSuchUpload: completed or aborted meanwhile
                    throw failure("abort the unfinished upload " + uploadLocation(u) + " (" + removed.size()
                            + " leftovers removed before)", null, e.getCause());
                }
                continue;
            }
            removed.add(new Leftover(uploadLocation(u), size, started(u), false));
        }
        return removed;
    }

    /** Pages through ListMultipartUploads under the prefix. */
    private List<MultipartUpload> uploads() {
        List<MultipartUpload> out = new ArrayList<>();
        String keyMarker = null;
        String idMarker = null;
        while (true) {
            String k = keyMarker;
            String i = idMarker;
            ListMultipartUploadsResponse page;
            try {
                page = s3.listMultipartUploads(r -> r.bucket(location.bucket()).prefix(location.prefix())
                        .keyMarker(k).uploadIdMarker(i)).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(describe() + ": interrupted looking for leftovers", e);
            } catch (ExecutionException e) {
                throw failure("list the unfinished multipart uploads", null, e.getCause());
            }
            for (MultipartUpload u : page.uploads()) {
                if (u.key() != null && u.key().startsWith(location.prefix())) {
                    out.add(u);
                }
            }
            if (!Boolean.TRUE.equals(page.isTruncated()) || page.nextKeyMarker() == null) {
                return out;
            }
            keyMarker = page.nextKeyMarker();
            idMarker = page.nextUploadIdMarker();
        }
    }

    /** The bytes of the parts an upload holds (0 when it is gone meanwhile). */
    private long uploaded(MultipartUpload u) {
        long total = 0;
        Integer marker = null;
        while (true) {
            Integer m = marker;
            ListPartsResponse page;
            try {
                page = s3.listParts(r -> r.bucket(location.bucket()).key(u.key()).uploadId(u.uploadId())
                        .partNumberMarker(m)).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(describe() + ": interrupted looking for leftovers", e);
            } catch (ExecutionException e) {
                if (status(e.getCause()) == 404) {
                    return total;
                }
                throw failure("list the parts of the unfinished upload " + uploadLocation(u), null, e.getCause());
            }
            for (Part p : page.parts()) {
                total += p.size() == null ? 0 : p.size();
            }
            if (!Boolean.TRUE.equals(page.isTruncated()) || page.nextPartNumberMarker() == null) {
                return total;
            }
            marker = page.nextPartNumberMarker();
        }
    }

    private String uploadLocation(MultipartUpload u) {
        return "s3://" + location.bucket() + "/" + u.key() + "?uploadId=" + u.uploadId();
    }

    /** When an upload was started; now when the service does not say, so that age alone never removes it. */
    private static Instant started(MultipartUpload u) {
        return u.initiated() != null ? u.initiated() : Instant.now();
    }

    @Override
    public void close() {
        s3.close();
    }

    // ---- errors ----

    private String where(String op, StoreKey key) {
        return describe() + ": " + op + " of key '" + key + "' (bucket '" + location.bucket() + "', object '"
                + object(key) + "')";
    }

    private static StoreException error(String message) {
        return new StoreException(message, null);
    }

    private static StoreException error(String message, Throwable cause) {
        return new StoreException(message, cause);
    }

    private static Throwable unwrap(Throwable e) {
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static int status(Throwable e) {
        Throwable t = unwrap(e);
        return t instanceof S3Exception s ? s.statusCode() : -1;
    }

    /** 404 for a missing object; a missing bucket (NoSuchBucket) is an error, not an absent key. */
    private static boolean absent(Throwable e) {
        Throwable t = unwrap(e);
        return t instanceof S3Exception s && s.statusCode() == 404
                && (s.awsErrorDetails() == null || !"NoSuchBucket".equals(s.awsErrorDetails().errorCode()));
    }

    /** A StoreException naming the bucket, key (when there is one) and HTTP status. */
    private StoreException failure(String op, StoreKey key, Throwable error) {
        Throwable t = unwrap(error);
        if (t instanceof StoreException se) {
            return se;
        }
        String where = key == null
                ? describe() + ": " + op + " (bucket '" + location.bucket() + "')"
                : where(op, key);
        if (t instanceof S3Exception s) {
            String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
            String msg = s.awsErrorDetails() == null ? s.getMessage() : s.awsErrorDetails().errorMessage();
            return error(where + ": HTTP " + s.statusCode() + (code == null ? "" : " " + code)
                    + (msg == null ? "" : ": " + msg), t);
        }
        if (t instanceof SdkClientException && String.valueOf(t.getMessage()).startsWith("Unable to load credentials")) {
            return error(where + ": no AWS credentials found (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE"
                    + " and the profile files, or a role); for a public bucket add anonymous=true to the URI", t);
        }
        if (t instanceof SdkClientException) {
            return error(where + ": no HTTP answer: " + t.getMessage(), t);
        }
        return error(where + ": " + t, t);
    }

    /**
     * A future completed as {@code f} is, or failed with the {@link ZarrException} the blocking
     * operation throws (not wrapped in a CompletionException).
     */
    private <T> CompletableFuture<T> settle(CompletableFuture<T> f, String op, StoreKey key) {
        CompletableFuture<T> out = new CompletableFuture<>();
        f.whenComplete((v, e) -> {
            if (e == null) {
                out.complete(v);
                return;
            }
            Throwable t = unwrap(e);
            out.completeExceptionally(t instanceof ZarrException ? t : failure(op, key, t));
        });
        return out;
    }

    private <T> T join(CompletableFuture<T> f, StoreKey key) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new StoreException(describe() + ": interrupted" + (key == null ? "" : " at key '" + key + "'"), e);
        } catch (ExecutionException e) {
            Throwable t = unwrap(e.getCause());
            if (t instanceof ZarrException z) {
                throw z;
            }
            throw failure("request", key, t);
        }
    }
}
