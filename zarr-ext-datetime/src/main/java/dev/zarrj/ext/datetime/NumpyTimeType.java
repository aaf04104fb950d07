package dev.zarrj.ext.datetime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The {@code numpy.datetime64} and {@code numpy.timedelta64} data types: each element is a signed
 * 64-bit count of {@code scale_factor} × {@code unit} — since the Unix epoch (1970-01-01T00:00Z)
 * for {@code datetime64}, a duration for {@code timedelta64} — and -2^63 is {@code NaT}, "not a
 * time".
 *
 * <p>Spec: zarr-extensions {@code data-types/numpy.datetime64} and {@code numpy.timedelta64}.
 * Metadata: {@code {"name": "numpy.datetime64", "configuration": {"unit": "ms", "scale_factor":
 * 10}}}. The fill value is a JSON integer or {@code "NaT"} (the integer -2^63 means the same);
 * zarrj writes it as an integer, as zarr-python does.
 *
 * <p>In memory and through codecs the elements are {@code int64} ({@link #kind()} is
 * {@link ElementKind#INT}): read them with {@code NdArray.getLong} or {@code toLongArray()}, and
 * convert with {@link #toInstant}, {@link #toDuration} and {@link #toIsoString}, which are exact or
 * throw a {@link DateTimeException} naming the type and the value: for {@code NaT}, the
 * {@code generic} unit, a value beyond what {@code Instant}/{@code Duration} hold (their range,
 * or a fraction of a nanosecond in {@code ps}, {@code fs}, {@code as}), and a {@code timedelta64}
 * in years or months (whose length varies). Years and months of a {@code datetime64} are calendar
 * years and months since 1970, as in NumPy: {@code datetime64[Y]} 35 is 2005-01-01T00:00Z.
 *
 * <p>Immutable and thread-safe; equal when they write the same metadata ({@code "μs"} and
 * {@code "us"} mean the same unit but are written as read, so they are not equal).
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class NumpyTimeType implements DataType {
    /** The count that stands for {@code NaT}, "not a time": -2^63. */
    public static final long NAT = Long.MIN_VALUE;

    /** The largest scale factor the spec allows: 2^31 - 1. */
    public static final int MAX_SCALE_FACTOR = Integer.MAX_VALUE;

    /** Which of the two NumPy types. */
    public enum Variant {
        /** {@code numpy.datetime64}: a moment, counted from the Unix epoch. */
        DATETIME64("numpy.datetime64"),
        /** {@code numpy.timedelta64}: a signed duration. */
        TIMEDELTA64("numpy.timedelta64");

        private final String typeName;

        Variant(String typeName) {
            this.typeName = typeName;
        }

        /** The data type name in metadata. */
        public String typeName() {
            return typeName;
        }
    }

    private static final BigInteger ATTOS_PER_SECOND = BigInteger.TEN.pow(18);
    private static final BigInteger ATTOS_PER_NANO = BigInteger.TEN.pow(9);
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final Variant variant;
    private final DateTimeUnit unit;
    private final String unitIdentifier;
    private final int scaleFactor;

    private NumpyTimeType(Variant variant, DateTimeUnit unit, String unitIdentifier, int scaleFactor) {
        this.variant = variant;
        this.unit = unit;
        this.unitIdentifier = unitIdentifier;
        this.scaleFactor = scaleFactor;
    }

    /**
     * {@code numpy.datetime64} with this unit and scale factor ({@code datetime64(MILLISECOND, 10)}
     * is NumPy's {@code datetime64[10ms]}).
     *
     * @throws IllegalArgumentException unless the scale factor is in {@code [1, 2^31 - 1]}
     */
    public static NumpyTimeType datetime64(DateTimeUnit unit, int scaleFactor) {
        return of(Variant.DATETIME64, unit, unit.identifier(), scaleFactor);
    }

    /**
     * {@code numpy.timedelta64} with this unit and scale factor.
     *
     * @throws IllegalArgumentException unless the scale factor is in {@code [1, 2^31 - 1]}
     */
    public static NumpyTimeType timedelta64(DateTimeUnit unit, int scaleFactor) {
        return of(Variant.TIMEDELTA64, unit, unit.identifier(), scaleFactor);
    }

    /**
     * The type with a unit spelled as in metadata ({@code "μs"} is kept as {@code "μs"}), for
     * providers.
     *
     * @throws IllegalArgumentException when the identifier is not the unit's or the scale factor
     *                                  is out of range
     */
    public static NumpyTimeType of(Variant variant, DateTimeUnit unit, String unitIdentifier, int scaleFactor) {
        Objects.requireNonNull(variant, "variant");
        if (DateTimeUnit.of(unitIdentifier).orElse(null) != unit) {
            throw new IllegalArgumentException("'" + unitIdentifier + "' is not the identifier of " + unit);
        }
        if (scaleFactor < 1) {
            throw new IllegalArgumentException("the scale factor must be in [1, " + MAX_SCALE_FACTOR + "], found "
                    + scaleFactor);
        }
        return new NumpyTimeType(variant, unit, unitIdentifier, scaleFactor);
    }

    /** {@code DATETIME64} or {@code TIMEDELTA64}. */
    public Variant variant() {
        return variant;
    }

    /** The unit. */
    public DateTimeUnit unit() {
        return unit;
    }

    /** The scale factor: one count is this many units. */
    public int scaleFactor() {
        return scaleFactor;
    }

    /** Whether a count is {@code NaT} (-2^63). */
    public static boolean isNaT(long count) {
        return count == NAT;
    }

    // ---- DataType ----

    @Override
    public String name() {
        return variant.typeName();
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("unit", unitIdentifier);
        c.put("scale_factor", scaleFactor);
        return c;
    }

    @Override
    public int size() {
        return 8;
    }

    @Override
    public int byteOrderUnit() {
        return 8;
    }

    /** {@code INT}: the elements are {@code int64} counts. */
    @Override
    public ElementKind kind() {
        return ElementKind.INT;
    }

    /**
     * A JSON integer in {@code [-2^63, 2^63 - 1]} (no fraction or exponent) or the string
     * {@code "NaT"}.
     */
    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        long v;
        if (json.isTextual() && json.textValue().equals("NaT")) {
            v = NAT;
        } else if (json.isIntegralNumber() && json.canConvertToLong()) {
            v = json.longValue();
        } else {
            String s = json.toString();
            throw new InvalidMetadataException(pointer, "the " + name() + " fill value must be a JSON integer "
                    + "(no fraction or exponent part) in [-9223372036854775808, 9223372036854775807] or \"NaT\"; "
                    + "found " + (s.length() <= 80 ? s : s.substring(0, 77) + "..."));
        }
        return FillValue.ofBytes(ByteBuffer.allocate(8).order(NATIVE).putLong(v).array());
    }

    /** The count as a JSON integer; {@code NaT} as -9223372036854775808, as zarr-python writes it. */
    @Override
    public JsonNode fillValueToJson(FillValue value) {
        if (value.size() != 8) {
            throw new IllegalArgumentException("a " + name() + " fill value has 8 bytes, not " + value.size());
        }
        long v = ByteBuffer.wrap(value.bytes()).order(NATIVE).getLong();
        // The node a JSON parser gives this number, so that written metadata reads back equal.
        return v == (int) v ? IntNode.valueOf((int) v) : LongNode.valueOf(v);
    }

    // ---- conversions ----

    /**
     * The moment a {@code datetime64} count stands for.
     *
     * @throws DateTimeException for {@code NaT}, the {@code generic} unit, a moment outside
     *                           {@code Instant}'s range or finer than a nanosecond
     * @throws UnsupportedOperationException on a {@code timedelta64} type
     */
    public Instant toInstant(long count) {
        require(Variant.DATETIME64, "toInstant");
        checkConvertible(count, "an Instant");
        if (unit.isCalendar()) {
            try {
                return calendarDate(units(count)).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (ArithmeticException | DateTimeException e) {
                throw outsideInstant(count, e);
            }
        }
        BigInteger[] secondsAndAttos = floorSeconds(attoseconds(count));
        BigInteger[] nanos = secondsAndAttos[1].divideAndRemainder(ATTOS_PER_NANO);
        if (nanos[1].signum() != 0) {
            throw new DateTimeException(describe(count) + " is not a whole number of nanoseconds, the resolution"
                    + " of Instant");
        }
        try {
            return Instant.ofEpochSecond(secondsAndAttos[0].longValueExact(), nanos[0].longValue());
        } catch (ArithmeticException | DateTimeException e) {
            throw outsideInstant(count, e);
        }
    }

    /**
     * The {@code datetime64} count of a moment, exactly.
     *
     * @throws DateTimeException when the moment is not a whole number of counts (for
     *                           {@code datetime64[10ms]}, a multiple of 10 ms; for {@code Y} and
     *                           {@code M}, the start of a year or month), does not fit in a count,
     *                           or the unit is {@code generic}
     * @throws UnsupportedOperationException on a {@code timedelta64} type
     */
    public long fromInstant(Instant instant) {
        require(Variant.DATETIME64, "fromInstant");
        if (unit == DateTimeUnit.GENERIC) {
            throw new DateTimeException(this + " has no unit: no moment other than NaT can be stored");
        }
        BigInteger units;
        if (unit.isCalendar()) {
            LocalDate d = instant.atOffset(ZoneOffset.UTC).toLocalDate();
            long years = (long) d.getYear() - 1970;
            units = BigInteger.valueOf(unit == DateTimeUnit.YEAR ? years : years * 12 + d.getMonthValue() - 1);
            if (!calendarDate(units).atStartOfDay(ZoneOffset.UTC).toInstant().equals(instant)) {
                throw new DateTimeException(instant + " is not the start of a " + (unit == DateTimeUnit.YEAR ? "year"
                        : "month") + ", so it is no count of " + this);
            }
        } else {
            BigInteger attos = BigInteger.valueOf(instant.getEpochSecond()).multiply(ATTOS_PER_SECOND)
                    .add(BigInteger.valueOf(instant.getNano()).multiply(ATTOS_PER_NANO));
            BigInteger[] q = attos.divideAndRemainder(unit.attoseconds().orElseThrow());
            if (q[1].signum() != 0) {
                throw new DateTimeException(instant + " is not a whole number of " + unitIdentifier + ", so it is no"
                        + " count of " + this);
            }
            units = q[0];
        }
        return count(units, instant.toString());
    }

    /**
     * The duration a {@code timedelta64} count stands for.
     *
     * @throws DateTimeException for {@code NaT}, the {@code generic} unit, years and months (whose
     *                           length varies), a duration beyond {@code Duration}'s range or
     *                           finer than a nanosecond
     * @throws UnsupportedOperationException on a {@code datetime64} type
     */
    public Duration toDuration(long count) {
        require(Variant.TIMEDELTA64, "toDuration");
        checkConvertible(count, "a Duration");
        if (unit.isCalendar()) {
            throw new DateTimeException(describe(count) + " has no fixed length (" + (unit == DateTimeUnit.YEAR
                    ? "years" : "months") + " differ), so it is no Duration");
        }
        BigInteger[] nanos = attoseconds(count).divideAndRemainder(ATTOS_PER_NANO);
        if (nanos[1].signum() != 0) {
            throw new DateTimeException(describe(count) + " is not a whole number of nanoseconds, the resolution"
                    + " of Duration");
        }
        BigInteger[] secondsAndNanos = nanos[0].divideAndRemainder(BigInteger.valueOf(1_000_000_000L));
        if (secondsAndNanos[0].bitLength() > 63) {
            throw new DateTimeException(describe(count) + " is outside the range of Duration");
        }
        return Duration.ofSeconds(secondsAndNanos[0].longValue(), secondsAndNanos[1].longValue());
    }

    /**
     * The {@code timedelta64} count of a duration, exactly.
     *
     * @throws DateTimeException when the duration is not a whole number of counts, does not fit
     *                           in a count, or the unit is a calendar unit or {@code generic}
     * @throws UnsupportedOperationException on a {@code datetime64} type
     */
    public long fromDuration(Duration duration) {
        require(Variant.TIMEDELTA64, "fromDuration");
        if (unit.isCalendar() || unit == DateTimeUnit.GENERIC) {
            throw new DateTimeException(this + " has no fixed length, so no Duration converts to it");
        }
        BigInteger attos = BigInteger.valueOf(duration.getSeconds()).multiply(ATTOS_PER_SECOND)
                .add(BigInteger.valueOf(duration.getNano()).multiply(ATTOS_PER_NANO));
        BigInteger[] q = attos.divideAndRemainder(unit.attoseconds().orElseThrow());
        if (q[1].signum() != 0) {
            throw new DateTimeException(duration + " is not a whole number of " + unitIdentifier + ", so it is no"
                    + " count of " + this);
        }
        return count(q[0], duration.toString());
    }

    /**
     * A count as ISO 8601 text, exactly, or empty for {@code NaT}: a {@code datetime64} as a UTC
     * instant ({@code 2005-02-03T04:05:06.789Z}, with as many fraction digits as needed, down to
     * attoseconds, in groups of three); a {@code timedelta64} as a duration in seconds
     * ({@code PT-1.5S}, which {@link Duration#parse} reads where it is whole nanoseconds), or in
     * years or months ({@code P35Y}, {@code P7M}).
     *
     * @throws DateTimeException for the {@code generic} unit, and a {@code datetime64} beyond
     *                           year ±1,000,000,000 ({@code Instant}'s range)
     */
    public Optional<String> toIsoString(long count) {
        if (count == NAT) {
            return Optional.empty();
        }
        checkConvertible(count, "ISO 8601 text");
        if (variant == Variant.TIMEDELTA64) {
            if (unit.isCalendar()) {
                return Optional.of("P" + units(count) + (unit == DateTimeUnit.YEAR ? "Y" : "M"));
            }
            return Optional.of("PT" + new BigDecimal(attoseconds(count), 18).stripTrailingZeros().toPlainString() + "S");
        }
        if (unit.isCalendar()) {
            return Optional.of(DateTimeFormatter.ISO_INSTANT.format(toInstant(count)));
        }
        BigInteger[] q = floorSeconds(attoseconds(count));
        BigInteger attos = q[1];
        String whole;
        try {
            whole = DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(q[0].longValueExact()));
        } catch (ArithmeticException | DateTimeException e) {
            throw outsideInstant(count, e);
        }
        if (attos.signum() == 0) {
            return Optional.of(whole);
        }
        String digits = String.format("%018d", attos);
        int end = digits.length();
        while (digits.startsWith("000", end - 3)) {
            end -= 3;
        }
        return Optional.of(whole.substring(0, whole.length() - 1) + "." + digits.substring(0, end) + "Z");
    }

    // ---- internals ----

    private void require(Variant v, String method) {
        if (variant != v) {
            throw new UnsupportedOperationException(method + " applies to " + v.typeName() + ", not " + this);
        }
    }

    private void checkConvertible(long count, String target) {
        if (count == NAT) {
            throw new DateTimeException(this + " value NaT (-9223372036854775808) is not a time, so it is no " + target);
        }
        if (unit == DateTimeUnit.GENERIC) {
            throw new DateTimeException(describe(count) + " has no unit ('generic'), so it is no " + target);
        }
    }

    /** The count times the scale factor, in units. */
    private BigInteger units(long count) {
        return BigInteger.valueOf(count).multiply(BigInteger.valueOf(scaleFactor));
    }

    private BigInteger attoseconds(long count) {
        return units(count).multiply(unit.attoseconds().orElseThrow());
    }

    /** 1970-01-01 plus this many years or months. */
    private LocalDate calendarDate(BigInteger units) {
        long n = units.longValueExact();
        LocalDate epoch = LocalDate.of(1970, 1, 1);
        return unit == DateTimeUnit.YEAR ? epoch.plusYears(n) : epoch.plusMonths(n);
    }

    /** Units as a count of this type: divided by the scale factor exactly, within a long, not NaT. */
    private long count(BigInteger units, String what) {
        BigInteger[] q = units.divideAndRemainder(BigInteger.valueOf(scaleFactor));
        if (q[1].signum() != 0) {
            throw new DateTimeException(what + " is not a whole number of " + scaleFactor + unitIdentifier
                    + ", so it is no count of " + this);
        }
        if (q[0].bitLength() > 63 || q[0].longValue() == NAT) {
            throw new DateTimeException(what + " is outside the range of " + this + " (counts are 64-bit, -2^63 is NaT)");
        }
        return q[0].longValue();
    }

    /** Whole seconds (rounded down) and the attoseconds left, in [0, 10^18). */
    private static BigInteger[] floorSeconds(BigInteger attoseconds) {
        BigInteger[] q = attoseconds.divideAndRemainder(ATTOS_PER_SECOND);
        if (q[1].signum() < 0) {
            q[0] = q[0].subtract(BigInteger.ONE);
            q[1] = q[1].add(ATTOS_PER_SECOND);
        }
        return q;
    }

    private DateTimeException outsideInstant(long count, RuntimeException cause) {
        return new DateTimeException(describe(count) + " is outside the range of Instant (" + Instant.MIN + " to "
                + Instant.MAX + ")", cause);
    }

    private String describe(long count) {
        return this + " value " + count;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NumpyTimeType t && t.variant == variant && t.unitIdentifier.equals(unitIdentifier)
                && t.scaleFactor == scaleFactor;
    }

    @Override
    public int hashCode() {
        return Objects.hash(variant, unitIdentifier, scaleFactor);
    }

    /** NumPy's spelling with the zarr name: {@code numpy.datetime64[10ms]}, {@code numpy.timedelta64[generic]}. */
    @Override
    public String toString() {
        return variant.typeName() + "[" + (scaleFactor == 1 ? "" : Integer.toString(scaleFactor)) + unitIdentifier + "]";
    }
}
