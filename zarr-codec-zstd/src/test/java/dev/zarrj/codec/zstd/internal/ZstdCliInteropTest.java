package dev.zarrj.codec.zstd.internal;

import static dev.zarrj.codec.zstd.internal.TestData.buf;
import static dev.zarrj.codec.zstd.internal.TestData.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.luben.zstd.Zstd;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interoperability with the reference {@code zstd} command-line tool, a separate build of
 * libzstd with its own framing choices. Skipped when {@code zstd} is not on the {@code PATH}.
 */
class ZstdCliInteropTest {
    private static Path cli;

    @TempDir
    Path dir;

    final byte[] data = TestData.compressible(500_000, 21);

    @BeforeAll
    static void findCli() {
        Optional<Path> found = Optional.empty();
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, "zstd");
            if (!d.isEmpty() && Files.isExecutable(p)) {
                found = Optional.of(p);
                break;
            }
        }
        Assumptions.assumeTrue(found.isPresent(), "the zstd command-line tool is not on the PATH");
        cli = found.get();
    }

    /** Runs the tool with standard input from {@code in} (none when null); returns its standard output. */
    private byte[] run(Path in, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(cli.toString(), "-q", "-c"));
        command.addAll(List.of(args));
        Path out = dir.resolve("out-" + System.nanoTime());
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        if (in != null) {
            pb.redirectInput(in.toFile());
        }
        Process p = pb.start();
        if (in == null) {
            p.getOutputStream().close();
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " timed out");
        }
        assertEquals(0, p.exitValue(), command + " failed");
        return Files.readAllBytes(out);
    }

    private Path file(String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    @Test
    void decodesWhatTheToolWritesFromAFile() throws Exception {
        Path in = file("data", data);
        byte[] frame = run(null, "-19", in.toString());
        assertEquals(data.length, Zstd.getFrameContentSize(frame), "a file's size goes into the header");
        for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.unbounded()}) {
            assertArrayEquals(data, bytes(new ZstdCodec(ZstdConfiguration.defaults()).decode(buf(frame), size)));
        }
    }

    @Test
    void decodesWhatTheToolStreamsFromStandardInput() throws Exception {
        byte[] frame = run(file("data", data), "--check", "-3");
        assertEquals(-1, Zstd.getFrameContentSize(frame), "a stream's size is unknown to the tool");
        for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.bounded(data.length),
                EncodedSize.unbounded()}) {
            assertArrayEquals(data, bytes(new ZstdCodec(ZstdConfiguration.defaults()).decode(buf(frame), size)));
        }
    }

    @Test
    void theToolDecodesAndVerifiesWhatWeWrite() throws Exception {
        for (ZstdConfiguration c : new ZstdConfiguration[] {ZstdConfiguration.of(-7, true), ZstdConfiguration.of(0, false),
                ZstdConfiguration.of(22, true)}) {
            byte[] frame = bytes(new ZstdCodec(c).encode(buf(data)));
            assertArrayEquals(data, run(file("ours.zst", frame), "-d"), c.toString());
        }
    }
}
