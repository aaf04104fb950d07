package dev.zarrj.codec.gzip.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ExtensionConfig;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The codec in child JVMs: with libdeflate, turned off by the system property or the environment
 * variable, and missing (its name pointing nowhere). In each, creating a codec loads nothing, the
 * first chunk loads libdeflate when it is to be used, chunks round-trip, and the codec says what it
 * runs on.
 */
class FallbackTest {
    @Test
    void withLibdeflateTheFirstChunkLoadsItAndItRuns() throws Exception {
        GzipCodecLibdeflateTest.requireLibdeflate();
        Map<String, String> out = probe(List.of(), Map.of());
        assertEquals("false", out.get("mapped before"), "creating a codec loads nothing");
        assertEquals("true", out.get("mapped after"), "the first chunk loads libdeflate");
        assertEquals("true", out.get("round trip"));
        assertEquals("false", out.get("same as java.util.zip"), "libdeflate wrote the chunk");
        assertTrue(out.get("implementation").startsWith("libdeflate"), out.toString());
    }

    @Test
    void theSystemPropertyForcesJavaUtilZip() throws Exception {
        Map<String, String> out = probe(List.of("-D" + NativeGzip.PROPERTY + "=false"), Map.of());
        assertJavaUtilZip(out);
        assertEquals("java.util.zip (libdeflate turned off by -Dzarrj.gzip.native=false)", out.get("implementation"));
    }

    @Test
    void theEnvironmentVariableForcesJavaUtilZip() throws Exception {
        Map<String, String> out = probe(List.of(), Map.of(NativeGzip.ENV, "FALSE"));
        assertJavaUtilZip(out);
        assertEquals("java.util.zip (libdeflate turned off by ZARRJ_GZIP_NATIVE=false)", out.get("implementation"));
    }

    @Test
    void withoutLibdeflateTheCodecFallsBackToJavaUtilZip() throws Exception {
        Map<String, String> out = probe(List.of("-D" + NativeGzip.LIBRARY_PROPERTY + "=/nonexistent/zarrj/libdeflate.so.0",
                "-Djna.library.path=/nonexistent/zarrj", "-Djna.platform.library.path=/nonexistent/zarrj"), Map.of());
        assertJavaUtilZip(out);
        assertTrue(out.get("implementation").startsWith("java.util.zip (libdeflate not loaded: UnsatisfiedLinkError: "),
                out.toString());
        assertTrue(out.get("implementation").contains("/nonexistent/zarrj/libdeflate.so.0"), "names the library: " + out);
    }

    private static void assertJavaUtilZip(Map<String, String> out) {
        assertEquals("true", out.get("round trip"), out.toString());
        assertEquals("true", out.get("same as java.util.zip"), "java.util.zip wrote the chunk: " + out);
        assertTrue(List.of("false", "unknown").contains(out.get("mapped after")), "libdeflate is not loaded: " + out);
    }

    /** The jar or classes directory a class was loaded from. */
    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The probe's "key: value" lines. */
    private static Map<String, String> probe(List<String> options, Map<String, String> env) throws Exception {
        String classPath = Stream.of(GzipCodec.class, FallbackProbe.class, ExtensionConfig.class, ObjectMapper.class,
                        JsonParser.class, JsonAutoDetect.class, com.sun.jna.Native.class,
                        org.junit.jupiter.api.Assertions.class, org.opentest4j.AssertionFailedError.class)
                .map(FallbackTest::location)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", classPath));
        command.addAll(options);
        command.add(FallbackProbe.class.getName());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove(NativeGzip.ENV);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] output = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe finished");
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "probe failed:\n" + text);
        return text.lines().filter(l -> l.contains(": ")).collect(Collectors.toMap(
                l -> l.substring(0, l.indexOf(": ")), l -> l.substring(l.indexOf(": ") + 2), (a, b) -> b));
    }
}
