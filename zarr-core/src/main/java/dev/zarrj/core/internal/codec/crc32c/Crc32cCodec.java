package dev.zarrj.core.internal.codec.crc32c;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The {@code crc32c} codec: appends the CRC32C (RFC 3720, Castagnoli) of the bytes as a 4-byte
 * little-endian unsigned integer, and on decoding verifies and strips it.
 *
 * <p>Spec: {@code codecs-crc32c.rst}
 * (<a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/crc32c/">crc32c codec</a>).
 * Name: {@code crc32c}; no aliases; no configuration.
 *
 * <pre>{@code
 * {"name": "crc32c"}
 * }</pre>
 *
 * <p>The encoded size is the decoded size plus 4 (fixed, bounded or unknown as the decoded size
 * is). A mismatch is a {@link ChecksumMismatchException}. No partial decoding: the checksum covers
 * the whole value, so the default full decode applies. Uses the JDK's {@link CRC32C}, which the
 * JVM accelerates. Immutable and thread-safe.
 */
public final class Crc32cCodec implements BytesToBytesCodec {
    static final int CHECKSUM_BYTES = 4;

    /** The codec; it has no configuration, so one instance serves everyone. */
    public static final Crc32cCodec INSTANCE = new Crc32cCodec();

    private Crc32cCodec() {}

    @Override
    public String name() {
        return Crc32cCodecProvider.NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        if (decoded instanceof EncodedSize.Fixed f && f.bytes() <= Long.MAX_VALUE - CHECKSUM_BYTES) {
            return EncodedSize.fixed(f.bytes() + CHECKSUM_BYTES);
        }
        if (decoded instanceof EncodedSize.Bounded b && b.maxBytes() <= Long.MAX_VALUE - CHECKSUM_BYTES) {
            return EncodedSize.bounded(b.maxBytes() + CHECKSUM_BYTES);
        }
        return EncodedSize.unbounded();
    }

    private static int checksum(ByteBuffer bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.duplicate());
        return (int) crc.getValue();
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        int n = decoded.remaining();
        ByteBuffer out = ByteBuffer.allocate(Math.addExact(n, CHECKSUM_BYTES)).order(ByteOrder.LITTLE_ENDIAN);
        out.put(decoded.duplicate());
        out.putInt(checksum(decoded));
        return out.flip();
    }

    /** Exactly the value's size less the 4-byte checksum. */
    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        int n = encoded.remaining();
        return n < CHECKSUM_BYTES ? EncodedSize.unbounded() : EncodedSize.fixed(n - CHECKSUM_BYTES);
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        int n = encoded.remaining();
        if (n < CHECKSUM_BYTES) {
            throw new CorruptDataException("crc32c: the encoded value has " + n
                    + " bytes, fewer than the 4-byte checksum it must end with");
        }
        int payloadLength = n - CHECKSUM_BYTES;
        BytesToBytesCodec.checkDecodedSize(name(), payloadLength, decodedSize);
        ByteBuffer payload = encoded.slice(encoded.position(), payloadLength);
        int stored = encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(encoded.position() + payloadLength);
        int computed = checksum(payload);
        if (stored != computed) {
            throw new ChecksumMismatchException(String.format("crc32c: stored checksum 0x%08X does not match the"
                    + " computed checksum 0x%08X of %d bytes", stored, computed, payloadLength));
        }
        return payload;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Crc32cCodec;
    }

    @Override
    public int hashCode() {
        return Crc32cCodec.class.hashCode();
    }

    @Override
    public String toString() {
        return "crc32c";
    }
}
