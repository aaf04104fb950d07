package dev.zarrj.spark.internal.write;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.ext.datetime.DateTimeUnit;
import dev.zarrj.ext.datetime.NumpyTimeType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * How the value column's Spark type becomes elements of the array's data type: the default
 * data type for a Spark type ({@link #defaultDataType}), whether a pair is allowed
 * ({@link #of}), and the per-element conversion ({@link #set}), which checks ranges and names
 * the row when a value does not fit.
 */
final class ValueConversion implements Serializable {
    private static final long serialVersionUID = 1L;

    enum Kind {
        BOOL, INTEGRAL, DECIMAL_INTEGRAL, REAL, COMPLEX, TIMESTAMP, DATE, STRING, BYTES, RAW
    }

    private final Kind kind;
    private final org.apache.spark.sql.types.DataType sparkType;
    private final String column;
    /** For INTEGRAL and DECIMAL_INTEGRAL: the allowed range, inclusive. */
    private final BigInteger min;
    private final BigInteger max;
    private final long minLong;
    private final long maxLong;

    private ValueConversion(Kind kind, org.apache.spark.sql.types.DataType sparkType, String column, BigInteger min,
                            BigInteger max) {
        this.kind = kind;
        this.sparkType = sparkType;
        this.column = column;
        this.min = min;
        this.max = max;
        this.minLong = min == null ? 0 : min.max(BigInteger.valueOf(Long.MIN_VALUE)).longValue();
        this.maxLong = max == null ? 0 : max.min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    }

    /**
     * The data type an array created from a value column of this Spark type gets, or empty when
     * there is no default (then option {@code dataType} must name one).
     */
    static Optional<DataType> defaultDataType(org.apache.spark.sql.types.DataType t) {
        DataType d = null;
        if (t instanceof BooleanType) {
            d = dev.zarrj.core.DataTypes.BOOL;
        } else if (t instanceof ByteType) {
            d = dev.zarrj.core.DataTypes.INT8;
        } else if (t instanceof ShortType) {
            d = dev.zarrj.core.DataTypes.INT16;
        } else if (t instanceof IntegerType) {
            d = dev.zarrj.core.DataTypes.INT32;
        } else if (t instanceof LongType) {
            d = dev.zarrj.core.DataTypes.INT64;
        } else if (t instanceof FloatType) {
            d = dev.zarrj.core.DataTypes.FLOAT32;
        } else if (t instanceof DoubleType) {
            d = dev.zarrj.core.DataTypes.FLOAT64;
        } else if (t instanceof StringType) {
            d = dev.zarrj.ext.strings.StringTypes.STRING;
        } else if (t instanceof BinaryType) {
            d = dev.zarrj.ext.strings.StringTypes.BYTES;
        } else if (t instanceof TimestampType || t instanceof TimestampNTZType) {
            d = NumpyTimeType.datetime64(DateTimeUnit.MICROSECOND, 1);
        } else if (t instanceof DateType) {
            d = NumpyTimeType.datetime64(DateTimeUnit.DAY, 1);
        } else if (complexParts(t).isPresent()) {
            d = complexParts(t).get() instanceof DoubleType ? dev.zarrj.core.DataTypes.COMPLEX128
                    : dev.zarrj.core.DataTypes.COMPLEX64;
        }
        return Optional.ofNullable(d);
    }

    /**
     * For a struct of two float or double fields (real, imaginary), the wider field type;
     * the fields are taken by position (names are not checked).
     */
    private static Optional<org.apache.spark.sql.types.DataType> complexParts(org.apache.spark.sql.types.DataType t) {
        if (!(t instanceof StructType s) || s.fields().length != 2) {
            return Optional.empty();
        }
        org.apache.spark.sql.types.DataType a = s.fields()[0].dataType();
        org.apache.spark.sql.types.DataType b = s.fields()[1].dataType();
        boolean floats = (a instanceof FloatType || a instanceof DoubleType) && (b instanceof FloatType || b instanceof DoubleType);
        if (!floats) {
            return Optional.empty();
        }
        return Optional.of(a instanceof DoubleType || b instanceof DoubleType ? org.apache.spark.sql.types.DataTypes.DoubleType
                : org.apache.spark.sql.types.DataTypes.FloatType);
    }

    /**
     * The conversion of a value column of Spark type {@code t} (named {@code column}) into
     * elements of {@code target}.
     *
     * @throws ZarrWriteException when the column's type cannot be written as that data type
     */
    static ValueConversion of(String column, org.apache.spark.sql.types.DataType t, DataType target) {
        ElementKind k = target.kind();
        boolean integralColumn = t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType
                || t instanceof LongType;
        boolean decimalColumn = t instanceof DecimalType;
        boolean realColumn = t instanceof FloatType || t instanceof DoubleType;
        if (target instanceof NumpyTimeType time && time.variant() == NumpyTimeType.Variant.DATETIME64
                && (t instanceof TimestampType || t instanceof TimestampNTZType || t instanceof DateType)) {
            return new ValueConversion(t instanceof DateType ? Kind.DATE : Kind.TIMESTAMP, t, column, null, null);
        }
        switch (k) {
            case BOOL:
                if (t instanceof BooleanType) {
                    return new ValueConversion(Kind.BOOL, t, column, null, null);
                }
                break;
            case INT:
            case UINT: {
                int bits = 8 * target.size();
                BigInteger lo = k == ElementKind.INT ? BigInteger.ONE.shiftLeft(bits - 1).negate() : BigInteger.ZERO;
                BigInteger hi = (k == ElementKind.INT ? BigInteger.ONE.shiftLeft(bits - 1)
                        : BigInteger.ONE.shiftLeft(bits)).subtract(BigInteger.ONE);
                if (integralColumn) {
                    return new ValueConversion(Kind.INTEGRAL, t, column, lo, hi);
                }
                if (decimalColumn && ((DecimalType) t).scale() == 0) {
                    return new ValueConversion(Kind.DECIMAL_INTEGRAL, t, column, lo, hi);
                }
                break;
            }
            case FLOAT:
                if (integralColumn || decimalColumn || realColumn) {
                    return new ValueConversion(Kind.REAL, t, column, null, null);
                }
                break;
            case OTHER:
                if (target.numericEncoding().isPresent() && (integralColumn || decimalColumn || realColumn)) {
                    return new ValueConversion(Kind.REAL, t, column, null, null);
                }
                break;
            case COMPLEX:
                if (complexParts(t).isPresent()) {
                    return new ValueConversion(Kind.COMPLEX, t, column, null, null);
                }
                break;
            case STRING:
                if (t instanceof StringType) {
                    return new ValueConversion(Kind.STRING, t, column, null, null);
                }
                break;
            case BYTES:
                if (t instanceof BinaryType) {
                    return new ValueConversion(Kind.BYTES, t, column, null, null);
                }
                break;
            case RAW:
                if (t instanceof BinaryType) {
                    return new ValueConversion(Kind.RAW, t, column, null, null);
                }
                break;
            default:
                break;
        }
        throw new ZarrWriteException("value column '" + column + "' of type " + t.simpleString()
                + " cannot be written as Zarr data type " + describe(target) + "; " + allowed(k, target));
    }

    private static String allowed(ElementKind k, DataType target) {
        if (target instanceof NumpyTimeType) {
            return "it takes timestamp, date or integral columns (counts of its unit)";
        }
        switch (k) {
            case BOOL:
                return "it takes boolean columns";
            case INT:
            case UINT:
                return "it takes integral columns (tinyint, smallint, int, bigint) and decimal(p, 0), range-checked";
            case FLOAT:
                return "it takes numeric columns";
            case COMPLEX:
                return "it takes struct<real: float|double, imag: float|double> columns";
            case STRING:
                return "it takes string columns";
            case BYTES:
            case RAW:
                return "it takes binary columns";
            default:
                return "zarr-spark writes no Spark column as this data type";
        }
    }

    static String describe(DataType t) {
        return t.configuration() == null || t.configuration().isEmpty() ? t.name()
                : t.name() + t.configuration();
    }

    /**
     * Sets element {@code flat} of {@code dst} from the (non-null) value at {@code ordinal} of
     * {@code row}; {@code where} names the row in messages.
     *
     * @throws ZarrWriteException when the value does not fit the data type
     */
    void set(InternalRow row, int ordinal, NdArray dst, long flat, RowName where) {
        switch (kind) {
            case BOOL:
                dst.setBoolean(flat, row.getBoolean(ordinal));
                return;
            case INTEGRAL: {
                long v = integral(row, ordinal, sparkType);
                if (v < minLong || v > maxLong) {
                    throw outOfRange(where, Long.toString(v), dst.dataType());
                }
                dst.setLong(flat, v);
                return;
            }
            case DECIMAL_INTEGRAL: {
                DecimalType d = (DecimalType) sparkType;
                BigInteger v = row.getDecimal(ordinal, d.precision(), d.scale()).toJavaBigDecimal().toBigIntegerExact();
                if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
                    throw outOfRange(where, v.toString(), dst.dataType());
                }
                dst.setLong(flat, v.longValue());
                return;
            }
            case REAL:
                dst.setDouble(flat, real(row, ordinal, sparkType));
                return;
            case COMPLEX: {
                StructType s = (StructType) sparkType;
                InternalRow c = row.getStruct(ordinal, 2);
                double re = c.isNullAt(0) ? Double.NaN : real(c, 0, s.fields()[0].dataType());
                double im = c.isNullAt(1) ? Double.NaN : real(c, 1, s.fields()[1].dataType());
                ByteBuffer b = dst.bytes();
                int size = dst.dataType().size();
                int at = Math.toIntExact(flat * size);
                if (size == 8) {
                    b.putFloat(at, (float) re).putFloat(at + 4, (float) im);
                } else {
                    b.putDouble(at, re).putDouble(at + 8, im);
                }
                return;
            }
            case TIMESTAMP:
            case DATE: {
                NumpyTimeType time = (NumpyTimeType) dst.dataType();
                long v = kind == Kind.DATE ? row.getInt(ordinal) : row.getLong(ordinal);
                dst.setLong(flat, timeCount(time, v, where));
                return;
            }
            case STRING:
                dst.setString(flat, row.getUTF8String(ordinal).toString());
                return;
            case BYTES:
                dst.setBytes(flat, row.getBinary(ordinal));
                return;
            case RAW: {
                byte[] v = row.getBinary(ordinal);
                int size = dst.dataType().size();
                if (v.length != size) {
                    throw new ZarrWriteException(where + ": value of column '" + column + "' has " + v.length
                            + " bytes; Zarr data type " + dst.dataType().name() + " takes exactly " + size);
                }
                dst.bytes().put(Math.toIntExact(flat * size), v);
                return;
            }
            default:
                throw new IllegalStateException(kind.toString());
        }
    }

    private long timeCount(NumpyTimeType time, long v, RowName where) {
        boolean date = kind == Kind.DATE;
        if (time.scaleFactor() == 1 && time.unit() == (date ? DateTimeUnit.DAY : DateTimeUnit.MICROSECOND)) {
            return v;
        }
        Instant at = date ? Instant.ofEpochSecond(Math.multiplyExact(v, 86_400L))
                : Instant.ofEpochSecond(Math.floorDiv(v, 1_000_000L), Math.floorMod(v, 1_000_000L) * 1000);
        try {
            return time.fromInstant(at);
        } catch (DateTimeException e) {
            throw new ZarrWriteException(where + ": value " + at + " of column '" + column + "' does not fit Zarr "
                    + "data type " + describe(time) + ": " + e.getMessage(), e);
        }
    }

    private ZarrWriteException outOfRange(RowName where, String value, DataType t) {
        return new ZarrWriteException(where + ": value " + value + " of column '" + column + "' does not fit Zarr data "
                + "type " + t.name() + " [" + min + ", " + max + "]");
    }

    /** An integral column's value as a long. */
    static long integral(InternalRow row, int ordinal, org.apache.spark.sql.types.DataType t) {
        if (t instanceof LongType) {
            return row.getLong(ordinal);
        } else if (t instanceof IntegerType) {
            return row.getInt(ordinal);
        } else if (t instanceof ShortType) {
            return row.getShort(ordinal);
        } else if (t instanceof ByteType) {
            return row.getByte(ordinal);
        }
        throw new IllegalStateException("not integral: " + t);
    }

    private static double real(InternalRow row, int ordinal, org.apache.spark.sql.types.DataType t) {
        if (t instanceof DoubleType) {
            return row.getDouble(ordinal);
        } else if (t instanceof FloatType) {
            return row.getFloat(ordinal);
        } else if (t instanceof DecimalType d) {
            BigDecimal v = row.getDecimal(ordinal, d.precision(), d.scale()).toJavaBigDecimal();
            return v.doubleValue();
        }
        return integral(row, ordinal, t);
    }

    /** Names a row by its coordinates in messages: {@code row (y=3, x=5)}. */
    static final class RowName {
        private final String[] names;
        private final long[] coords;

        RowName(String[] names, long[] coords) {
            this.names = names;
            this.coords = coords;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("row (");
            for (int i = 0; i < names.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(names[i]).append('=').append(coords[i]);
            }
            return sb.append(')').toString();
        }
    }
}
