package dev.zarrj.conformance.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.conformance.runner.ConformanceRunner;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import dev.zarrj.core.registry.ProviderInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The runner checks the metadata formats a registry holds: the toy format passes every MF rule;
 * one that loses attributes fails MF01 with a line naming the rule and the sample.
 */
class MetadataFormatRunnerTest {
    private static final Set<String> CORE_TYPES = Set.of("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
            "uint32", "uint64", "float32", "float64", "complex128");

    private static String run(MetadataFormat format, int[] failures) {
        StringWriter text = new StringWriter();
        // The format and what its documents name (checked too: MF07 resolves them in this registry).
        ExtensionRegistry.Builder b = ExtensionRegistry.builder().add(format);
        for (ProviderInfo p : ExtensionRegistry.discover().report().providers()) {
            if (p.point() == ExtensionPoint.DATA_TYPE && CORE_TYPES.contains(p.name())
                    || p.point() == ExtensionPoint.CHUNK_GRID || p.point() == ExtensionPoint.CHUNK_KEY_ENCODING
                    || p.point() == ExtensionPoint.CODEC && (p.name().equals("bytes") || p.name().equals("transpose"))) {
                b.add(p.provider());
            }
        }
        ExtensionRegistry registry = b.build();
        failures[0] = new ConformanceRunner(registry, new PrintWriter(text)).run(false);
        return text.toString();
    }

    @Test
    void aCorrectFormatPassesEveryRule() {
        int[] failures = new int[1];
        String out = run(new ToyFormat(), failures);
        assertEquals(0, failures[0], out);
        for (String id : new String[] {"MF01", "MF02", "MF03", "MF04", "MF05", "MF06", "MF07"}) {
            assertTrue(out.contains("PASS metadata format toy: " + id), id + " did not run: " + out);
        }
        assertTrue(out.strip().lines().reduce((a, b) -> b).orElse("").matches("\\d+ passed, 0 failed.*"), out);
    }

    @Test
    void aFormatThatLosesAttributesFailsMf01NamingTheSample() {
        int[] failures = new int[1];
        String out = run(new ToyFormat() {
            @Override
            public Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous) {
                Map<String, JsonNode> docs = new LinkedHashMap<>(super.write(document, previous));
                docs.remove(ATTRS);
                return docs;
            }
        }, failures);
        assertTrue(failures[0] > 0, out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("FAIL metadata format toy: MF01 group with attributes")
                && l.contains("/attributes")), out);
        assertTrue(out.lines().filter(l -> l.startsWith("FAIL")).allMatch(l -> l.contains(": MF01 ")), out);
    }
}
