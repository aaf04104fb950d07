package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.ext.datetime.DateTimeUnit;
import dev.zarrj.ext.datetime.NumpyTimeType;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data types outside the core numbers: {@code string}, {@code fixed_length_utf32},
 * {@code variable_length_bytes}, {@code numpy.datetime64} and {@code numpy.timedelta64} from the
 * shared vectors (written by zarr-python and zarrita.js; skipped with a printed reason when they
 * are absent), and complex numbers and more time units written by zarrj.
 */
class ReadExtensionTypesTest {
    private static final long NAT = Long.MIN_VALUE;

    /** Microseconds per unit of the units finer than a month. */
    private static final Map<String, BigInteger> MICROS = Map.of(
            "W", BigInteger.valueOf(604_800_000_000L), "D", BigInteger.valueOf(86_400_000_000L),
            "h", BigInteger.valueOf(3_600_000_000L), "m", BigInteger.valueOf(60_000_000L),
            "s", BigInteger.valueOf(1_000_000L), "ms", BigInteger.valueOf(1_000L), "us", BigInteger.ONE);

    @TestFactory
    Stream<DynamicTest> sharedVectors() throws IOException {
        if (Vectors.root().isEmpty()) {
            System.out.println("ReadExtensionTypesTest.sharedVectors: skipped: " + Vectors.ABSENT);
        }
        Assumptions.assumeTrue(Vectors.root().isPresent(), Vectors.ABSENT);
        Path root = Vectors.root().get();
        JsonNode manifest = new ObjectMapper().readTree(root.resolve("MANIFEST.json").toFile());
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode a : manifest.get("arrays")) {
            JsonNode type = a.get("data_type");
            String name = type.isTextual() ? type.asText() : type.path("name").asText();
            if (!List.of("string", "fixed_length_utf32", "variable_length_bytes", "numpy.datetime64", "numpy.timedelta64")
                    .contains(name)) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(a.get("path").asText(), () -> check(root, a, name, type)));
        }
        assertTrue(tests.size() >= 22, "the shared vectors hold string, bytes, datetime64 and timedelta64 arrays: "
                + tests.size());
        return tests.stream();
    }

    private static void check(Path root, JsonNode a, String typeName, JsonNode type) throws IOException {
        String path = a.get("path").asText();
        long[] shape = new long[a.get("shape").size()];
        for (int d = 0; d < shape.length; d++) {
            shape[d] = a.get("shape").get(d).asLong();
        }
        // Each array directory is a store root readable on its own (MANIFEST.md).
        Dataset<Row> table = Tables.read(root.resolve(path).toString(), "");
        List<String> expected = expectedValues(root, a.get("expected").get("values"));
        DataType column = table.schema().fields()[shape.length].dataType();
        Object[] read = Tables.byElement(table, shape);
        assertEquals(expected.size(), read.length, path);
        String unit = type.path("configuration").path("unit").asText();
        long scale = type.path("configuration").path("scale_factor").asLong(1);
        for (int i = 0; i < read.length; i++) {
            String what = path + " element " + i + " (manifest " + expected.get(i) + ")";
            switch (typeName) {
                case "string", "fixed_length_utf32" -> {
                    assertEquals(org.apache.spark.sql.types.DataTypes.StringType, column, path);
                    assertEquals(expected.get(i), read[i], what);
                }
                case "variable_length_bytes" -> {
                    assertEquals(org.apache.spark.sql.types.DataTypes.BinaryType, column, path);
                    assertEquals(expected.get(i), new String((byte[]) read[i], StandardCharsets.US_ASCII), what);
                }
                case "numpy.datetime64" -> checkDatetime(unit, scale, column, Long.parseLong(expected.get(i)), read[i], what);
                default -> checkTimedelta(unit, scale, column, Long.parseLong(expected.get(i)), read[i], what);
            }
        }
    }

    /**
     * A datetime64 in days is a date; one whose unit is another whole number of microseconds or
     * coarser is a timestamp (years and months at the start of the period); a finer one keeps its
     * counts as longs; NaT is null.
     */
    private static void checkDatetime(String unit, long scale, DataType column, long count, Object read, String what) {
        boolean micros = unit.equals("Y") || unit.equals("M") || MICROS.containsKey(unit)
                || (unit.equals("ns") && scale % 1000 == 0);
        if (!micros) {
            assertEquals(org.apache.spark.sql.types.DataTypes.LongType, column, what + ": " + unit + " counts as long");
            assertEquals(count == NAT ? null : count, read, what + ": the count, NaT null");
            return;
        }
        if (unit.equals("D") && scale == 1) {
            assertEquals(org.apache.spark.sql.types.DataTypes.DateType, column, what + ": days are dates");
            if (count == NAT) {
                assertEquals(null, read, what + ": NaT is null");
                return;
            }
            assertInstanceOf(java.sql.Date.class, read, what);
            assertEquals(LocalDate.ofEpochDay(count), ((java.sql.Date) read).toLocalDate(), what);
            return;
        }
        assertEquals(org.apache.spark.sql.types.DataTypes.TimestampType, column, what + ": unit " + scale + unit);
        if (count == NAT) {
            assertEquals(null, read, what + ": NaT is null");
            return;
        }
        Instant want = switch (unit) {
            case "Y" -> LocalDate.of(1970, 1, 1).plusYears(count * scale).atStartOfDay(ZoneOffset.UTC).toInstant();
            case "M" -> LocalDate.of(1970, 1, 1).plusMonths(count * scale).atStartOfDay(ZoneOffset.UTC).toInstant();
            default -> Instant.EPOCH.plus(micros(unit, scale, count), java.time.temporal.ChronoUnit.MICROS);
        };
        assertInstanceOf(Timestamp.class, read, what);
        assertEquals(want, ((Timestamp) read).toInstant(), what);
    }

    /** A timedelta64 of whole microseconds is a day-time interval; a finer one keeps its counts; NaT is null. */
    private static void checkTimedelta(String unit, long scale, DataType column, long count, Object read, String what) {
        boolean micros = MICROS.containsKey(unit) || (unit.equals("ns") && scale % 1000 == 0);
        if (!micros) {
            assertEquals(org.apache.spark.sql.types.DataTypes.LongType, column, what + ": " + unit + " counts as long");
            assertEquals(count == NAT ? null : count, read, what + ": the count, NaT null");
            return;
        }
        assertInstanceOf(DayTimeIntervalType.class, column, what + ": unit " + scale + unit);
        if (count == NAT) {
            assertEquals(null, read, what + ": NaT is null");
            return;
        }
        assertEquals(Duration.of(micros(unit, scale, count), java.time.temporal.ChronoUnit.MICROS), read, what);
    }

    private static long micros(String unit, long scale, long count) {
        BigInteger per = unit.equals("ns") ? BigInteger.valueOf(scale / 1000) : MICROS.get(unit).multiply(BigInteger.valueOf(scale));
        return BigInteger.valueOf(count).multiply(per).longValueExact();
    }

    private static List<String> expectedValues(Path root, JsonNode values) throws IOException {
        String kind = values.get("kind").asText();
        if (kind.equals("lines")) {
            return Files.readAllLines(root.resolve(values.get("file").asText()), StandardCharsets.UTF_8);
        }
        assertEquals("list", kind, "a list of values or a file of lines");
        List<String> out = new ArrayList<>();
        values.get("values").forEach(v -> out.add(v.asText()));
        return out;
    }

    @TempDir
    Path tmp;

    /**
     * Units the shared vectors lack: months and years of datetime64 read as the start of the
     * period, days as dates (seven days as timestamps); a scale that makes a finer unit a whole number of microseconds reads as timestamps
     * and intervals; timedelta64 in months is a year-month interval (as ValueColumn documents).
     */
    @Test
    void calendarUnitsAndScaledFineUnits() {
        Zarr zarr = Zarr.defaults();
        long[] counts = {0, 1, -1, 13, NAT, 600};
        Map<String, NumpyTimeType> types = new java.util.LinkedHashMap<>();
        types.put("months", NumpyTimeType.datetime64(DateTimeUnit.MONTH, 1));
        types.put("two_years", NumpyTimeType.datetime64(DateTimeUnit.YEAR, 2));
        types.put("kilo_ns", NumpyTimeType.datetime64(DateTimeUnit.NANOSECOND, 1000));
        types.put("mega_ps", NumpyTimeType.datetime64(DateTimeUnit.PICOSECOND, 1_000_000));
        types.put("weeks", NumpyTimeType.datetime64(DateTimeUnit.WEEK, 1));
        types.put("days", NumpyTimeType.datetime64(DateTimeUnit.DAY, 1));
        types.put("seven_days", NumpyTimeType.datetime64(DateTimeUnit.DAY, 7));
        types.put("half_us", NumpyTimeType.datetime64(DateTimeUnit.NANOSECOND, 500));
        types.put("td_kilo_ns", NumpyTimeType.timedelta64(DateTimeUnit.NANOSECOND, 1000));
        types.put("td_months", NumpyTimeType.timedelta64(DateTimeUnit.MONTH, 3));
        for (Map.Entry<String, NumpyTimeType> e : types.entrySet()) {
            try (ZarrArray a = zarr.array(e.getValue(), counts.length).chunks(4).create(tmp.toString(), "/" + e.getKey())) {
                a.write(NdArray.copyOf(e.getValue(), counts, counts.length));
            }
        }
        LocalDate epoch = LocalDate.of(1970, 1, 1);
        for (Map.Entry<String, NumpyTimeType> e : types.entrySet()) {
            Dataset<Row> t = Tables.read(tmp.toString(), e.getKey());
            DataType column = t.schema().fields()[1].dataType();
            Object[] read = Tables.byElement(t, new long[] {counts.length});
            for (int i = 0; i < counts.length; i++) {
                long c = counts[i];
                String what = e.getKey() + " element " + i + " (" + c + ")";
                if (c == NAT) {
                    assertEquals(null, read[i], what + ": NaT is null");
                    continue;
                }
                Object want = switch (e.getKey()) {
                    case "months" -> epoch.plusMonths(c).atStartOfDay(ZoneOffset.UTC).toInstant();
                    case "two_years" -> epoch.plusYears(2 * c).atStartOfDay(ZoneOffset.UTC).toInstant();
                    case "kilo_ns", "mega_ps" -> Instant.EPOCH.plus(Duration.ofNanos(1000 * c));
                    case "weeks", "seven_days" -> epoch.plusWeeks(c).atStartOfDay(ZoneOffset.UTC).toInstant();
                    case "days" -> epoch.plusDays(c);
                    case "half_us" -> c;
                    case "td_kilo_ns" -> Duration.ofNanos(1000 * c);
                    default -> java.time.Period.ofMonths((int) (3 * c)).normalized();
                };
                Object got = read[i] instanceof Timestamp ts ? ts.toInstant()
                        : read[i] instanceof java.sql.Date d ? d.toLocalDate() : read[i];
                if (got instanceof java.time.Period p) {
                    got = p.normalized();
                }
                assertEquals(want, got, what + " as " + column.simpleString());
            }
        }
    }

    /** complex64 and complex128 read as {@code struct<real, imag>} of float and of double. */
    @Test
    void complexNumbersAreStructsOfTheirParts() {
        float[] c64 = new float[3 * 5 * 2];
        double[] c128 = new double[c64.length];
        for (int i = 0; i < c64.length; i++) {
            c64[i] = i % 2 == 0 ? i * 0.5f - 7 : -i * 0.25f;
            c128[i] = i % 2 == 0 ? i * 1e300 / c64.length : -i - 0.125;
        }
        c64[2] = Float.NaN;
        c128[3] = Double.NEGATIVE_INFINITY;
        Zarr zarr = Zarr.defaults();
        String location = tmp.toString();
        try (ZarrArray a = zarr.array(DataTypes.COMPLEX64, 3, 5).chunks(2, 2).create(location, "/c64")) {
            a.write(NdArray.copyOf(DataTypes.COMPLEX64, c64, 3, 5));
        }
        try (ZarrArray a = zarr.array(DataTypes.COMPLEX128, 3, 5).chunks(2, 4).create(location, "/c128")) {
            a.write(NdArray.copyOf(DataTypes.COMPLEX128, c128, 3, 5));
        }
        for (String array : List.of("c64", "c128")) {
            Dataset<Row> table = Tables.read(location, array);
            boolean single = array.equals("c64");
            DataType part = single ? org.apache.spark.sql.types.DataTypes.FloatType
                    : org.apache.spark.sql.types.DataTypes.DoubleType;
            StructField value = table.schema().fields()[2];
            StructType struct = assertInstanceOf(StructType.class, value.dataType(), array);
            assertEquals(List.of("real", "imag"), List.of(struct.fieldNames()), array);
            assertEquals(part, struct.fields()[0].dataType(), array);
            assertEquals(part, struct.fields()[1].dataType(), array);
            Object[] read = Tables.byElement(table, new long[] {3, 5});
            for (int i = 0; i < read.length; i++) {
                Row r = assertInstanceOf(Row.class, read[i], array + " element " + i);
                assertFalse(r.isNullAt(0) || r.isNullAt(1), array + " element " + i);
                Object re = single ? (Object) c64[2 * i] : (Object) c128[2 * i];
                Object im = single ? (Object) c64[2 * i + 1] : (Object) c128[2 * i + 1];
                assertEquals(re, r.get(0), array + " element " + i + " real");
                assertEquals(im, r.get(1), array + " element " + i + " imag");
            }
        }
    }
}
