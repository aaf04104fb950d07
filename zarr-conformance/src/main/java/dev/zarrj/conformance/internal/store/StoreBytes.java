package dev.zarrj.conformance.internal.store;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Byte helpers for the store rules: test values, copies, and short renderings for messages. */
public final class StoreBytes {
    private StoreBytes() {}

    /** {@code n} bytes of a pattern that differs with {@code seed} and has no period of 2^k. */
    public static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ((i * 31 + seed * 17 + (i >> 8) * 7) % 251);
        }
        return b;
    }

    /** {@code n} copies of one byte. */
    public static byte[] uniform(int n, int value) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) value);
        return b;
    }

    /** The UTF-8 bytes of a string. */
    public static byte[] utf8(String s) {
        return s.getBytes(UTF_8);
    }

    /** The bytes from position to limit, without moving the buffer. */
    public static byte[] array(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    /** The bytes {@code [from, to)} of an array. */
    public static byte[] range(byte[] value, long from, long to) {
        return java.util.Arrays.copyOfRange(value, (int) from, (int) to);
    }

    /** A short rendering for messages: the length and the first bytes in hex. */
    public static String show(byte[] b) {
        if (b == null) {
            return "absent";
        }
        int n = Math.min(b.length, 16);
        return b.length + " bytes [" + HexFormat.of().formatHex(b, 0, n) + (b.length > n ? "..." : "") + "]";
    }
}
