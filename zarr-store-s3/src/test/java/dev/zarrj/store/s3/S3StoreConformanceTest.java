package dev.zarrj.store.s3;

import dev.zarrj.api.store.Store;
import dev.zarrj.conformance.StoreContract;
import dev.zarrj.api.store.StoreKey;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtendWith;

/** The S3 store against the kit's store contract: each store is a new prefix of a new bucket on s3proxy. */
@ExtendWith(S3Proxy.class)
class S3StoreConformanceTest extends StoreContract {
    private static final AtomicInteger N = new AtomicInteger();

    @Override
    protected Store newStore() {
        String bucket = S3Proxy.get().newBucket();
        return S3Stores.open(S3Proxy.get().uri(bucket, "contract/" + N.incrementAndGet(), ""), false, Map.of());
    }

    /** A store opened read-only over objects written beforehand (S20: writes are refused). */
    @Override
    protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
        String bucket = S3Proxy.get().newBucket();
        URI uri = S3Proxy.get().uri(bucket, "contract/" + N.incrementAndGet(), "");
        try (Store w = S3Stores.open(uri, false, Map.of())) {
            content.forEach((k, v) -> w.set(StoreKey.of(k), ByteBuffer.wrap(v)));
        }
        return Optional.of(S3Stores.open(uri, true, Map.of()));
    }
}
