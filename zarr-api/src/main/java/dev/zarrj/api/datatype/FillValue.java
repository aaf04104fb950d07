package dev.zarrj.api.datatype;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.apiguardian.api.API;

/**
 * The value of one element, as its bytes in native byte order: the fill value of an array.
 * Holding bytes keeps NaN payloads and the full {@code uint64} range exact.
 *
 * <p>Immutable; equality is byte equality.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class FillValue {
    private final byte[] bytes;

    private FillValue(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A fill value from the element's bytes in native byte order (copied). */
    public static FillValue ofBytes(byte[] bytes) {
        return new FillValue(bytes.clone());
    }

    /** The element's bytes in native byte order (a copy). */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The element size in bytes. */
    public int size() {
        return bytes.length;
    }

    /** Whether every byte is zero (a freshly allocated buffer already holds this value). */
    public boolean isZero() {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every element in {@code data} (from its position to its limit, a whole number of
     * elements) equals this value bit for bit.
     */
    public boolean fillsAll(ByteBuffer data) {
        int n = bytes.length;
        int pos = data.position();
        int limit = data.limit();
        if (isZero()) {
            // Compare eight bytes at a time where possible: the common all-zero case is hot.
            int i = pos;
            for (; i + 8 <= limit; i += 8) {
                if (data.getLong(i) != 0) {
                    return false;
                }
            }
            for (; i < limit; i++) {
                if (data.get(i) != 0) {
                    return false;
                }
            }
            return true;
        }
        if (n == 1) {
            byte b = bytes[0];
            for (int i = pos; i < limit; i++) {
                if (data.get(i) != b) {
                    return false;
                }
            }
            return true;
        }
        for (int i = pos; i < limit; i += n) {
            for (int k = 0; k < n; k++) {
                if (data.get(i + k) != bytes[k]) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FillValue f && Arrays.equals(bytes, f.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "FillValue[0x" + HexFormat.of().formatHex(bytes) + "]";
    }
}
