package dev.zarrj.ext.datetime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.math.BigInteger;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The units of NumPy's {@code datetime64} and {@code timedelta64}, by their metadata identifiers
 * ({@code "Y"}, {@code "M"}, {@code "W"}, {@code "D"}, {@code "h"}, {@code "m"}, {@code "s"},
 * {@code "ms"}, {@code "us"} or {@code "μs"}, {@code "ns"}, {@code "ps"}, {@code "fs"},
 * {@code "as"}, {@code "generic"}).
 *
 * <p>Years and months are calendar units (their length varies); {@code generic} has no length at
 * all (NumPy's unit-less type, whose only meaningful value is {@code NaT}); every other unit is a
 * fixed number of attoseconds.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum DateTimeUnit {
    YEAR("Y", null),
    MONTH("M", null),
    WEEK("W", BigInteger.valueOf(604_800L).multiply(BigInteger.TEN.pow(18))),
    DAY("D", BigInteger.valueOf(86_400L).multiply(BigInteger.TEN.pow(18))),
    HOUR("h", BigInteger.valueOf(3_600L).multiply(BigInteger.TEN.pow(18))),
    MINUTE("m", BigInteger.valueOf(60L).multiply(BigInteger.TEN.pow(18))),
    SECOND("s", BigInteger.TEN.pow(18)),
    MILLISECOND("ms", BigInteger.TEN.pow(15)),
    MICROSECOND("us", BigInteger.TEN.pow(12)),
    NANOSECOND("ns", BigInteger.TEN.pow(9)),
    PICOSECOND("ps", BigInteger.TEN.pow(6)),
    FEMTOSECOND("fs", BigInteger.TEN.pow(3)),
    ATTOSECOND("as", BigInteger.ONE),
    GENERIC("generic", null);

    private final String identifier;
    private final BigInteger attoseconds;

    DateTimeUnit(String identifier, BigInteger attoseconds) {
        this.identifier = identifier;
        this.attoseconds = attoseconds;
    }

    /** The identifier written to metadata ({@code "us"} for microseconds). */
    public String identifier() {
        return identifier;
    }

    /**
     * The unit's length in attoseconds; empty for {@link #YEAR} and {@link #MONTH} (calendar
     * units) and {@link #GENERIC} (no unit).
     */
    public Optional<BigInteger> attoseconds() {
        return Optional.ofNullable(attoseconds);
    }

    /** Whether this is a calendar unit ({@link #YEAR}, {@link #MONTH}). */
    public boolean isCalendar() {
        return this == YEAR || this == MONTH;
    }

    /**
     * The unit with this metadata identifier; {@code "μs"} (U+03BC) and {@code "us"} are both
     * microseconds. Empty for any other string.
     */
    public static Optional<DateTimeUnit> of(String identifier) {
        if (identifier.equals("\u03bcs")) {
            return Optional.of(MICROSECOND);
        }
        for (DateTimeUnit u : values()) {
            if (u.identifier.equals(identifier)) {
                return Optional.of(u);
            }
        }
        return Optional.empty();
    }
}
