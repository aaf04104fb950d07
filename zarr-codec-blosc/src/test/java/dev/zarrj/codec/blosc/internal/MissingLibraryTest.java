package dev.zarrj.codec.blosc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.core.Zarr;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.blosc.JBlosc;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * zarrj without c-blosc, for real: a child JVM whose JNA is told to search nowhere. The blosc
 * provider is discovered and does no harm; an array without blosc works; an array with blosc is
 * created and opened without loading c-blosc (a load would fail here), and writing a chunk of it
 * or reading a stored one fails with the install instructions, every time.
 */
class MissingLibraryTest {
    @Test
    void withoutCBloscBloscArraysOpenButTheirChunksCannotBeReadOrWrittenAndTheMessageSaysHowToInstallIt()
            throws Exception {
        String text = runProbe();
        List<String> out = text.lines().filter(l -> l.matches("^(codecs|plain|opened|write|read|blosc): .*")).toList();
        Assumptions.assumeFalse(out.contains("blosc: loaded"), () -> skip("c-blosc was found by its plain name"
                + " (libblosc.so, from a -dev package?) despite jna.library.path and jna.platform.library.path"
                + " pointing nowhere, so its absence cannot be simulated here"));
        assertEquals(6, out.size(), "probe output: " + out);
        assertTrue(out.get(0).startsWith("codecs: ") && out.get(0).contains("blosc") && out.get(0).contains("bytes"),
                out.get(0));
        assertEquals("plain: 4", out.get(1), "an array without blosc is not affected");
        assertEquals("opened: 7", out.get(2), "a blosc array is created and opened without c-blosc");
        for (String line : out.subList(3, 5)) {
            assertTrue(line.startsWith("write: " + NativeBlosc.MISSING_CODE + " "), line);
            assertInstallInstructions(line);
        }
        String read = out.get(5);
        assertTrue(read.startsWith("read: ZARR-CHUNK " + NativeBlosc.MISSING_CODE + " "), "the cause is the missing"
                + " library: " + read);
        assertTrue(read.contains("chunk 'b/c/0' could not be decoded: "), "the pipeline names the chunk: " + read);
        assertInstallInstructions(read);
        assertFalse(text.contains("Exception in thread"), "no task of the parallel write failed on its own:\n" + text);
    }

    private static void assertInstallInstructions(String line) {
        BloscCodecProviderTest.assertMissingLibraryMessage(line);
        assertTrue(line.contains("Cause: UnsatisfiedLinkError: Unable to load library 'blosc': libblosc"),
                "names the cause: " + line);
    }

    private static String skip(String reason) {
        System.out.println("MissingLibraryTest: skipped: " + reason);
        return reason;
    }

    /** The jar or classes directory a class was loaded from. */
    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String runProbe() throws Exception {
        String classPath = Stream.of(BloscCodecProvider.class, MissingLibraryProbe.class, ExtensionConfig.class,
                        Zarr.class, ObjectMapper.class, JsonParser.class, JsonAutoDetect.class, JBlosc.class,
                        com.sun.jna.Native.class)
                .map(MissingLibraryTest::location)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", classPath,
                "-Djna.library.path=/nonexistent/zarrj", "-Djna.platform.library.path=/nonexistent/zarrj",
                MissingLibraryProbe.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe finished");
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "probe failed:\n" + text);
        return text;
    }
}
