package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.apache.spark.sql.types.DataTypes.BinaryType;
import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.ByteType;
import static org.apache.spark.sql.types.DataTypes.DateType;
import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.FloatType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.ShortType;
import static org.apache.spark.sql.types.DataTypes.StringType;
import static org.apache.spark.sql.types.DataTypes.TimestampType;
import static org.apache.spark.sql.types.DataTypes.createDecimalType;
import static org.apache.spark.sql.types.DataTypes.createStructField;
import static org.apache.spark.sql.types.DataTypes.createStructType;

/** {@code df.write.format("zarr")}: written values read back with plain zarrj. */
class ZarrWriteTest {
    @TempDir
    Path dir;

    private static SparkSession spark() {
        return TestSpark.session();
    }

    private static StructType schema(DataType value, String... dims) {
        List<StructField> f = new ArrayList<>();
        for (String d : dims) {
            f.add(createStructField(d, LongType, true));
        }
        f.add(createStructField("v", value, true));
        return createStructType(f);
    }

    private static Dataset<Row> table(StructType schema, List<Row> rows, int partitions) {
        return spark().createDataFrame(rows, schema).repartition(partitions);
    }

    private String store() {
        return dir.resolve("out.zarr").toString();
    }

    private ZarrArray open(String path) {
        return Zarr.defaults().openArray(store(), path);
    }

