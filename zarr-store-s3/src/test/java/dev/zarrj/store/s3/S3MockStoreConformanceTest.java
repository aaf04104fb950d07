package dev.zarrj.store.s3;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.StoreContract;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The S3 store with conditional writes on, against the kit's store contract on Adobe S3Mock (which
 * honours If-Match and If-None-Match), through a {@link PerObjectLockProxy} since S3Mock's own
 * check is not atomic (rule S27 runs concurrent compare-and-set increments): each store is a new
 * prefix of a new bucket.
 */
@ExtendWith(S3Mock.class)
class S3MockStoreConformanceTest extends StoreContract {
    private static final String OPTIONS = "&conditional-writes=true";
    private static final AtomicInteger N = new AtomicInteger();

    @Override
    protected Store newStore() {
        String bucket = S3Mock.get().newBucket();
        return S3Stores.open(S3Mock.get().linearizedUri(bucket, "contract/" + N.incrementAndGet(), OPTIONS), false, Map.of());
    }

    @Override
    protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
        String bucket = S3Mock.get().newBucket();
        URI uri = S3Mock.get().linearizedUri(bucket, "contract/" + N.incrementAndGet(), OPTIONS);
        try (Store w = S3Stores.open(uri, false, Map.of())) {
            content.forEach((k, v) -> w.set(StoreKey.of(k), ByteBuffer.wrap(v)));
        }
        return Optional.of(S3Stores.open(uri, true, Map.of()));
    }
}
