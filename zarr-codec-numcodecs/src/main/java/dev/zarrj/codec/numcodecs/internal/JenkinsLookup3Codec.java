package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * {@code numcodecs.jenkins_lookup3}: numcodecs' {@code JenkinsLookup3}, Bob Jenkins' lookup3
 * {@code hashlittle} as HDF5 computes it (bytes taken little-endian, 12 at a time), seeded with
 * {@code initval} over {@code prefix} followed by the data, stored as 4 little-endian bytes after
 * the data.
 *
 * <p>Configuration: {@code initval}, an unsigned 32-bit integer (default 0); {@code prefix},
 * optional bytes hashed before the data (HDF5 uses it for its own structures), as a JSON array of
 * integers 0 to 255. Immutable and thread-safe.
 *
 * @param initval the seed
 * @param prefix  bytes hashed before the data, or null
 */
record JenkinsLookup3Codec(long initval, byte[] prefix) implements BytesToBytesCodec {
    static final String NAME = "numcodecs.jenkins_lookup3";
    private static final int SIZE = 4;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode().put("initval", initval);
        if (prefix != null) {
            ArrayNode p = node.putArray("prefix");
            for (byte b : prefix) {
                p.add(b & 0xff);
            }
        }
        return node;
    }

    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        return Buffers.plus(decoded, SIZE);
    }

    private int checksum(ByteBuffer data) {
        if (prefix == null) {
            return hash(data, (int) initval);
        }
        ByteBuffer all = ByteBuffer.allocate(prefix.length + data.remaining());
        all.put(prefix).put(data.duplicate()).flip();
        return hash(all, (int) initval);
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        int n = decoded.remaining();
        if (n > Buffers.MAX_BUFFER - SIZE) {
            throw new ZarrException("ZARR-CODEC", NAME + ": " + n + " bytes and a checksum exceed the largest buffer");
        }
        ByteBuffer out = ByteBuffer.allocate(n + SIZE).order(ByteOrder.LITTLE_ENDIAN);
        out.put(0, decoded, decoded.position(), n);
        out.putInt(n, checksum(decoded));
        return out;
    }

    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        if (encoded.remaining() < SIZE) {
            throw new CorruptDataException(NAME + ": " + encoded.remaining() + " bytes cannot hold the 4-byte checksum");
        }
        return EncodedSize.fixed(encoded.remaining() - SIZE);
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        int n = decodedSize(encoded) instanceof EncodedSize.Fixed f ? (int) f.bytes() : 0;
        BytesToBytesCodec.checkDecodedSize(NAME, n, decodedSize);
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer data = in.slice(0, n);
        int stored = in.getInt(n);
        int computed = checksum(data);
        if (stored != computed) {
            throw new ChecksumMismatchException(String.format("%s: checksum mismatch: stored 0x%08x, computed 0x%08x"
                    + " over %d bytes", NAME, stored, computed, n));
        }
        ByteBuffer out = ByteBuffer.allocate(n);
        out.put(0, data, 0, n);
        return out;
    }

    /** lookup3's hashlittle over the bytes from position to limit, byte by byte as HDF5 does. */
    static int hash(ByteBuffer data, int initval) {
        int length = data.remaining();
        int p = data.position();
        int a = 0xdeadbeef + length + initval;
        int b = a;
        int c = a;
        while (length > 12) {
            a += word(data, p, 4);
            b += word(data, p + 4, 4);
            c += word(data, p + 8, 4);
            // mix
            a -= c; a ^= Integer.rotateLeft(c, 4); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 6); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 8); b += a;
            a -= c; a ^= Integer.rotateLeft(c, 16); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 19); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 4); b += a;
            length -= 12;
            p += 12;
        }
        if (length == 0) {
            return c;
        }
        a += word(data, p, Math.min(length, 4));
        if (length > 4) {
            b += word(data, p + 4, Math.min(length - 4, 4));
        }
        if (length > 8) {
            c += word(data, p + 8, length - 8);
        }
        // final
        c ^= b; c -= Integer.rotateLeft(b, 14);
        a ^= c; a -= Integer.rotateLeft(c, 11);
        b ^= a; b -= Integer.rotateLeft(a, 25);
        c ^= b; c -= Integer.rotateLeft(b, 16);
        a ^= c; a -= Integer.rotateLeft(c, 4);
        b ^= a; b -= Integer.rotateLeft(a, 14);
        c ^= b; c -= Integer.rotateLeft(b, 24);
        return c;
    }

    /** {@code count} (1 to 4) bytes at {@code p}, little-endian. */
    private static int word(ByteBuffer data, int p, int count) {
        int w = 0;
        for (int i = 0; i < count; i++) {
            w |= (data.get(p + i) & 0xff) << (8 * i);
        }
        return w;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JenkinsLookup3Codec j && j.initval == initval && Arrays.equals(j.prefix, prefix);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(initval) * 31 + Arrays.hashCode(prefix);
    }

    @Override
    public String toString() {
        return NAME + configuration();
    }
}
