package dev.zarrj.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A progress bar on standard error: label, bar, percentage, count, throughput and time left,
 * redrawn in place on one line and cleared when the work ends, so that nothing of it stays in the
 * terminal or reaches standard output. With an unknown total it shows the count (or the elapsed
 * time) instead of a bar.
 *
 * <p>{@link Mode#AUTO} (the default) draws only when standard error is a terminal, and only once
 * the work has taken {@link #DELAY_NANOS} (a quick command never flickers). {@code ZARR_PROGRESS}
 * chooses: {@code always} draws from the start, wherever standard error goes (for tests and
 * logs), {@code never} never.
 */
final class Progress implements AutoCloseable {
    /** When to draw. */
    enum Mode {
        ALWAYS, NEVER, AUTO;

        /** The mode {@code ZARR_PROGRESS} names (case-insensitive); auto when unset or blank. */
        static Mode parse(String value) {
            if (value == null || value.isBlank()) {
                return AUTO;
            }
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "always", "on", "1", "true" -> ALWAYS;
                case "never", "off", "0", "false" -> NEVER;
                case "auto" -> AUTO;
                default -> throw new UserError("ZARR_PROGRESS must be always, never or auto, not '" + value + "'");
            };
        }
    }

    /** How long the work runs before {@link Mode#AUTO} shows the bar. */
    static final long DELAY_NANOS = 1_000_000_000L;
    private static final long REDRAW_NANOS = 200_000_000L;
    private static final int BAR_WIDTH = 20;

    private final PrintWriter err;
    private volatile String label;
    private volatile String unit;
    private volatile long total;
    private final boolean enabled;
    private final long delay;
    private final LongSupplier clock;
    private final long start;
    private volatile long phaseStart;
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final Thread ticker;
    private long lastDraw = Long.MIN_VALUE;
    private boolean drawn;
    /** Another writer is in the middle of a line on the same terminal: do not draw over it. */
    private volatile boolean held;
    private boolean closed;

    /**
     * A bar for {@code total} units ({@code -1}: unknown) named {@code unit} (plural, "chunks").
     * {@code tick}: redraw on a timer too, for work whose steps are few or far apart.
     */
    Progress(PrintWriter err, String label, long total, String unit, boolean enabled, long delay, LongSupplier clock,
            boolean tick) {
        this.err = err;
        this.label = label;
        this.unit = unit;
        this.total = total;
        this.enabled = enabled;
        this.delay = delay;
        this.clock = clock;
        this.start = clock.getAsLong();
        this.phaseStart = start;
        if (enabled && tick) {
            ticker = new Thread(this::tick, "zarr-progress");
            ticker.setDaemon(true);
            ticker.start();
        } else {
            ticker = null;
        }
    }

    /** Whether standard error (file descriptor 2) of this process is a terminal, as far as Java can tell. */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // No /proc (macOS): System.console() needs stdin and stdout on a terminal too, the best left.
            return System.console() != null;
        }
    }

    /**
     * Starts the next part of the same work (the next array of a copy): a new label, total and
     * count, and rate and time left measured afresh; the delay before the bar shows still counts
     * from the start of the whole, so that a command of many quick parts shows one too.
     */
    synchronized void phase(String newLabel, long newTotal, String newUnit) {
        label = newLabel;
        total = newTotal;
        unit = newUnit;
        done.set(0);
        bytes.set(0);
        phaseStart = clock.getAsLong();
    }

    /**
     * Erases the bar's line if it is shown, before a line of output to the same terminal; the
     * next step draws it again below that line.
     */
    synchronized void clear() {
        if (drawn && !closed) {
            synchronized (err) {
                err.print("\r\033[K");
                err.flush();
            }
            drawn = false;
        }
    }

    /**
     * A writer to {@code target} (the same terminal as the bar) that erases the bar before each
     * write and lets it be drawn again only once a line is complete, for output the command does
     * not write itself (zarr bench's harness).
     */
    PrintWriter around(PrintWriter target) {
        if (!enabled) {
            return target;
        }
        return new PrintWriter(new java.io.Writer() {
            @Override
            public void write(char[] buf, int off, int len) {
                if (len == 0) {
                    return;
                }
                held = true;
                clear();
                target.write(buf, off, len);
                held = buf[off + len - 1] != '\n';
            }

            @Override
            public void flush() {
                target.flush();
            }

            @Override
            public void close() {
                target.flush();
            }
        }, true);
    }

    /** Whether this bar draws at all (a caller may then split its work into steps). */
    boolean enabled() {
        return enabled;
    }

    /** One unit done, of {@code stepBytes} bytes (0 when the unit has no size worth a rate). */
    void step(long stepBytes) {
        long d = done.incrementAndGet();
        bytes.addAndGet(stepBytes);
        if (enabled) {
            draw(d == total); // the last step shows, however soon after the one before
        }
    }

    private void tick() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(REDRAW_NANOS / 1_000_000L);
                draw(false);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void draw(boolean force) {
        long now = clock.getAsLong();
        if (closed || held || now - start < delay || (!force && drawn && now - lastDraw < REDRAW_NANOS)) {
            return;
        }
        lastDraw = now;
        drawn = true;
        synchronized (err) {
            err.print("\r" + line(done.get(), bytes.get(), now - phaseStart) + "\033[K");
            err.flush();
        }
    }

    /** The bar's text for {@code d} units and {@code b} bytes done after {@code elapsed} nanoseconds. */
    String line(long d, long b, long elapsed) {
        double seconds = Math.max(1e-9, elapsed / 1e9);
        StringBuilder s = new StringBuilder(label).append(' ');
        if (total > 0) {
            double fraction = Math.min(1.0, (double) d / total);
            int filled = (int) Math.round(fraction * BAR_WIDTH);
            s.append('[').append("#".repeat(filled)).append("-".repeat(BAR_WIDTH - filled)).append("] ");
            s.append(String.format(Locale.ROOT, "%3d%% %d/%d %s", (int) Math.floor(fraction * 100), d, total, unit));
        } else if (d > 0) {
            s.append(d).append(' ').append(unit);
        } else {
            s.append("...");
        }
        if (b > 0) {
            s.append(", ").append(InfoCommand.humanBytes((long) (b / seconds))).append("/s");
        } else if (d > 0 && total != 0) {
            s.append(String.format(Locale.ROOT, ", %.1f %s/s", d / seconds, unit));
        }
        if (total > 0 && d > 0 && d < total) {
            s.append(", ETA ").append(clockTime((long) (seconds * (total - d) / d)));
        } else {
            s.append(", ").append(clockTime((long) seconds));
        }
        return s.toString();
    }

    /** Seconds as m:ss, or h:mm:ss from an hour. */
    static String clockTime(long seconds) {
        long h = seconds / 3600;
        long m = seconds / 60 % 60;
        long sec = seconds % 60;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, sec) : String.format(Locale.ROOT, "%d:%02d", m, sec);
    }

    /** Stops the bar and clears its line, so that what follows starts on a clean line. */
    @Override
    public void close() {
        if (ticker != null) {
            ticker.interrupt();
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (drawn) {
                synchronized (err) {
                    err.print("\r\033[K");
                    err.flush();
                }
            }
        }
    }
}
