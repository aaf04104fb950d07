package dev.zarrj.codec.gzip.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Small bounded pools of raw ({@code nowrap}) zlib streams, so that encoding many small chunks
 * does not allocate and free about 270 KiB of native deflate state per chunk.
 *
 * <p>A stream is used by one thread between {@code take} and {@code give}; {@code give} resets it
 * (which also drops its reference to the caller's input) and keeps it, or {@code end()}s it when
 * the pool is full. Pooled streams live as long as the class; there are at most
 * {@link #CAPACITY} per level and {@link #CAPACITY} inflaters. Unlike a {@code ThreadLocal}, this
 * stays bounded with many (or virtual) threads.
 */
final class ZlibPool {
    static final int CAPACITY = Math.max(2, Runtime.getRuntime().availableProcessors());

    private static final List<ArrayBlockingQueue<Deflater>> DEFLATERS = new ArrayList<>();
    private static final ArrayBlockingQueue<Inflater> INFLATERS = new ArrayBlockingQueue<>(CAPACITY);

    static {
        for (int level = 0; level <= 9; level++) {
            DEFLATERS.add(new ArrayBlockingQueue<>(CAPACITY));
        }
    }

    private ZlibPool() {}

    /** A raw deflater at {@code level} (1..9), ready for new input. */
    static Deflater takeDeflater(int level) {
        Deflater d = DEFLATERS.get(level).poll();
        return d != null ? d : new Deflater(level, true);
    }

    static void give(int level, Deflater d) {
        d.reset();
        if (!DEFLATERS.get(level).offer(d)) {
            d.end();
        }
    }

    /** A raw inflater, ready for new input. */
    static Inflater takeInflater() {
        Inflater i = INFLATERS.poll();
        return i != null ? i : new Inflater(true);
    }

    static void give(Inflater i) {
        i.reset();
        if (!INFLATERS.offer(i)) {
            i.end();
        }
    }
}
