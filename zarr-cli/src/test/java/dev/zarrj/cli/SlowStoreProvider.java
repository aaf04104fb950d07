package dev.zarrj.cli;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A test-only store standing in for an object store: {@code slow:/path} is the directory store at
 * {@code /path} whose every {@code set} and {@code size} takes 20 ms more, that suggests keeping
 * {@link #SUGGESTED} requests in flight, and that on close writes the peak number of those
 * it saw at once to {@code /path.peak}. Registered in the test resources'
 * {@code META-INF/services} ({@link CliJvm#startWithTestProviders}).
 */
public final class SlowStoreProvider implements StoreProvider {
    /** Well above the cores, whatever the machine. */
    static final int SUGGESTED = 4 * Runtime.getRuntime().availableProcessors() + 8;

    public SlowStoreProvider() {}

    @Override
    public String name() {
        return "slow";
    }

    @Override
    public Store open(URI uri, boolean readOnly) {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        return new DirectoryBackedStore(uri, readOnly) {
            @Override
            public void set(StoreKey key, ByteBuffer value) {
                slowly(key, () -> {
                    super.set(key, value);
                    return null;
                });
            }

            @Override
            public OptionalLong size(StoreKey key) {
                return slowly(key, () -> super.size(key));
            }

            private <T> T slowly(StoreKey key, Supplier<T> op) {
                peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(20);
                    return op.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StoreException(describe() + ": interrupted at '" + key + "'", e);
                } finally {
                    inFlight.decrementAndGet();
                }
            }

            @Override
            public int ioConcurrency() {
                return SUGGESTED;
            }

            @Override
            public void close() {
                super.close();
                try {
                    Files.writeString(Path.of(uri.getSchemeSpecificPart() + ".peak"), Integer.toString(peak.get()),
                            StandardCharsets.US_ASCII);
                } catch (IOException e) {
                    throw new StoreException(describe() + ": cannot record the peak", e);
                }
            }
        };
    }
}
