package dev.zarrj.core.internal.codec.bytes;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Bulk byte-order conversion through typed buffer views, not byte loops. */
final class ByteSwap {
    private ByteSwap() {}

    /**
     * Copies {@code src} (position to limit) to {@code dst} (from its position), reversing the
     * bytes of every {@code unit}-byte group. Neither buffer's position changes.
     */
    static void swapCopy(ByteBuffer src, ByteBuffer dst, int unit) {
        int n = src.remaining();
        if (n % unit != 0) {
            throw new IllegalArgumentException(n + " bytes are not a whole number of " + unit + "-byte units");
        }
        // Reading in one byte order and writing in the other swaps each unit; the JDK does the bulk
        // put with one swapping memory copy.
        ByteBuffer in = src.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer out = dst.duplicate().order(ByteOrder.BIG_ENDIAN);
        switch (unit) {
            case 1 -> out.put(in);
            case 2 -> out.asShortBuffer().put(in.asShortBuffer());
            case 4 -> out.asIntBuffer().put(in.asIntBuffer());
            case 8 -> out.asLongBuffer().put(in.asLongBuffer());
            default -> {
                int s = src.position();
                int d = dst.position();
                for (int i = 0; i < n; i += unit) {
                    for (int k = 0; k < unit; k++) {
                        dst.put(d + i + k, src.get(s + i + unit - 1 - k));
                    }
                }
            }
        }
    }
}
