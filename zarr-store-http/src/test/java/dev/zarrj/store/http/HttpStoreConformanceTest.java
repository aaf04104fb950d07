package dev.zarrj.store.http;

import dev.zarrj.api.store.Store;
import dev.zarrj.conformance.StoreContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;

/**
 * The HTTP store against the kit's store contract: a read-only, unlisted store over a loopback
 * server holding the content each rule asks for, once with a server that honours {@code Range}
 * and once with one that ignores it.
 */
class HttpStoreConformanceTest {
    abstract static class Served extends StoreContract {
        private final TestServer.Mode mode;
        private final List<TestServer> servers = new ArrayList<>();

        Served(TestServer.Mode mode) {
            this.mode = mode;
        }

        @AfterEach
        void stopServers() {
            servers.forEach(TestServer::close);
            servers.clear();
        }

        private Store serve(Map<String, byte[]> content) {
            TestServer server = TestServer.serving(content).mode(mode);
            servers.add(server);
            return HttpStores.open(server.uri("/data"));
        }

        @Override
        protected Store newStore() {
            return serve(Map.of());
        }

        @Override
        protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
            return Optional.of(serve(content));
        }
    }

    @Nested
    class HonoursRange extends Served {
        HonoursRange() {
            super(TestServer.Mode.HONOURS_RANGE);
        }
    }

    @Nested
    class IgnoresRange extends Served {
        IgnoresRange() {
            super(TestServer.Mode.IGNORES_RANGE);
        }
    }
}
