package dev.zarrj.codec.gzip.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** Inputs and hand-built gzip streams for the tests. */
final class TestData {
    private TestData() {}

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Text-like data that deflate shrinks several times. */
    static byte[] compressible(int n, long seed) {
        Random r = new Random(seed);
        String[] words = {"zarr", "chunk", "array", "gzip ", "deflate", "shard", "codec ", "\n", "0.25 ", "-17 "};
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

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    static byte[] rawDeflate(byte[] data, int level) {
        Deflater d = new Deflater(level, true);
        try {
            d.setInput(data);
            d.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            while (!d.finished()) {
                out.write(chunk, 0, d.deflate(chunk));
            }
            return out.toByteArray();
        } finally {
            d.end();
        }
    }

    static int crc32(byte[] data) {
        CRC32 c = new CRC32();
        c.update(data);
        return (int) c.getValue();
    }

    static void putIntLE(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }

    /**
     * A gzip member built by hand around {@code deflate}, with the optional header fields given
     * (null for absent) and, when {@code headerCrc}, an FHCRC field.
     */
    static byte[] member(byte[] deflate, byte[] decoded, byte[] extra, String name, String comment,
            boolean headerCrc) {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        int flags = (extra != null ? 0x04 : 0) | (name != null ? 0x08 : 0) | (comment != null ? 0x10 : 0)
                | (headerCrc ? 0x02 : 0);
        h.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, (byte) flags, 0x12, 0x34, 0x56, 0x78, 0, 3});
        if (extra != null) {
            h.write(extra.length);
            h.write(extra.length >>> 8);
            h.writeBytes(extra);
        }
        if (name != null) {
            h.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
            h.write(0);
        }
        if (comment != null) {
            h.writeBytes(comment.getBytes(StandardCharsets.ISO_8859_1));
            h.write(0);
        }
        if (headerCrc) {
            int crc = crc32(h.toByteArray());
            h.write(crc);
            h.write(crc >>> 8);
        }
        h.writeBytes(deflate);
        putIntLE(h, crc32(decoded));
        putIntLE(h, decoded.length);
        return h.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
