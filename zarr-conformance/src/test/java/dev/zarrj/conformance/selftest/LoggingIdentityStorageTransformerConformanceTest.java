package dev.zarrj.conformance.selftest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.transformer.StorageTransformerProvider;
import dev.zarrj.conformance.StorageTransformerContract;
import org.junit.jupiter.api.Test;

/**
 * The storage transformer contract against the test-only {@code test_logging_identity}
 * transformer: zarrj has no storage transformer, so this proves the contract passes a correct one.
 */
class LoggingIdentityStorageTransformerConformanceTest extends StorageTransformerContract {
    @Override
    protected StorageTransformerProvider provider() {
        return new LoggingIdentityStorageTransformerProvider();
    }

    /** The contract's array round trip really sent chunk requests through the transformer. */
    @Test
    void chunkRequestsWentThroughTheTransformer() {
        LoggingIdentityStorageTransformerProvider.LOG.clear();
        required_ST01_arraysRoundTripThroughTheTransformer().forEach(t -> {
            try {
                t.getExecutable().execute();
            } catch (Throwable e) {
                throw new AssertionError(e);
            }
        });
        assertTrue(LoggingIdentityStorageTransformerProvider.LOG.stream().anyMatch(l -> l.endsWith("set group/array/c/0/0")),
                () -> "no chunk write was logged: " + LoggingIdentityStorageTransformerProvider.LOG);
        assertTrue(LoggingIdentityStorageTransformerProvider.LOG.stream().anyMatch(l -> l.contains("get group/array/c/2/2")),
                () -> "no chunk read was logged: " + LoggingIdentityStorageTransformerProvider.LOG);
    }
}
