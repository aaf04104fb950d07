package dev.zarrj.conformance.selftest;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.transformer.StorageTransformer;
import dev.zarrj.api.transformer.StorageTransformerProvider;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test-only storage transformer, {@code test_logging_identity}: passes every request through
 * unchanged and logs the gets and sets, so that a test can see requests went through it. zarrj
 * has no storage transformer of its own; this one proves {@code StorageTransformerContract}.
 *
 * <p>Configuration: {@code {"label": "<string>"}}, optional, written back when given.
 */
public final class LoggingIdentityStorageTransformerProvider implements StorageTransformerProvider {
    public static final String NAME = "test_logging_identity";

    /** Every logged request, over all instances: {@code "<label> get <key>"}, {@code "<label> set <key>"}. */
    public static final List<String> LOG = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return List.of(JsonNodeFactory.instance.objectNode(), JsonNodeFactory.instance.objectNode().put("label", "x"));
    }

    @Override
    public StorageTransformer create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("label");
        return new Transformer(config.optionalStringField("label").orElse(null));
    }

    /** The transformer; equal when the labels are. */
    static final class Transformer implements StorageTransformer {
        private final String label;

        Transformer(String label) {
            this.label = label;
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public ObjectNode configuration() {
            ObjectNode c = JsonNodeFactory.instance.objectNode();
            if (label != null) {
                c.put("label", label);
            }
            return c;
        }

        @Override
        public Store apply(Store next, String arrayPrefix) {
            String tag = label == null ? NAME : label;
            return new ForwardingStore(next) {
                @Override
                public String describe() {
                    return NAME + "(" + delegate.describe() + ")";
                }

                @Override
                public Optional<ByteBuffer> get(StoreKey key) {
                    LOG.add(tag + " get " + key);
                    return delegate.get(key);
                }

                @Override
                public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
                    LOG.add(tag + " get " + key + " " + range);
                    return delegate.get(key, range);
                }

                @Override
                public void set(StoreKey key, ByteBuffer value) {
                    LOG.add(tag + " set " + key);
                    delegate.set(key, value);
                }
            };
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Transformer t && java.util.Objects.equals(t.label, label);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hashCode(label);
        }

        @Override
        public String toString() {
            return NAME + "(" + label + ")";
        }
    }
}
