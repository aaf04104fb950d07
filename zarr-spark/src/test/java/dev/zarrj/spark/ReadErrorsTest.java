package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads that cannot be planned fail at {@code load()} with a message naming what is wrong; column names that clash are resolved. */
class ReadErrorsTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        Zarr zarr = Zarr.defaults();
        try (ZarrArray a = zarr.array(DataTypes.INT32, 4, 6).chunks(2, 3).create(dir.toString(), "/a")) {
            a.write(new long[2], new long[] {4, 6}, new int[24]);
        }
        try (ZarrArray a = zarr.array(DataTypes.INT32, 4, 5).chunks(2, 3).create(dir.toString(), "/narrow")) {
            a.write(new long[2], new long[] {4, 5}, new int[20]);
        }
        long[] t = new long[10];
        for (int i = 0; i < t.length; i++) {
            t[i] = 1000L * i;
        }
        try (ZarrArray a = zarr.array(DataTypes.INT64, 10).chunks(3).dimensionNames("time").create(dir.toString(), "/time")) {
            a.write(new long[1], new long[] {10}, t);
        }
    }

    @Test
    void aMissingArrayIsNamed() {
        NodeNotFoundException e = assertThrows(NodeNotFoundException.class,
                () -> Tables.read(dir.toString(), "nothing/here"));
        assertTrue(e.getMessage().contains("nothing/here"), e.getMessage());
    }

    @Test
    void arraysOfDifferentShapesAreRefusedNamingBoth() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tables.reader("arrays", "a,narrow").load(dir.toString()));
        assertTrue(e.getMessage().contains("[4, 6]") && e.getMessage().contains("[4, 5]"), e.getMessage());
    }

    @Test
    void arrayAndArraysTogetherAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tables.reader("arrays", "a,narrow", "array", "a").load(dir.toString()));
        assertTrue(e.getMessage().contains("'array'") && e.getMessage().contains("'arrays'"), e.getMessage());
    }

    @Test
    void aStoreIsNeeded() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tables.reader("array", "a").load());
        assertTrue(e.getMessage().contains("store"), e.getMessage());
    }

    /** An xarray coordinate array: dimension {@code time} and values {@code time_value}; filters on the dimension still prune. */
    @Test
    void aCoordinateArrayNamedAsItsDimension() {
        Dataset<Row> t = Tables.read(CountingStoreProvider.uri(dir), "time");
        assertEquals(List.of("time", "time_value"), List.of(t.columns()));
        CountingStoreProvider.reset(dir);
        List<Row> rows = t.where("time >= 7 AND time_value < 9000").orderBy("time").collectAsList();
        assertEquals(List.of(7000L, 8000L), rows.stream().map(r -> r.getLong(1)).toList());
        assertEquals(List.of("time/c/2", "time/c/3"), CountingStoreProvider.requestsPerKey(dir).keySet().stream()
                .filter(k -> k.startsWith("time/c/")).toList());
    }
}
