package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.transformer.StorageTransformer;
import dev.zarrj.api.transformer.StorageTransformerProvider;
import dev.zarrj.conformance.internal.extension.Extensions;
import dev.zarrj.conformance.internal.extension.Instances;
import dev.zarrj.conformance.internal.rules.Rule;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionRegistry;
import dev.zarrj.core.registry.ProviderInfo;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract of a storage transformer (core.rst, "Storage transformers"): it is transparent —
 * an array written and read through it gives back its data, also when opened again from its
 * metadata — and the store it serves is a store, passing every rule of {@link StoreContract}
 * (the nested {@link TransformedStore}, rules {@code S01}…{@code S32}).
 *
 * <p>A transformer's own test extends this class and hands it the provider; transformers are
 * created from {@link #configurations()} (by default the provider's example configurations). The
 * arrays go through {@code zarr-core} with a registry of the installed extensions plus the
 * provider under test; the transformer sits over {@link #newBackingStore()} (an in-memory store
 * by default).
 *
 * <p>Rules are named {@code required_ST<NN>_...}; a failure message starts with the rule id.
 * Rules are listed in {@code rules/stores-and-metadata.md}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class StorageTransformerContract {
    private static final String SPEC = " (spec: core.rst 'Storage transformers')";

    private final Instances<StorageTransformer> transformers = new Instances<>(getClass(), "storage transformer",
            this::provider, this::configurations, StorageTransformer::toJson);

    /** The provider under test. */
    protected abstract StorageTransformerProvider provider();

    /** The configurations to create transformers from: by default the provider's example configurations. */
    protected List<ExtensionConfig> configurations() {
        return Extensions.defaultConfigurations(provider(), "/storage_transformers/0");
    }

    /** The store under the transformer: a new, empty, writable store; in memory by default. */
    protected Store newBackingStore() {
        return Zarr.defaults().openStore("memory:");
    }

    /** The provider under test, recording each {@code apply}, so that a rule can see it was used. */
    private static final class Recording implements StorageTransformerProvider {
        final StorageTransformerProvider delegate;
        final List<String> applied = new CopyOnWriteArrayList<>();

        Recording(StorageTransformerProvider delegate) {
            this.delegate = delegate;
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public Set<String> aliases() {
            return delegate.aliases();
        }

        @Override
        public int priority() {
            return delegate.priority() + 1;
        }

        @Override
        public StorageTransformer create(ExtensionConfig config, ProviderContext context) {
            StorageTransformer t = delegate.create(config, context);
            return new StorageTransformer() {
                @Override
                public String name() {
                    return t.name();
                }

                @Override
                public ObjectNode configuration() {
                    return t.configuration();
                }

                @Override
                public JsonNode toJson() {
                    return t.toJson();
                }

                @Override
                public Store apply(Store next, String arrayPrefix) {
                    applied.add(arrayPrefix);
                    return t.apply(next, arrayPrefix);
                }
            };
        }
    }

    // ---- rules ----

    /**
     * Transparency: an array with the transformer in its {@code storage_transformers}, written
     * whole and then in part (edge chunks, a partial chunk rewritten), reads back exactly — through
     * the array that wrote it, and through the array opened again from its metadata; the written
     * metadata lists the transformer as it writes itself; and the transformer was applied (with the
     * array's prefix).
     *
     * <p>Spec: core.rst, "Storage transformers": "The stored transformed data is restored to its
     * original state whenever data is requested by the Array".
     *
     * <p>If this fails, check: keys or bytes changed on the way in and not restored on the way out;
     * ranged reads ({@code get} with a {@code ByteRange}) not mapped through the transformation;
     * the array prefix ignored.
     */
    @TestFactory
    @DisplayName("ST01 arrays read back through the transformer what was written" + SPEC)
    public Stream<DynamicTest> required_ST01_arraysRoundTripThroughTheTransformer() {
        return transformers.each("ST01", "arrays read back through the transformer what was written", t -> {
            Recording recording = new Recording(provider());
            ExtensionRegistry.Builder b = ExtensionRegistry.builder();
            for (ProviderInfo i : ExtensionRegistry.discover().report().providers()) {
                b.add(i.provider());
            }
            b.add(recording);
            try (Zarr zarr = Zarr.builder().registry(b.build()).threads(2).build()) {
                Store store = newBackingStore();
                ArrayNode transformers = JsonNodeFactory.instance.arrayNode().add(t.toJson());
                ZarrArray a = zarr.array(DataTypes.INT32, 10, 7).chunks(4, 3).fillValue(-1)
                        .storageTransformers(transformers).create(store, "group/array");
                int[] expected = new int[70];
                for (int i = 0; i < expected.length; i++) {
                    expected[i] = i * 31 - 1000;
                }
                a.write(NdArray.copyOf(DataTypes.INT32, expected.clone(), 10, 7));
                int[] patch = {7, 8, 9, 10};
                a.write(new long[] {8, 5}, NdArray.copyOf(DataTypes.INT32, patch, 2, 2));
                expected[8 * 7 + 5] = 7;
                expected[8 * 7 + 6] = 8;
                expected[9 * 7 + 5] = 9;
                expected[9 * 7 + 6] = 10;
                expectData(expected, a.read().toIntArray(), "read through the array that wrote it");
                ZarrArray again = zarr.openArray(store, "group/array");
                expectData(expected, again.read().toIntArray(), "read through the array opened again");
                int[] region = again.read(new long[] {3, 2}, new long[] {6, 4}).toIntArray();
                for (int r = 0; r < 6; r++) {
                    for (int c = 0; c < 4; c++) {
                        if (region[r * 4 + c] != expected[(3 + r) * 7 + 2 + c]) {
                            throw Rule.fail("region [3:9, 2:6] read again differs at (" + (3 + r) + ", " + (2 + c) + "): "
                                    + region[r * 4 + c] + " instead of " + expected[(3 + r) * 7 + 2 + c]);
                        }
                    }
                }
                JsonNode written = again.metadata().get("storage_transformers");
                if (!transformers.equals(written)) {
                    throw Rule.fail("the array's metadata lists storage_transformers " + written + ", expected "
                            + transformers);
                }
                if (recording.applied.isEmpty()) {
                    throw Rule.fail("the transformer was never applied to the array's store");
                }
                if (!recording.applied.contains("group/array/")) {
                    throw Rule.fail("the transformer was applied with the prefixes " + recording.applied
                            + ", not the array's prefix group/array/");
                }
            }
        });
    }

    private static void expectData(int[] expected, int[] actual, String what) {
        if (!Arrays.equals(expected, actual)) {
            int i = 0;
            while (i < Math.min(expected.length, actual.length) && expected[i] == actual[i]) {
                i++;
            }
            throw Rule.fail(what + ": element " + i + " (row " + i / 7 + ", column " + i % 7 + ") is "
                    + (i < actual.length ? actual[i] : "missing") + ", expected "
                    + (i < expected.length ? expected[i] : "none"));
        }
    }

    /**
     * The transformer's metadata form creates, through the provider, an equal transformer that
     * writes the same metadata.
     *
     * <p>Spec: core.rst, {@code storage_transformers} (each an extension: name and configuration).
     *
     * <p>If this fails, check: {@code equals}/{@code hashCode}; a configuration field written under
     * another name than the one read.
     */
    @TestFactory
    @DisplayName("ST03 the storage_transformers entry round trips through the provider" + SPEC)
    public Stream<DynamicTest> required_ST03_metadataRoundTrips() {
        return transformers.each("ST03", "the storage_transformers entry round trips through the provider",
                t -> Extensions.roundTrip(provider(), t, "/storage_transformers/0"));
    }

    /**
     * The provider rejects a configuration with a field it does not know, with an
     * {@link dev.zarrj.api.InvalidMetadataException} that names the field.
     *
     * <p>Spec: core.rst, "Extension definition" (a known extension with a broken configuration is
     * never skipped).
     *
     * <p>If this fails, check: {@link ExtensionConfig#rejectUnknownFields} called in
     * {@code create}.
     */
    @Test
    @DisplayName("ST04 an unknown configuration field is rejected" + SPEC)
    public void required_ST04_unknownConfigurationFieldIsRejected() {
        Rule.check("ST04", "an unknown configuration field is rejected", provider().name(),
                () -> Extensions.rejectsUnknownFields(provider(), configurations()));
    }

    /**
     * ST02: the store a transformer serves, over {@link #newBackingStore()} for a root array
     * (prefix {@code ""}), passes every rule of the store contract ({@code S01}…{@code S32}),
     * which name the failure by their own ids.
     *
     * <p>Spec: core.rst, "Storage transformers": "A storage transformer serves the same abstract
     * store interface as the store".
     *
     * <p>If this fails, check: the failing store rule's own list; operations with a default in
     * {@link Store} (ranges, listing, {@code erase_prefix}) that the transformer forgets to map.
     */
    @Nested
    @DisplayName("ST02 the transformed store passes the store contract" + SPEC)
    public class TransformedStore extends StoreContract {
        @Override
        protected Store newStore() {
            StorageTransformer t = provider().create(configurations().get(0), Extensions.NO_CODECS);
            return t.apply(newBackingStore(), "");
        }
    }
}
