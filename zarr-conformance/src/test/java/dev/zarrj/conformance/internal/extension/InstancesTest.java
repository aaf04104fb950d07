package dev.zarrj.conformance.internal.extension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** What the four metadata contracts now share: instances per configuration, and a rule per instance. */
class InstancesTest {
    /** An encoding named by its one field, {@code n}. */
    record Encoding(int n) implements ChunkKeyEncoding {
        @Override public String name() {
            return "fake";
        }

        @Override public ObjectNode configuration() {
            return JsonNodeFactory.instance.objectNode().put("n", n);
        }

        @Override public String encode(long[] chunkCoords) {
            return "c";
        }

        @Override public Optional<long[]> decode(String key, int rank) {
            return Optional.empty();
        }
    }

    /** Creates {@link Encoding}s; null for {@code n = 0}, and fails for a negative {@code n}. */
    static final class Provider implements ChunkKeyEncodingProvider {
        @Override public String name() {
            return "fake";
        }

        @Override public ChunkKeyEncoding create(ExtensionConfig config, ProviderContext context) {
            int n = config.json().path("n").asInt();
            if (n < 0) {
                throw config.error("n", "n must not be negative");
            }
            return n == 0 ? null : new Encoding(n);
        }
    }

    private static List<ExtensionConfig> configs(int... ns) {
        List<ExtensionConfig> out = new ArrayList<>();
        for (int n : ns) {
            out.add(ExtensionConfig.of("fake", JsonNodeFactory.instance.objectNode().put("n", n), "/c"));
        }
        return out;
    }

    private static Instances<ChunkKeyEncoding> instances(int... ns) {
        return new Instances<>(InstancesTest.class, "chunk key encoding", Provider::new, () -> configs(ns),
                ChunkKeyEncoding::toJson);
    }

    private static String failure(DynamicTest t) {
        return assertThrows(AssertionFailedError.class, () -> t.getExecutable().execute()).getMessage();
    }

    @Test
    void oneTestPerInstanceNamedByItsLabel() throws Throwable {
        List<Integer> seen = new ArrayList<>();
        List<DynamicTest> tests = instances(1, 2).each("K99", "a statement", e -> seen.add(((Encoding) e).n()))
                .collect(Collectors.toList());
        assertEquals(List.of("K99 {\"name\":\"fake\",\"configuration\":{\"n\":1}}: a statement",
                "K99 {\"name\":\"fake\",\"configuration\":{\"n\":2}}: a statement"),
                tests.stream().map(DynamicTest::getDisplayName).collect(Collectors.toList()));
        for (DynamicTest t : tests) {
            t.getExecutable().execute();
        }
        assertEquals(List.of(1, 2), seen);
    }

    @Test
    void aFailureNamesTheRuleAndTheInstance() {
        DynamicTest t = instances(3).each("K99", "a statement", e -> {
            throw new IllegalStateException("boom");
        }).findFirst().orElseThrow();
        String message = failure(t);
        assertTrue(message.startsWith("K99 violated by chunk key encoding {\"name\":\"fake\",\"configuration\":{\"n\":3}} ("
                + Encoding.class.getName() + "): a statement: threw java.lang.IllegalStateException: boom"), message);
    }

    @Test
    void aProviderThatThrowsFailsTheRuleOnce() {
        List<DynamicTest> tests = instances(1, -1).each("K99", "a statement", e -> { }).collect(Collectors.toList());
        assertEquals(1, tests.size());
        assertEquals("K99 a statement", tests.get(0).getDisplayName());
        String message = failure(tests.get(0));
        assertTrue(message.startsWith("K99 violated by fake: a statement: threw "), message);
        assertTrue(message.contains("n must not be negative"), message);
    }

    @Test
    void aNullInstanceOrNoConfigurationFailsCreation() {
        assertTrue(assertThrows(AssertionFailedError.class, () -> instances(1, 0).each("K99", "s", e -> { }))
                .getMessage().startsWith(Provider.class.getName() + " returned null for "));
        assertEquals(InstancesTest.class.getName() + " lists no configurations to test",
                assertThrows(AssertionFailedError.class, () -> instances().create()).getMessage());
    }
}
