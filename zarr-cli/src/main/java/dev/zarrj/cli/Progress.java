package dev.zarrj.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/** A progress line with throughput on stderr, shown only when stderr is a terminal. */
final class Progress {
    private final PrintWriter err;
    private final String label;
    private final long total;
    private final boolean enabled;
    private final long start = System.nanoTime();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private volatile long lastPrint;

    Progress(PrintWriter err, String label, long total) {
        this.err = err;
        this.label = label;
        this.total = total;
        this.enabled = System.console() != null;
    }

    void step(long stepBytes) {
        long d = done.incrementAndGet();
        long b = bytes.addAndGet(stepBytes);
        if (!enabled) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastPrint > 200_000_000L || d == total) {
            lastPrint = now;
            double seconds = Math.max(1e-9, (now - start) / 1e9);
            synchronized (err) {
                err.printf(Locale.ROOT, "\r%s: %d/%d, %.1f MB/s   ", label, d, total, b / 1e6 / seconds);
                err.flush();
            }
        }
    }

    void finish() {
        if (enabled) {
            err.println();
        }
    }
}
