package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * numcodecs' 32-bit checksums as bytes→bytes codecs: {@code numcodecs.adler32},
 * {@code numcodecs.crc32} (zlib's Adler-32 and CRC-32 of the data, stored as 4 little-endian bytes
 * before the data, or after it with {@code "location": "end"}; numcodecs 0.14 added the option,
 * {@code "start"} is its default and the only form earlier versions write),
 * {@code numcodecs.crc32c} (CRC-32C, {@code "end"} by default) and
 * {@code numcodecs.fletcher32} (the HDF5/netCDF Fletcher-32 over big-endian 16-bit words, stored
 * as 4 little-endian bytes after the data; no configuration).
 *
 * <p>Decoding verifies the checksum and fails with {@link ChecksumMismatchException} naming both
 * values. Immutable and thread-safe.
 *
 * @param algorithm which checksum
 * @param location  where it is stored; for fletcher32 always {@code END}
 * @param explicitLocation whether the configuration named the location (it is written back as read)
 */
record ChecksumCodec(Algorithm algorithm, Location location, boolean explicitLocation) implements BytesToBytesCodec {
    enum Algorithm {
        ADLER32("numcodecs.adler32"), CRC32("numcodecs.crc32"), CRC32C("numcodecs.crc32c"),
        FLETCHER32("numcodecs.fletcher32");

        final String codecName;

        Algorithm(String codecName) {
            this.codecName = codecName;
        }

        int checksum(ByteBuffer data) {
            switch (this) {
                case ADLER32 -> {
                    Adler32 a = new Adler32();
                    a.update(data.duplicate());
                    return (int) a.getValue();
                }
                case CRC32 -> {
                    CRC32 c = new CRC32();
                    c.update(data.duplicate());
                    return (int) c.getValue();
                }
                case CRC32C -> {
                    CRC32C c = new CRC32C();
                    c.update(data.duplicate());
                    return (int) c.getValue();
                }
                default -> {
                    return fletcher32(data);
                }
            }
        }
    }

    enum Location {
        START, END;

        String json() {
            return this == START ? "start" : "end";
        }
    }

    static final int SIZE = 4;

    ChecksumCodec {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(location, "location");
    }

    @Override
    public String name() {
        return algorithm.codecName;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (explicitLocation) {
            node.put("location", location.json());
        }
        return node;
    }

    /** The location, when the configuration gives one. */
    Optional<Location> configuredLocation() {
        return explicitLocation ? Optional.of(location) : Optional.empty();
    }

    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        return Buffers.plus(decoded, SIZE);
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        ByteBuffer in = decoded.slice();
        int n = in.remaining();
        if (n > Buffers.MAX_BUFFER - SIZE) {
            throw new dev.zarrj.api.ZarrException("ZARR-CODEC", name() + ": " + n + " bytes and a checksum exceed the"
                    + " largest buffer; use smaller chunks");
        }
        ByteBuffer out = ByteBuffer.allocate(n + SIZE).order(ByteOrder.LITTLE_ENDIAN);
        int sum = algorithm.checksum(in);
        int dataAt = location == Location.START ? SIZE : 0;
        out.putInt(location == Location.START ? 0 : n, sum);
        out.put(dataAt, in, in.position(), n);
        return out.position(0);
    }

    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        int n = encoded.remaining();
        if (n < SIZE) {
            throw tooShort(n);
        }
        return EncodedSize.fixed(n - SIZE);
    }

    private CorruptDataException tooShort(int n) {
        return new CorruptDataException(name() + ": " + n + " bytes cannot hold the 4-byte checksum");
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        int n = in.remaining();
        if (n < SIZE) {
            throw tooShort(n);
        }
        BytesToBytesCodec.checkDecodedSize(name(), n - SIZE, decodedSize);
        int stored = in.getInt(location == Location.START ? 0 : n - SIZE);
        ByteBuffer data = in.slice(location == Location.START ? SIZE : 0, n - SIZE);
        int computed = algorithm.checksum(data);
        if (stored != computed) {
            throw new ChecksumMismatchException(String.format("%s: checksum mismatch: stored 0x%08x, computed 0x%08x"
                    + " over %d bytes (checksum at the %s)", name(), stored, computed, n - SIZE, location.json()));
        }
        ByteBuffer out = ByteBuffer.allocate(n - SIZE);
        out.put(0, data, 0, n - SIZE);
        return out;
    }

    /**
     * Fletcher-32 as HDF5 and netCDF compute it (H5_checksum_fletcher32): sums of big-endian 16-bit
     * words in blocks of 360, each sum folded to 16 bits after a block; an odd last byte counts as
     * the high byte of a word; the result is {@code sum2 << 16 | sum1}. Arithmetic is modulo 2^32
     * as in the C original.
     */
    static int fletcher32(ByteBuffer data) {
        int len = data.remaining();
        int p = data.position();
        int words = len / 2;
        int sum1 = 0;
        int sum2 = 0;
        while (words > 0) {
            int block = Math.min(words, 360);
            words -= block;
            for (int i = 0; i < block; i++) {
                sum1 += ((data.get(p) & 0xff) << 8) | (data.get(p + 1) & 0xff);
                p += 2;
                sum2 += sum1;
            }
            sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
            sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        }
        if ((len & 1) != 0) {
            sum1 += (data.get(p) & 0xff) << 8;
            sum2 += sum1;
            sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
            sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        }
        sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
        sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        return (sum2 << 16) | sum1;
    }

    @Override
    public String toString() {
        return name() + "[location=" + location.json() + "]";
    }
}
