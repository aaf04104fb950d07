package dev.zarrj.codec.registry;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.codec.CodecConfiguration;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Configurations of this module's codecs, for building arrays in code:
 * {@code zarr.array(DataTypes.BOOL, 1000).codecs(RegistryCodecs.packbits(PackBitsPadding.NONE))}.
 * The provider checks the fields against the data type when the array is created.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RegistryCodecs {
    private RegistryCodecs() {}

    /** How {@code packbits} records the number of padding bits. */
    public enum PackBitsPadding {
        /** Not recorded (the default). */
        NONE("none"),
        /** In a byte before the packed bits (numcodecs' {@code packbits} layout). */
        FIRST_BYTE("first_byte"),
        /** In a byte after the packed bits. */
        LAST_BYTE("last_byte");

        private final String json;

        PackBitsPadding(String json) {
            this.json = json;
        }
    }

    /** {@code packbits} keeping every bit of each element. */
    public static CodecConfiguration packbits(PackBitsPadding padding) {
        return CodecConfiguration.of("packbits", Map.of("padding_encoding", padding.json));
    }

    /**
     * {@code packbits} keeping bits {@code firstBit..lastBit} (inclusive, 0 the least significant)
     * of each component: lossy unless they are all of the type's bits.
     *
     * @throws IllegalArgumentException when {@code firstBit < 0} or {@code lastBit < firstBit}
     */
    public static CodecConfiguration packbits(PackBitsPadding padding, int firstBit, int lastBit) {
        if (firstBit < 0 || lastBit < firstBit) {
            throw new IllegalArgumentException("packbits needs 0 <= firstBit <= lastBit, got " + firstBit + ", "
                    + lastBit);
        }
        return CodecConfiguration.of("packbits", Map.of("padding_encoding", padding.json, "first_bit", firstBit,
                "last_bit", lastBit));
    }
}
