package dev.zarrj.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * What a child process of the benchmark (a child JVM, tensorstore's Python) says: its standard
 * error goes to the log line by line as it comes, and the last line of standard output that
 * starts with {@code {} is its JSON result.
 */
final class ProcessLines {
    private ProcessLines() {}

    /**
     * Closes the process's standard input, logs its standard error with {@code label} in front of
     * each line (on a daemon thread, returned so that the caller can wait for the last lines),
     * and reads standard output to its end.
     *
     * @return the last JSON line of standard output, or null when there was none
     */
    static Result read(Process p, Log log, String label, String threadName) throws IOException {
        p.getOutputStream().close();
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    log.raw("    " + label + ": " + line);
                }
            } catch (IOException e) {
                log.raw("    " + label + ": (standard error lost: " + e.getMessage() + ")");
            }
        }, threadName);
        pump.setDaemon(true);
        pump.start();
        String last = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("{")) {
                    last = line;
                }
            }
        }
        return new Result(last, pump);
    }

    /** The last JSON line (or null) and the thread still logging standard error. */
    record Result(String lastJson, Thread stderrPump) {}
}
