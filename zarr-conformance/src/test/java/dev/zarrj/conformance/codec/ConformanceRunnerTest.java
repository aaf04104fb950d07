package dev.zarrj.conformance.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.conformance.runner.ConformanceRunner;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The runner over a registry holding one codec: a correct one passes every rule; one that drops
 * the last byte fails with a line that names the rule it breaks.
 */
class ConformanceRunnerTest {
    private static String run(XorCodecFixture.Defect defect, int[] failures) {
        StringWriter text = new StringWriter();
        ExtensionRegistry registry = ExtensionRegistry.builder().add(XorCodecFixture.provider(defect)).build();
        failures[0] = new ConformanceRunner(registry, new PrintWriter(text)).run(false);
        return text.toString();
    }

    @Test
    void aCorrectPluginPasses() {
        int[] failures = new int[1];
        String out = run(XorCodecFixture.Defect.NONE, failures);
        assertEquals(0, failures[0], out);
        assertTrue(out.contains("PASS codec xor-fixture: BB01"), out);
        assertTrue(out.strip().lines().reduce((a, b) -> b).orElse("").matches("\\d+ passed, 0 failed.*"), out);
    }

    @Test
    void aPluginThatDropsTheLastByteFailsNamingTheRule() {
        int[] failures = new int[1];
        String out = run(XorCodecFixture.Defect.DROPS_LAST_BYTE, failures);
        assertTrue(failures[0] > 0, out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("FAIL codec xor-fixture: BB01")), out);
        assertTrue(out.strip().lines().reduce((a, b) -> b).orElse("").matches("\\d+ passed, [1-9]\\d* failed.*"), out);
    }
}
