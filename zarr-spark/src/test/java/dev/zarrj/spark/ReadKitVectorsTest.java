package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.conformance.vectors.KitVectors;
import dev.zarrj.conformance.vectors.VectorManifest.ArrayVector;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every array of the conformance kit's vectors (written by zarrita: every core data type, both
 * endians, fill values, key encodings, codecs, sharding, 0-d arrays) read through
 * {@code spark.read.format("zarr")}: the table has one {@code long} column per dimension and a value
 * column of the type the data type maps to, and one row per element equal to the manifest's value.
 */
class ReadKitVectorsTest {
    @TempDir
    static Path kit;

    @BeforeAll
    static void copyKit() {
        KitVectors.copyTo(kit);
    }

    static Stream<ArrayVector> arrays() {
        return KitVectors.manifest().arrays().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arrays")
    void everyElementReadsAsTheManifestSays(ArrayVector v) {
        Dataset<Row> table = Tables.read(kit.toString(), v.path());
        long[] shape = v.shape();
        StructField[] fields = table.schema().fields();
        for (int d = 0; d < shape.length; d++) {
            assertEquals("dim_" + d, fields[d].name(), v.path() + ": an array without dimension_names names its columns dim_i");
        }
        assertEquals(sparkType(v.dataType()), fields[shape.length].dataType(), v.path() + ": the value column's type");
        Object[] read = Tables.byElement(table, shape);
        for (int i = 0; i < read.length; i++) {
            Tables.assertValue(expected(v.dataType(), v.value(i)), read[i], v.path() + " element " + i
                    + " (manifest " + v.value(i) + ")");
        }
    }

    /** The Spark type of a core data type (issue 17: unsigned types widened, uint64 as Decimal(20,0)). */
    static DataType sparkType(String dataType) {
        return switch (dataType) {
            case "bool" -> DataTypes.BooleanType;
            case "int8" -> DataTypes.ByteType;
            case "int16", "uint8" -> DataTypes.ShortType;
            case "int32", "uint16" -> DataTypes.IntegerType;
            case "int64", "uint32" -> DataTypes.LongType;
            case "uint64" -> DataTypes.createDecimalType(20, 0);
            case "float16", "float32" -> DataTypes.FloatType;
            case "float64" -> DataTypes.DoubleType;
            default -> throw new IllegalArgumentException("no mapping in this test for " + dataType);
        };
    }

    /** A manifest value as the Java object Spark's Row holds for the mapped type. */
    static Object expected(String dataType, JsonNode v) {
        return switch (dataType) {
            case "bool" -> v.booleanValue();
            case "int8" -> (byte) integer(v).intValueExact();
            case "int16", "uint8" -> integer(v).shortValueExact();
            case "int32", "uint16" -> integer(v).intValueExact();
            case "int64", "uint32" -> integer(v).longValueExact();
            case "uint64" -> new BigDecimal(integer(v));
            case "float16", "float32" -> (float) real(v);
            case "float64" -> real(v);
            default -> throw new IllegalArgumentException("no mapping in this test for " + dataType);
        };
    }

    private static BigInteger integer(JsonNode v) {
        return v.isTextual() ? new BigInteger(v.textValue()) : v.bigIntegerValue();
    }

    private static double real(JsonNode v) {
        if (v.isTextual()) {
            return switch (v.textValue()) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(v.textValue());
            };
        }
        return v.doubleValue();
    }

    @org.junit.jupiter.api.Test
    void theKitCoversEveryCoreDataTypeButComplex() {
        // So that the parameterized test above covers every mapping it declares.
        assertEquals(Arrays.asList("bool", "float16", "float32", "float64", "int16", "int32", "int64", "int8", "uint16",
                        "uint32", "uint64", "uint8"),
                arrays().map(ArrayVector::dataType).distinct().sorted().toList());
    }
}
