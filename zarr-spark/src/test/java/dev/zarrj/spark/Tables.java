package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/** Reading arrays through the {@code zarr} source of the shared session, and checking the rows. */
final class Tables {
    private Tables() {}

    /** A reader of the shared session with format {@code zarr} and these options (name, value, name, value...). */
    static DataFrameReader reader(String... options) {
        DataFrameReader r = TestSpark.session().read().format("zarr");
        for (int i = 0; i < options.length; i += 2) {
            r = r.option(options[i], options[i + 1]);
        }
        return r;
    }

    /** An array of a store (location: a directory, or any store URI) as a table. */
    static Dataset<Row> read(String location, String array, String... options) {
        return reader(options).option("array", array).load(location);
    }

    /**
     * The rows of a table whose first {@code shape.length} columns are the dimensions, as an array
     * in C order of the last column's values: every element present exactly once, each row's
     * coordinates inside the shape.
     */
    static Object[] byElement(Dataset<Row> table, long[] shape) {
        int rank = shape.length;
        StructField[] fields = table.schema().fields();
        assertEquals(rank + 1, fields.length, "one column per dimension and the value: " + table.schema().simpleString());
        for (int d = 0; d < rank; d++) {
            assertEquals(DataTypes.LongType, fields[d].dataType(), "dimension column " + fields[d].name());
        }
        List<Row> rows = table.collectAsList();
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        Object[] out = new Object[(int) n];
        boolean[] seen = new boolean[(int) n];
        for (Row r : rows) {
            int flat = flatIndex(r, shape);
            if (seen[flat]) {
                fail("element " + Arrays.toString(coords(r, rank)) + " is in two rows");
            }
            seen[flat] = true;
            out[flat] = r.get(rank);
        }
        assertEquals(n, rows.size(), "one row per element of " + Arrays.toString(shape));
        return out;
    }

    /** The C-order index of a row's coordinates (its first {@code shape.length} columns). */
    static int flatIndex(Row r, long[] shape) {
        long[] c = coords(r, shape.length);
        long flat = 0;
        for (int d = 0; d < shape.length; d++) {
            assertTrue(c[d] >= 0 && c[d] < shape[d], "coordinates " + Arrays.toString(c) + " outside " + Arrays.toString(shape));
            flat = flat * shape[d] + c[d];
        }
        return (int) flat;
    }

    /** A row's first {@code rank} columns, each a non-null long. */
    static long[] coords(Row r, int rank) {
        long[] c = new long[rank];
        for (int d = 0; d < rank; d++) {
            assertTrue(!r.isNullAt(d), "dimension " + d + " of " + r + " is null");
            c[d] = r.getLong(d);
        }
        return c;
    }

    /** Asserts that a value read equals the one expected, as Java objects (NaN equals NaN; BigDecimals by value). */
    static void assertValue(Object expected, Object actual, String what) {
        if (expected == null) {
            assertNull(actual, what);
            return;
        }
        if (expected instanceof java.math.BigDecimal e && actual instanceof java.math.BigDecimal a) {
            assertEquals(0, e.compareTo(a), what + ": expected " + e + ", read " + a);
            return;
        }
        assertEquals(expected, actual, what);
    }
}
