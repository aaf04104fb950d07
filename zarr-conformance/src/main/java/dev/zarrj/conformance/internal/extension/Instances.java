package dev.zarrj.conformance.internal.extension;

import dev.zarrj.api.Extension;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ExtensionProvider;
import dev.zarrj.conformance.internal.rules.Rule;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * The instances a metadata contract (data type, chunk grid, key encoding, storage transformer)
 * checks, one per configuration, and a rule run on each of them as its own test.
 *
 * <p>The provider and the configurations are asked for only when a rule runs, so that whatever
 * they throw fails that rule rather than the discovery of the tests.
 *
 * @param <T> the extension point's instance type
 */
public final class Instances<T extends Extension> {
    private final Class<?> contract;
    private final String kind;
    private final Supplier<? extends ExtensionProvider<T>> provider;
    private final Supplier<List<ExtensionConfig>> configurations;
    private final Function<? super T, ?> label;

    /**
     * @param contract       the contract's class, named when it lists no configurations
     * @param kind           what failures call an instance, for example {@code "chunk grid"}
     * @param provider       the provider under test
     * @param configurations the configurations to create instances from
     * @param label          what names an instance in test names and failures: its metadata or its name
     */
    public Instances(Class<?> contract, String kind, Supplier<? extends ExtensionProvider<T>> provider,
                     Supplier<List<ExtensionConfig>> configurations, Function<? super T, ?> label) {
        this.contract = contract;
        this.kind = kind;
        this.provider = provider;
        this.configurations = configurations;
        this.label = label;
    }

    /** One instance per configuration; fails when the provider returns null or there are no configurations. */
    public List<T> create() {
        List<T> out = new ArrayList<>();
        for (ExtensionConfig c : configurations.get()) {
            T t = provider.get().create(c, Extensions.NO_CODECS);
            if (t == null) {
                throw Rule.fail(provider.get().getClass().getName() + " returned null for " + c);
            }
            out.add(t);
        }
        if (out.isEmpty()) {
            throw Rule.fail(contract.getName() + " lists no configurations to test");
        }
        return out;
    }

    /**
     * Rule {@code id} as one test per instance, named after it; when the instances cannot be
     * created, one test that fails with the reason.
     */
    public Stream<DynamicTest> each(String id, String statement, Consumer<? super T> body) {
        List<T> instances;
        try {
            instances = create();
        } catch (RuntimeException e) {
            return Stream.of(DynamicTest.dynamicTest(id + " " + statement,
                    () -> Rule.check(id, statement, provider.get().name(), () -> {
                        throw e;
                    })));
        }
        return instances.stream().map(t -> DynamicTest.dynamicTest(id + " " + label.apply(t) + ": " + statement,
                () -> Rule.check(id, statement, kind + " " + label.apply(t) + " (" + t.getClass().getName() + ")",
                        () -> body.accept(t))));
    }
}
