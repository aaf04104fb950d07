package dev.zarrj.ext.datetime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.ext.datetime.NumpyTimeType.Variant;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The conversions to and from java.time: exact, or a DateTimeException naming type and value. */
class NumpyTimeTypeTest {
    private static NumpyTimeType dt(DateTimeUnit u, int scale) {
        return NumpyTimeType.datetime64(u, scale);
    }

    private static NumpyTimeType td(DateTimeUnit u, int scale) {
        return NumpyTimeType.timedelta64(u, scale);
    }

    private static void assertMessage(DateTimeException e, String... parts) {
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), "'" + e.getMessage() + "' should name " + p);
        }
    }

    @Test
    void everyFixedUnitConvertsToAnInstantAndBack() {
        Instant t = Instant.parse("2005-02-03T04:05:06Z");
        assertEquals(t, dt(DateTimeUnit.SECOND, 1).toInstant(1107403506L));
        assertEquals(t, dt(DateTimeUnit.MILLISECOND, 10).toInstant(110740350600L));
        assertEquals(t, dt(DateTimeUnit.MICROSECOND, 1).toInstant(1107403506000000L));
        assertEquals(t, dt(DateTimeUnit.NANOSECOND, 1).toInstant(1107403506000000000L));
        assertEquals(Instant.parse("2005-02-03T04:05:00Z"), dt(DateTimeUnit.MINUTE, 1).toInstant(18456725L));
        assertEquals(Instant.parse("2005-02-03T04:00:00Z"), dt(DateTimeUnit.HOUR, 1).toInstant(307612L));
        assertEquals(Instant.parse("2005-02-03T00:00:00Z"), dt(DateTimeUnit.DAY, 1).toInstant(12817L));
        assertEquals(Instant.parse("2005-02-03T00:00:00Z"), dt(DateTimeUnit.WEEK, 1).toInstant(1831L));
        assertEquals(Instant.parse("1969-12-31T23:59:59.999999999Z"), dt(DateTimeUnit.NANOSECOND, 1).toInstant(-1));
        assertEquals(Instant.parse("1970-01-01T00:00:00.000001Z"), dt(DateTimeUnit.PICOSECOND, 1).toInstant(1_000_000));
        for (DateTimeUnit u : DateTimeUnit.values()) {
            if (u == DateTimeUnit.GENERIC || u.compareTo(DateTimeUnit.NANOSECOND) > 0) {
                continue;
            }
            NumpyTimeType type = dt(u, 3);
            for (long v : new long[] {0, 1, -1, 12345, -777}) {
                assertEquals(v, type.fromInstant(type.toInstant(v)), type + " " + v);
            }
        }
        for (DateTimeUnit u : new DateTimeUnit[] {DateTimeUnit.PICOSECOND, DateTimeUnit.FEMTOSECOND, DateTimeUnit.ATTOSECOND}) {
            NumpyTimeType type = dt(u, 1);
            assertEquals(-1_000_000_000_000L, type.fromInstant(type.toInstant(-1_000_000_000_000L)), type.toString());
        }
    }

    @Test
    void yearsAndMonthsOfADatetimeAreCalendarYearsAndMonths() {
        assertEquals(Instant.parse("2005-01-01T00:00:00Z"), dt(DateTimeUnit.YEAR, 1).toInstant(35));
        assertEquals(Instant.parse("1969-01-01T00:00:00Z"), dt(DateTimeUnit.YEAR, 1).toInstant(-1));
        assertEquals(Instant.parse("2005-02-01T00:00:00Z"), dt(DateTimeUnit.MONTH, 1).toInstant(35 * 12 + 1));
        assertEquals(Instant.parse("1972-01-01T00:00:00Z"), dt(DateTimeUnit.MONTH, 12).toInstant(2));
        assertEquals(35, dt(DateTimeUnit.YEAR, 1).fromInstant(Instant.parse("2005-01-01T00:00:00Z")));
        assertMessage(assertThrows(DateTimeException.class,
                () -> dt(DateTimeUnit.YEAR, 1).fromInstant(Instant.parse("2005-01-02T00:00:00Z"))), "start of a year");
    }

    @Test
    void durationsConvertExactly() {
        assertEquals(Duration.ofDays(365), td(DateTimeUnit.MILLISECOND, 1).toDuration(31536000000L));
        assertEquals(Duration.ofDays(365), td(DateTimeUnit.MILLISECOND, 10).toDuration(3153600000L));
        assertEquals(Duration.ofSeconds(6), td(DateTimeUnit.PICOSECOND, 1).toDuration(6000000000000L));
        assertEquals(Duration.ofMillis(-1500), td(DateTimeUnit.SECOND, 1).toDuration(-1).multipliedBy(3).dividedBy(2));
        assertEquals(Duration.ofNanos(-1), td(DateTimeUnit.NANOSECOND, 1).toDuration(-1));
        assertEquals(Duration.ofDays(7 * 5), td(DateTimeUnit.WEEK, 5).toDuration(1));
        assertEquals(3153600000L, td(DateTimeUnit.MILLISECOND, 10).fromDuration(Duration.ofDays(365)));
    }

    @Test
    void conversionsThatCannotBeExactFailNamingTypeAndValue() {
        assertMessage(assertThrows(DateTimeException.class, () -> dt(DateTimeUnit.SECOND, 1).toInstant(NumpyTimeType.NAT)),
                "numpy.datetime64[s]", "NaT");
        assertMessage(assertThrows(DateTimeException.class, () -> td(DateTimeUnit.YEAR, 1).toDuration(2)),
                "numpy.timedelta64[Y] value 2", "no fixed length");
        assertMessage(assertThrows(DateTimeException.class, () -> td(DateTimeUnit.MONTH, 1).toDuration(2)),
                "numpy.timedelta64[M] value 2");
        assertMessage(assertThrows(DateTimeException.class, () -> dt(DateTimeUnit.ATTOSECOND, 1).toInstant(5)),
                "numpy.datetime64[as] value 5", "nanoseconds");
        assertMessage(assertThrows(DateTimeException.class, () -> td(DateTimeUnit.FEMTOSECOND, 1).toDuration(1)),
                "numpy.timedelta64[fs] value 1", "nanoseconds");
        assertMessage(assertThrows(DateTimeException.class, () -> dt(DateTimeUnit.SECOND, 1).toInstant(Long.MAX_VALUE)),
                "numpy.datetime64[s] value 9223372036854775807", "range of Instant");
        assertMessage(assertThrows(DateTimeException.class, () -> dt(DateTimeUnit.WEEK, 1000).toInstant(Long.MAX_VALUE)),
                "numpy.datetime64[1000W]", "range");
        assertMessage(assertThrows(DateTimeException.class, () -> dt(DateTimeUnit.YEAR, 1).toInstant(Long.MAX_VALUE)),
                "numpy.datetime64[Y]", "range");
        assertMessage(assertThrows(DateTimeException.class, () -> td(DateTimeUnit.WEEK, 1000).toDuration(Long.MAX_VALUE)),
                "numpy.timedelta64[1000W]", "range of Duration");
        assertMessage(assertThrows(DateTimeException.class, () -> dt(DateTimeUnit.GENERIC, 1).toInstant(3)),
                "numpy.datetime64[generic] value 3", "no unit");
        assertMessage(assertThrows(DateTimeException.class,
                () -> dt(DateTimeUnit.MILLISECOND, 10).fromInstant(Instant.ofEpochMilli(5))), "10ms");
        assertMessage(assertThrows(DateTimeException.class,
                () -> dt(DateTimeUnit.NANOSECOND, 1).fromInstant(Instant.parse("3000-01-01T00:00:00Z"))), "range");
        assertThrows(UnsupportedOperationException.class, () -> td(DateTimeUnit.SECOND, 1).toInstant(1));
        assertThrows(UnsupportedOperationException.class, () -> dt(DateTimeUnit.SECOND, 1).toDuration(1));
    }

    @Test
    void isoTextIsExactDownToAttoseconds() {
        assertEquals(Optional.empty(), dt(DateTimeUnit.SECOND, 1).toIsoString(NumpyTimeType.NAT));
        assertEquals(Optional.of("2005-02-03T04:05:06Z"), dt(DateTimeUnit.SECOND, 1).toIsoString(1107403506L));
        assertEquals(Optional.of("1970-01-01T00:00:00.000000000000000001Z"), dt(DateTimeUnit.ATTOSECOND, 1).toIsoString(1));
        assertEquals(Optional.of("1969-12-31T23:59:59.999999999999999999Z"), dt(DateTimeUnit.ATTOSECOND, 1).toIsoString(-1));
        assertEquals(Optional.of("1970-01-01T00:00:00.010Z"), dt(DateTimeUnit.MILLISECOND, 10).toIsoString(1));
        assertEquals(Optional.of("2005-01-01T00:00:00Z"), dt(DateTimeUnit.YEAR, 1).toIsoString(35));
        assertEquals(Optional.of("PT31536000S"), td(DateTimeUnit.MILLISECOND, 10).toIsoString(3153600000L));
        assertEquals(Optional.of("PT-0.000000000000000001S"), td(DateTimeUnit.ATTOSECOND, 1).toIsoString(-1));
        assertEquals(Optional.of("P70Y"), td(DateTimeUnit.YEAR, 2).toIsoString(35));
        assertEquals(Optional.of("P-3M"), td(DateTimeUnit.MONTH, 1).toIsoString(-3));
        assertEquals(Duration.parse(td(DateTimeUnit.MICROSECOND, 1).toIsoString(-1500001).orElseThrow()),
                td(DateTimeUnit.MICROSECOND, 1).toDuration(-1500001));
        assertThrows(DateTimeException.class, () -> dt(DateTimeUnit.GENERIC, 1).toIsoString(0));
        assertThrows(DateTimeException.class, () -> dt(DateTimeUnit.SECOND, 1).toIsoString(Long.MAX_VALUE));
    }

    @Test
    void typesAreEqualWhenTheyWriteTheSameMetadata() {
        assertEquals(dt(DateTimeUnit.MICROSECOND, 1),
                NumpyTimeType.of(Variant.DATETIME64, DateTimeUnit.MICROSECOND, "us", 1));
        assertTrue(!dt(DateTimeUnit.MICROSECOND, 1).equals(
                NumpyTimeType.of(Variant.DATETIME64, DateTimeUnit.MICROSECOND, "\u03bcs", 1)));
        assertTrue(!dt(DateTimeUnit.SECOND, 1).equals(td(DateTimeUnit.SECOND, 1)));
        assertEquals("numpy.datetime64[10ms]", dt(DateTimeUnit.MILLISECOND, 10).toString());
        assertThrows(IllegalArgumentException.class, () -> dt(DateTimeUnit.SECOND, 0));
    }
}
