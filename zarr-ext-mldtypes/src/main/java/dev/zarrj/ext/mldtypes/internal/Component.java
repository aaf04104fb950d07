package dev.zarrj.ext.mldtypes.internal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One number of a narrow format, as a bit pattern in the low {@link #bits()} bits of a long: how
 * it reads as a double, how a double rounds to it, and its fill-value JSON forms.
 */
interface Component {
    /** The format's name in messages ({@code float8_e4m3}). */
    String name();

    /** Significant bits of the pattern; the rest of its bytes are ignored when read. */
    int bits();

    /** Bytes per component in memory and in the {@code bytes} codec: 1, or 2 for 16-bit formats. */
    default int bytes() {
        return bits() > 8 ? 2 : 1;
    }

    boolean isInteger();

    /** The value of a pattern (bits above {@link #bits()} ignored), exactly; NaN for a NaN pattern. */
    double decode(long pattern);

    /**
     * The pattern of the value nearest {@code value}, written with canonical upper bits.
     *
     * @throws IllegalArgumentException when the format has no value for it
     */
    long encode(double value);

    /**
     * The pattern a fill-value JSON form stands for.
     *
     * @param what names the value in messages ({@code "the int4 fill value"})
     * @throws dev.zarrj.api.InvalidMetadataException when the form is not allowed
     */
    long parse(JsonNode json, String pointer, String what);

    /** The canonical JSON form of a pattern. */
    JsonNode toJson(long pattern);
}
