package dev.zarrj.codec.zstd.internal;

import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Inputs, hand-built zstd frames and measuring helpers for the tests. */
final class TestData {
    static final int MAGIC = 0xFD2FB528;

    private TestData() {}

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Text-like data that zstd shrinks several times. */
    static byte[] compressible(int n, long seed) {
        Random r = new Random(seed);
        String[] words = {"zarr", "chunk", "array", "zstd ", "frame", "shard", "codec ", "\n", "0.25 ", "-17 "};
        byte[] b = new byte[n];
        int i = 0;
        while (i < n) {
            byte[] w = words[r.nextInt(words.length)].getBytes(StandardCharsets.US_ASCII);
            for (int j = 0; j < w.length && i < n; j++) {
                b[i++] = w[j];
            }
        }
        return b;
    }

    static ByteBuffer buf(byte[] b) {
        return ByteBuffer.wrap(b);
    }

    static ByteBuffer direct(byte[] b) {
        ByteBuffer d = ByteBuffer.allocateDirect(b.length);
        d.put(b).flip();
        return d;
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /**
     * A frame written by zstd-jni's streaming API, which does not know the size in advance and so
     * leaves the content size out of the header; flushing every {@code flushEvery} bytes makes
     * many blocks.
     */
    static byte[] streamingFrame(byte[] data, int level, boolean checksum, int flushEvery) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStreamNoFinalizer z = new ZstdOutputStreamNoFinalizer(out, level)) {
            z.setChecksum(checksum);
            for (int i = 0; i < data.length; i += flushEvery) {
                z.write(data, i, Math.min(flushEvery, data.length - i));
                z.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A skippable frame (magic 0x184D2A5?) carrying {@code payload}. */
    static byte[] skippableFrame(int magicNibble, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(8 + payload.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x184D2A50 | magicNibble).putInt(payload.length).put(payload);
        return b.array();
    }

    /**
     * A frame built by hand: a 128 KiB window, the given dictionary ID (0 for none), the declared
     * content size in 8 bytes (or none when negative), and blocks made by {@link #rleBlock} and
     * {@link #rawBlock}. No checksum.
     */
    static byte[] handFrame(long declaredSize, int dictId, byte[]... blocks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        putIntLE(out, MAGIC);
        out.write((declaredSize >= 0 ? 0xC0 : 0) | (dictId != 0 ? 1 : 0));
        out.write((17 - 10) << 3);
        if (dictId != 0) {
            out.write(dictId);
        }
        if (declaredSize >= 0) {
            putIntLE(out, (int) declaredSize);
            putIntLE(out, (int) (declaredSize >>> 32));
        }
        for (byte[] block : blocks) {
            out.writeBytes(block);
        }
        return out.toByteArray();
    }

    /** A frame of {@code size} copies of one byte in RLE blocks of 128 KiB, four bytes each. */
    static byte[] rleFrame(long size, long declaredSize) {
        int blocks = (int) Math.max(1, (size + (1 << 17) - 1) >>> 17);
        byte[][] parts = new byte[blocks][];
        long left = size;
        for (int i = 0; i < blocks; i++) {
            int n = (int) Math.min(left, 1 << 17);
            parts[i] = rleBlock(n, (byte) 'z', i == blocks - 1);
            left -= n;
        }
        return handFrame(declaredSize, 0, parts);
    }

    static byte[] rleBlock(int size, byte value, boolean last) {
        return concat(blockHeader(1, size, last), new byte[] {value});
    }

    static byte[] rawBlock(byte[] data, boolean last) {
        return concat(blockHeader(0, data.length, last), data);
    }

    private static byte[] blockHeader(int type, int size, boolean last) {
        int h = (last ? 1 : 0) | type << 1 | size << 3;
        return new byte[] {(byte) h, (byte) (h >>> 8), (byte) (h >>> 16)};
    }

    /** The length of a frame's header (magic included), read from its descriptor. */
    static int headerLength(byte[] frame) {
        int d = frame[4] & 0xff;
        boolean single = (d & 0x20) != 0;
        int fcs = (d >>> 6) == 0 ? (single ? 1 : 0) : 1 << (d >>> 6);
        int dict = (d & 3) == 3 ? 4 : d & 3;
        return 5 + (single ? 0 : 1) + dict + fcs;
    }

    private static void putIntLE(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }

    /** Bytes allocated on the Java heap by this thread so far, or -1 when the JVM does not say. */
    static long allocatedBytes() {
        try {
            Object bean = Class.forName("java.lang.management.ManagementFactory")
                    .getMethod("getThreadMXBean").invoke(null);
            return (long) Class.forName("com.sun.management.ThreadMXBean")
                    .getMethod("getCurrentThreadAllocatedBytes").invoke(bean);
        } catch (ReflectiveOperationException | LinkageError e) {
            return -1;
        }
    }
}
