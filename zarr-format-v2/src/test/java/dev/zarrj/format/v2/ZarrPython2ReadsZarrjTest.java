package dev.zarrj.format.v2;

import static dev.zarrj.format.v2.ZarrPython2FixturesTest.ROOT;
import static dev.zarrj.format.v2.ZarrPython2FixturesTest.ZARR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * zarrj writes every fixture array again as Zarr v2 through core, consolidates the hierarchy, and
 * zarr-python 2 reads it back with the fixtures' values. Runs where a Python with zarr-python 2 is
 * found: {@code $ZARRJ_PYTHON2}, else Debian's {@code /usr/bin/python3} (where python3-zarr installs
 * zarr-python 2), else {@code python3}.
 */
class ZarrPython2ReadsZarrjTest {
    private static final ZarrV2Format V2 = new ZarrV2Format();

    static String python() {
        String env = System.getenv("ZARRJ_PYTHON2");
        if (env != null && !env.isBlank()) {
            return env;
        }
        return java.nio.file.Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    }

    static boolean hasZarrPython2() {
        try {
            Process p = new ProcessBuilder(python(), "-c", "import zarr, sys; sys.exit(0 if zarr.__version__.startswith('2.')"
                    + " else 1)").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void zarrPython2ReadsWhatZarrjWroteAsV2(@TempDir Path dir) throws Exception {
        assumeTrue(hasZarrPython2(), "no zarr-python 2 (set ZARRJ_PYTHON2 to a python that has it)");
        Store fixtures = ZARR.openStore(ROOT.toAbsolutePath().toString(), true);
        Store out = ZARR.openStore(dir.toString());
        ObjectNode rootAttributes = (ObjectNode) ZARR.openGroup(fixtures, "/").attributes();
        ZARR.createGroup(out, "/", rootAttributes, 2);
        ZARR.createGroup(out, "/sub", (ObjectNode) ZARR.openGroup(fixtures, "/sub").attributes(), 2);
        for (String name : ZarrPython2FixturesTest.arrays().toList()) {
            ZarrArray source = ZARR.openArray(fixtures, "/" + name);
            ObjectNode doc = V2.read(ZarrPython2FixturesTest.stored(name)).orElseThrow().document();
            ZarrArray copy = ZARR.createArray(out, "/" + name, doc, true, 2);
            assertEquals(2, copy.zarrFormat());
            copy.write(source.read());
        }
        ZARR.consolidate(out, "/");

        Process p = new ProcessBuilder(python(), Path.of("src", "test", "python", "check_written.py").toString(),
                ROOT.toString(), dir.toString()).redirectErrorStream(true).start();
        String report = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(p.waitFor(120, TimeUnit.SECONDS), "zarr-python did not finish");
        assertEquals(0, p.exitValue(), report);
        assertEquals(ZarrPython2FixturesTest.arrays().count(), report.lines().filter(l -> l.startsWith("OK ")).count(),
                report);
    }
}
