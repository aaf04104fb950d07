package dev.zarrj.bench;

import java.io.PrintWriter;
import java.util.Locale;

/** Progress lines on standard error, each with the seconds since the run started. */
final class Log {
    private final PrintWriter err;
    private final long start = System.nanoTime();

    Log(PrintWriter err) {
        this.err = err;
    }

    void line(String format, Object... args) {
        synchronized (err) {
            err.printf(Locale.ROOT, "[%6.1fs] %s%n", elapsed(), String.format(Locale.ROOT, format, args));
            err.flush();
        }
    }

    /** A line as it is, without the time (a child JVM's own output). */
    void raw(String line) {
        synchronized (err) {
            err.println(line);
            err.flush();
        }
    }

    double elapsed() {
        return (System.nanoTime() - start) / 1e9;
    }
}
