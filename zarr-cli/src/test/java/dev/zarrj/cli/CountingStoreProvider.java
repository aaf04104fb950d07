package dev.zarrj.cli;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A test-only store that records its requests: {@code counting:/path} is the directory store at
 * {@code /path}; each whole-value read ({@code get KEY}), size request ({@code size KEY}),
 * listing ({@code list PREFIX}) and listing with sizes ({@code sizes PREFIX}) is recorded, and on
 * close the list is written to {@code /path.requests}, one per line. Registered in the test
 * resources' {@code META-INF/services}.
 */
public final class CountingStoreProvider implements StoreProvider {
    public CountingStoreProvider() {}

    @Override
    public String name() {
        return "counting";
    }

    @Override
    public Store open(URI uri, boolean readOnly) {
        List<String> requests = Collections.synchronizedList(new ArrayList<>());
        return new DirectoryBackedStore(uri, readOnly) {
            @Override
            public Optional<ByteBuffer> get(StoreKey key) {
                requests.add("get " + key);
                return super.get(key);
            }

            @Override
            public OptionalLong size(StoreKey key) {
                requests.add("size " + key);
                return super.size(key);
            }

            @Override
            public List<KeySize> listPrefixSizes(String prefix) {
                requests.add("sizes " + prefix);
                return delegate.listPrefixSizes(prefix);
            }

            @Override
            public List<StoreKey> listPrefix(String prefix) {
                requests.add("list " + prefix);
                return super.listPrefix(prefix);
            }

            @Override
            public void close() {
                super.close();
                try {
                    Files.write(Path.of(uri.getSchemeSpecificPart() + ".requests"), requests, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new StoreException(describe() + ": cannot record the requests", e);
                }
            }
        };
    }
}