    private static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getMessage()).append(" | ");
            for (Throwable x : c.getSuppressed()) {
                sb.append("suppressed: ").append(x).append(" | ");
            }
        }
        return sb.toString();
    }

    private List<Path> files() throws IOException {
        if (!Files.exists(dir.resolve("out.zarr"))) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir.resolve("out.zarr"))) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void createsAnArrayAndTheValuesReadBack() {
        List<Row> rows = new ArrayList<>();
        for (long y = 0; y < 16; y++) {
            for (long x = 0; x < 8; x++) {
                rows.add(RowFactory.create(y, x, y * 8 + x + 0.5));
            }
        }
        table(schema(DoubleType, "y", "x"), rows, 3).write().format("zarr").mode(SaveMode.Append)
                .option("shape", "16,8").option("chunks", "4,4").option("array", "a/temp").save(store());
        try (ZarrArray a = open("a/temp")) {
            assertEquals("float64", a.dataType().name());
            assertArrayEquals(new long[] {16, 8}, a.shape());
            assertArrayEquals(new long[] {4, 4}, a.chunkShape());
            assertEquals(List.of("y", "x"), a.dimensionNames().orElseThrow());
            assertTrue(a.codecs().toString().contains("zstd"), a.codecs().toString());
            double[] v = a.read().toDoubleArray();
            for (int i = 0; i < v.length; i++) {
                assertEquals(i + 0.5, v[i], "element " + i);
            }
        }
    }

    /**
     * Every element of shard (0, 0) and its border, spread round-robin over 8 input partitions:
     * without the repartitioning by shard, several tasks would write shard (0, 0) (and its
     * neighbours) and lose each other's elements.
     */
    @Test
    void aShardedWriteFromEightPartitionsLosesNoElement() {
        shardNeighbourhoodFromEightPartitions(Map.of());
    }

    /** The same with shards larger than the memory budget: tasks buffer their inner chunks one by one. */
    @Test
    void aShardLargerThanTheMemoryBudgetIsWrittenChunkByChunk() {
        shardNeighbourhoodFromEightPartitions(Map.of("regionBytes", "1k"));
    }

    private void shardNeighbourhoodFromEightPartitions(Map<String, String> options) {
        List<Row> rows = new ArrayList<>();
        for (long y = 0; y <= 32; y++) {
            for (long x = 0; x <= 32; x++) {
                rows.add(RowFactory.create(y, x, (int) (y * 64 + x + 1)));
            }
        }
        table(schema(IntegerType, "y", "x"), rows, 8).write().format("zarr").mode(SaveMode.Append)
                .option("shape", "64,64").option("shards", "32,32").option("chunks", "8,8").options(options).save(store());
        try (ZarrArray a = open("")) {
            assertTrue(a.codecs().toString().contains("sharding_indexed"), a.codecs().toString());
            int[] v = a.read().toIntArray();
            int lost = 0;
            for (int y = 0; y < 64; y++) {
                for (int x = 0; x < 64; x++) {
                    int expected = y <= 32 && x <= 32 ? y * 64 + x + 1 : 0;
                    if (v[y * 64 + x] != expected) {
                        lost++;
                    }
                }
            }
            assertEquals(0, lost, "elements lost or wrong");
        }
    }

    @Test
    void aWriteThenAReadGiveTheSameTable() {
        List<Row> rows = new ArrayList<>();
        for (long t = 0; t < 3; t++) {
            for (long y = 0; y < 5; y++) {
                for (long x = 0; x < 7; x++) {
                    rows.add(RowFactory.create(t, y, x, (float) (t * 100 + y * 10 + x)));
                }
            }
        }
        StructType s = createStructType(List.of(createStructField("time", LongType, false),
                createStructField("lat", LongType, false), createStructField("lon", LongType, false),
                createStructField("temp", FloatType, true)));
        spark().createDataFrame(rows, s).repartition(4).write().format("zarr").mode("append")
                .option("shape", "3,5,7").option("chunks", "1,2,4").option("shards", "1,4,4").option("array", "temp")
                .save(store());
        Dataset<Row> back = spark().read().format("zarr").option("array", "temp").load(store());
        assertEquals(List.of("time", "lat", "lon", "temp"), Arrays.asList(back.columns()));
        List<String> expected = rows.stream().map(Row::toString).sorted().toList();
        List<String> read = back.collectAsList().stream().map(Row::toString).sorted().toList();
        assertEquals(expected, read);
    }

    /** Columns in another order than the array's dimensions are matched by name. */
    @Test
    void dimensionColumnsAreMatchedByTheArraysDimensionNames() {
        Zarr.defaults().array(DataTypes.INT32, 3, 4).chunks(2, 2).dimensionNames("y", "x").create(store(), "").close();
        table(schema(IntegerType, "x", "y"), List.of(RowFactory.create(3L, 1L, 5)), 1).write().format("zarr")
                .mode("append").save(store());
        try (ZarrArray a = open("")) {
            assertEquals(5, a.read().getLong(1, 3));
        }
    }

    @Test
    void anOverwriteOfTheArrayTheTableIsReadFromIsRefused() {
        try (ZarrArray a = Zarr.defaults().array(DataTypes.INT32, 4).chunks(2).dimensionNames("i").create(store(), "v")) {
            a.write(new long[1], new long[] {4}, new int[] {1, 2, 3, 4});
        }
        Dataset<Row> self = spark().read().format("zarr").option("array", "v").load(store());
        Exception e = assertThrows(Exception.class, () -> self.selectExpr("i", "v * 2 AS v").write().format("zarr")
                .mode("overwrite").option("array", "v").save(store()));
        assertTrue(messages(e).contains("the written table is read from the array it overwrites"), messages(e));
        try (ZarrArray a = open("v")) {
            assertArrayEquals(new int[] {1, 2, 3, 4}, a.read().toIntArray());
        }
        // An append reads all input before writing: allowed.
        self.selectExpr("i", "v * 2 AS v").write().format("zarr").mode("append").option("array", "v").save(store());
        try (ZarrArray a = open("v")) {
            assertArrayEquals(new int[] {2, 4, 6, 8}, a.read().toIntArray());
        }
    }

    @Test
    void anAppendKeepsTheElementsNoRowNames() {
        try (ZarrArray a = Zarr.defaults().array(DataTypes.INT16, 6, 6).chunks(4, 4).create(store(), "")) {
            short[] all = new short[36];
            Arrays.fill(all, (short) 7);
            a.write(new long[2], new long[] {6, 6}, all);
        }
        List<Row> rows = List.of(RowFactory.create(1L, 1L, (short) -1), RowFactory.create(5L, 4L, (short) -2),
                RowFactory.create(2L, 3L, null));
        table(schema(ShortType, "y", "x"), rows, 2).write().format("zarr").mode("append").save(store());
        try (ZarrArray a = open("")) {
            NdArray v = a.read();
            for (int y = 0; y < 6; y++) {
                for (int x = 0; x < 6; x++) {
                    long expected = y == 1 && x == 1 ? -1 : y == 5 && x == 4 ? -2 : y == 2 && x == 3 ? 0 : 7;
                    assertEquals(expected, v.getLong(y, x), "(" + y + ", " + x + ")");
                }
            }
        }
    }

    @Test
    void anOverwriteReplacesTheArray() {
        try (ZarrArray a = Zarr.defaults().array(DataTypes.INT32, 8, 8).chunks(4, 4).fillValue(-1).create(store(), "")) {
            int[] all = new int[64];
            Arrays.fill(all, 7);
            a.write(new long[2], new long[] {8, 8}, all);
        }
        List<Row> rows = List.of(RowFactory.create(0L, 0L, 1), RowFactory.create(7L, 7L, 2));
        // Without shape: the existing metadata are kept, the content replaced.
        table(schema(IntegerType, "y", "x"), rows, 2).write().format("zarr").mode("overwrite").save(store());
        try (ZarrArray a = open("")) {
            int[] v = a.read().toIntArray();
            for (int i = 0; i < 64; i++) {
                assertEquals(i == 0 ? 1 : i == 63 ? 2 : -1, v[i], "element " + i);
            }
        }
        // With shape: a new array.
        table(schema(IntegerType, "y", "x"), rows, 2).write().format("zarr").mode("overwrite")
                .option("shape", "10,10").option("compressor", "none").save(store());
        try (ZarrArray a = open("")) {
            assertArrayEquals(new long[] {10, 10}, a.shape());
            assertEquals(0, a.fillValue().bytes()[0]);
            int[] v = a.read().toIntArray();
            assertEquals(1, v[0]);
            assertEquals(2, v[77]);
            assertEquals(2, Arrays.stream(v).filter(e -> e != 0).count());
        }
    }

    /** A value that does not fit, in one task while others write: the job fails and leaves nothing. */
    @Test
    void aFailedJobLeavesNoArrayAndNoChunks() throws IOException {
        List<Row> rows = new ArrayList<>();
        for (long y = 0; y < 16; y++) {
            for (long x = 0; x < 16; x++) {
                rows.add(RowFactory.create(y, x, y == 13 && x == 9 ? 300 : 1));
            }
        }
        // Four tasks (not coalesced into one), of which one fails.
        spark().conf().set("spark.sql.adaptive.coalescePartitions.enabled", "false");
        Exception e;
        try {
            e = assertThrows(Exception.class, () -> table(schema(IntegerType, "y", "x"), rows, 4).write()
                    .format("zarr").mode("append").option("shape", "16,16").option("chunks", "4,4")
                    .option("dataType", "uint8").save(store()));
        } finally {
            spark().conf().unset("spark.sql.adaptive.coalescePartitions.enabled");
        }
        String m = messages(e);
        assertTrue(m.contains("row (y=13, x=9): value 300 of column 'v' does not fit Zarr data type uint8 [0, 255]"), m);
        assertEquals(List.of(), files(), m);

        // An overwrite that fails leaves no array either (the old one was erased first).
        try (ZarrArray a = Zarr.defaults().array(DataTypes.UINT8, 16, 16).chunks(4, 4).create(store(), "")) {
            a.write(new long[2], new long[] {16, 16}, new byte[256]);
        }
        assertThrows(Exception.class, () -> table(schema(IntegerType, "y", "x"), rows, 4).write().format("zarr")
                .mode("overwrite").save(store()));
        assertEquals(List.of(), files());
    }

    /** Another writer creates the array while the job's tasks run: the commit says so and stores nothing. */
    @Test
    void anArrayCreatedByAnotherWriterDuringTheJobFailsTheCommit() {
        String location = store();
        UDF1<Integer, Integer> createsTheArray = v -> {
            synchronized (ZarrWriteTest.class) {
                if (!Files.exists(Path.of(location, "zarr.json"))) {
                    Zarr.defaults().array(DataTypes.INT8, 1).create(location, "").close();
                }
            }
            return v;
        };
        spark().udf().register("createsTheArray", createsTheArray, IntegerType);
        Dataset<Row> t = table(schema(IntegerType, "y", "x"), List.of(RowFactory.create(0L, 1L, 5)), 1)
                .selectExpr("y", "x", "createsTheArray(v) AS v");
        Exception e = assertThrows(Exception.class, () -> t.write().format("zarr").mode("append")
                .option("shape", "4,4").save(location));
        assertTrue(messages(e).contains("the array at '/' in " + location + " was created by another writer while this "
                + "job wrote its chunks"), messages(e));
        try (ZarrArray a = open("")) {
            assertEquals("int8", a.dataType().name()); // the other writer's, kept
        }
    }

    @Test
    void everySparkTypeHasADataType() {
        record Case(DataType spark, Object value, String zarrType) {}
        List<Case> cases = List.of(
                new Case(BooleanType, true, "bool"),
                new Case(ByteType, (byte) -3, "int8"),
                new Case(ShortType, (short) -300, "int16"),
                new Case(IntegerType, 70000, "int32"),
                new Case(LongType, 1L << 40, "int64"),
                new Case(FloatType, 1.5f, "float32"),
                new Case(DoubleType, 2.25, "float64"),
                new Case(StringType, "héllo", "string"),
                new Case(BinaryType, new byte[] {1, 2, 3}, "bytes"),
                new Case(TimestampType, Timestamp.from(java.time.Instant.parse("2020-01-02T03:04:05.000006Z")),
                        "numpy.datetime64"),
                new Case(DateType, Date.valueOf("2021-03-04"), "numpy.datetime64"),
                new Case(createStructType(new StructField[] {createStructField("real", DoubleType, false),
                        createStructField("imag", DoubleType, false)}), RowFactory.create(1.0, -2.0), "complex128"));
        int i = 0;
        for (Case c : cases) {
            String path = "t" + i++;
            table(schema(c.spark(), "i"), List.of(RowFactory.create(1L, c.value())), 1).write().format("zarr")
                    .mode("append").option("shape", "3").option("array", path).save(store());
            try (ZarrArray a = open(path)) {
                assertEquals(c.zarrType(), a.dataType().name(), c.toString());
                NdArray v = a.read(new long[] {1}, new long[] {1});
                switch (c.zarrType()) {
                    case "bool" -> assertTrue(v.getBoolean(0));
                    case "float32", "float64" -> assertEquals(((Number) c.value()).doubleValue(), v.getDouble(0));
                    case "string" -> assertEquals("héllo", v.getString(0));
                    case "bytes" -> assertArrayEquals(new byte[] {1, 2, 3}, v.getBytes(0));
                    case "complex128" -> assertEquals(-2.0, v.bytes().getDouble(8));
                    case "numpy.datetime64" -> assertEquals(c.spark() == DateType ? 18690L : 1577934245000006L,
                            v.getLong(0), c.toString());
                    default -> assertEquals(((Number) c.value()).longValue(), v.getLong(0), c.toString());
                }
            }
            Row back = spark().read().format("zarr").option("array", path).load(store()).where("i = 1").first();
            if (c.spark() == BinaryType) {
                assertArrayEquals((byte[]) c.value(), (byte[]) back.get(1));
            } else {
                assertEquals(c.value(), back.get(1), c.toString());
            }
        }
    }

    @Test
    void aDecimalColumnWritesUint64AndAnIntColumnUint16() {
        StructType s = schema(createDecimalType(20, 0), "i");
        table(s, List.of(RowFactory.create(0L, new BigDecimal("18446744073709551615"))), 1).write().format("zarr")
                .mode("append").option("shape", "2").option("dataType", "uint64").option("array", "u64").save(store());
        try (ZarrArray a = open("u64")) {
            assertEquals("uint64", a.dataType().name());
            assertEquals(-1L, a.read().getLong(0));
        }
        table(schema(IntegerType, "i"), List.of(RowFactory.create(1L, 65535)), 1).write().format("zarr")
                .mode("append").option("shape", "2").option("dataType", "uint16").option("array", "u16").save(store());
        try (ZarrArray a = open("u16")) {
            assertEquals(65535L, a.read().getLong(1));
        }
        Exception e = assertThrows(Exception.class, () -> table(schema(IntegerType, "i"),
                List.of(RowFactory.create(0L, -1)), 1).write().format("zarr").mode("append").option("array", "u16")
                .save(store()));
        assertTrue(messages(e).contains("row (i=0): value -1 of column 'v' does not fit Zarr data type uint16 [0, 65535]"),
                messages(e));
    }

    @Test
    void optionsChooseTheFormatDataTypeFillValueAttributesAndCodecs() throws IOException {
        StructType s = createStructType(List.of(createStructField("i", LongType, false),
                createStructField("t", TimestampType, true)));
        spark().createDataFrame(List.of(RowFactory.create(1L, Timestamp.from(java.time.Instant.parse("2020-01-01T00:00:01Z"))),
                RowFactory.create(2L, null)), s).write().format("zarr").mode("append")
                .option("array", "v2").option("zarrFormat", "2").option("shape", "4").option("chunks", "2")
                .option("dataType", "datetime64[ms]").option("fillValue", "-1").option("compressor", "gzip:1")
                .option("attributes", "{\"units\": \"s\"}").save(store());
        assertTrue(Files.exists(dir.resolve("out.zarr/v2/.zarray")));
        assertFalse(Files.exists(dir.resolve("out.zarr/v2/zarr.json")));
        try (ZarrArray a = open("v2")) {
            assertEquals(2, a.zarrFormat());
            assertEquals("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ms\",\"scale_factor\":1}}",
                    a.metadata().get("data_type").toString());
            assertEquals("s", a.attributes().get("units").asText());
            assertTrue(a.codecs().toString().contains("gzip"), a.codecs().toString());
            assertArrayEquals(new long[] {-1, 1577836801000L, -1, -1}, a.read().toLongArray()); // the null is the fill value
        }
        Dataset<Row> t = table(schema(IntegerType, "i"), List.of(RowFactory.create(0L, 1)), 1);
        t.write().format("zarr").mode("append").option("array", "c").option("shape", "3")
                .option("codecs", "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}]").save(store());
        try (ZarrArray a = open("c")) {
            assertEquals(2, a.zarrFormat()); // the format of the hierarchy it joins
            assertEquals("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]", a.codecs().toString());
            assertEquals(1, a.read().getLong(0));
        }
        // Refused before any task runs, not when the job commits.
        Exception e = assertThrows(Exception.class, () -> t.write().format("zarr").mode("append").option("array", "d")
                .option("shape", "3").option("zarrFormat", "3").save(store()));
        assertTrue(messages(e).contains("option 'zarrFormat' is 3 but the groups above 'd' in "), messages(e));
    }

    @Test
    void badInputsFailNamingTheColumnOptionOrValue() {
        Dataset<Row> t = table(schema(IntegerType, "y", "x"), List.of(RowFactory.create(0L, 9L, 1)), 1);
        Map<String, Object[]> cases = new java.util.LinkedHashMap<>();
        cases.put("option 'shape' is needed to create it", new Object[] {t, Map.of()});
        cases.put("row (y=0, x=9): column 'x' = 9 lies outside the array's shape [4, 4]",
                new Object[] {t, Map.of("shape", "4,4")});
        cases.put("option 'shape' [4] has 1 dimensions but the table has 2 dimension columns [y, x]",
                new Object[] {t, Map.of("shape", "4")});
        cases.put("option 'compressor' is zstd, zstd:LEVEL, gzip:LEVEL, blosc, blosc:LEVEL or none, not 'lzma'",
                new Object[] {t, Map.of("shape", "4,10", "compressor", "lzma")});
        cases.put("option 'value' names column 'w', which the table does not have",
                new Object[] {t, Map.of("shape", "4,10", "value", "w")});
        cases.put("dimension column 'y' is of type string",
                new Object[] {spark().sql("SELECT 'a' AS y, 1 AS v"), Map.of("shape", "4")});
        cases.put("dimension column 'x' is null in a row with row (y=0)",
                new Object[] {table(schema(IntegerType, "y", "x"), List.of(RowFactory.create(0L, null, 1)), 1),
                        Map.of("shape", "4,4")});
        cases.put("value column 'v' of type string cannot be written as Zarr data type int32",
                new Object[] {spark().sql("SELECT 1L AS i, 'a' AS v"), Map.of("shape", "4", "dataType", "int32")});
        cases.put("option 'dataType' names data type 'uint12', which is not installed",
                new Object[] {t, Map.of("shape", "4,10", "dataType", "uint12")});

        for (Map.Entry<String, Object[]> c : cases.entrySet()) {
            @SuppressWarnings("unchecked")
            Dataset<Row> df = (Dataset<Row>) c.getValue()[0];
            @SuppressWarnings("unchecked")
            Map<String, String> options = (Map<String, String>) c.getValue()[1];
            Exception e = assertThrows(Exception.class, () -> df.write().format("zarr").mode("append")
                    .options(options).option("array", "bad").save(store()), c.getKey());
            assertTrue(messages(e).contains(c.getKey()), c.getKey() + " not in: " + messages(e));
        }
        assertFalse(Files.exists(dir.resolve("out.zarr/bad/zarr.json")));
        Exception e = assertThrows(Exception.class, () -> t.write().format("zarr").mode("append").option("shape", "4,10")
                .save(dir.resolve("z.zip").toString()));
        assertTrue(messages(e).contains("cannot write into the zip archive"), messages(e));
    }
}
