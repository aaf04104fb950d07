package dev.zarrj.spark.internal.read;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.NumericEncoding;
import dev.zarrj.ext.datetime.NumpyTimeType;
import dev.zarrj.ext.strings.FixedLengthUtf32Type;
import dev.zarrj.ext.strings.NullTerminatedBytesType;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * How the elements of one Zarr data type become a Spark column: its Spark type, and the vector
 * that reads a decoded region's elements as that type.
 *
 * <p>Integers keep their values (unsigned ones widened: {@code uint8}→short, {@code uint16}→int,
 * {@code uint32}→long, {@code uint64}→{@code Decimal(20,0)}); {@code float16} reads as float;
 * complex numbers as {@code struct<real, imag>}; {@code string} and {@code fixed_length_utf32} as
 * strings; {@code bytes}, {@code null_terminated_bytes} and {@code r*} as binary;
 * {@code numpy.datetime64} as dates for the unit {@code D} and as timestamps for other units of a
 * whole number of microseconds or calendar units, {@code numpy.timedelta64} as day-time intervals
 * for such units and as year-month intervals for month and year units (NaT reads as null), and
 * both as the stored {@code long} counts otherwise (the unit is
 * in the column's metadata); other number encodings ({@code bfloat16}, {@code int4}...) as double
 * or long.
 */
public abstract class ValueColumn {
    final org.apache.spark.sql.types.DataType sparkType;
    final boolean nullable;
    final Metadata metadata;

    private ValueColumn(org.apache.spark.sql.types.DataType sparkType, boolean nullable, Metadata metadata) {
        this.sparkType = sparkType;
        this.nullable = nullable;
        this.metadata = metadata;
    }

    /** The schema field of a column with this name. */
    StructField field(String name) {
        return new StructField(name, sparkType, nullable, metadata);
    }

    /** The vector reading {@code region}'s elements at {@code rows}. */
    public abstract ColumnVector vector(NdArray region, Vectors.Rows rows);

    /** Whether the element at flat index {@code flat} of {@code region} equals the fill value. */
    public abstract boolean isFill(NdArray region, long flat);

    /**
     * The column of a data type.
     *
     * @throws UnsupportedFormatException when the type has no Spark counterpart, naming it and the array
     */
    public static ValueColumn of(DataType type, FillValue fill, String arrayPath) {
        if (type instanceof NumpyTimeType t) {
            return time(t, fill);
        }
        if (type instanceof FixedLengthUtf32Type t) {
            return computed(DataTypes.StringType, false, Metadata.empty(), fill, region -> new Vectors.Element() {
                @Override
                public String getString(long flat) {
                    return t.get(region, flat);
                }
            });
        }
        if (type instanceof NullTerminatedBytesType t) {
            return computed(DataTypes.BinaryType, false, Metadata.empty(), fill, (region) -> new Vectors.Element() {
                @Override
                public byte[] getBinary(long flat) {
                    return t.get(region, flat);
                }
            });
        }
        int size = type.size();
        ElementKind kind = type.kind();
        switch (kind) {
            case BOOL:
                return buffer(DataTypes.BooleanType, fill, Vectors.Bools::new);
            case INT:
                switch (size) {
                    case 1: return buffer(DataTypes.ByteType, fill, Vectors.Int8::new);
                    case 2: return buffer(DataTypes.ShortType, fill, Vectors.Int16::new);
                    case 4: return buffer(DataTypes.IntegerType, fill, Vectors.Int32::new);
                    case 8: return buffer(DataTypes.LongType, fill, Vectors.Int64::new);
                    default: break;
                }
                break;
            case UINT:
                switch (size) {
                    case 1: return buffer(DataTypes.ShortType, fill, Vectors.UInt8::new);
                    case 2: return buffer(DataTypes.IntegerType, fill, Vectors.UInt16::new);
                    case 4: return buffer(DataTypes.LongType, fill, Vectors.UInt32::new);
                    case 8: return buffer(DataTypes.createDecimalType(20, 0), fill, Vectors.UInt64::new);
                    default: break;
                }
                break;
            case FLOAT:
                switch (size) {
                    case 2: return buffer(DataTypes.FloatType, fill, Vectors.Float16s::new);
                    case 4: return buffer(DataTypes.FloatType, fill, Vectors.Float32::new);
                    case 8: return buffer(DataTypes.DoubleType, fill, Vectors.Float64::new);
                    default: break;
                }
                break;
            case COMPLEX: {
                org.apache.spark.sql.types.DataType part = size == 8 ? DataTypes.FloatType : DataTypes.DoubleType;
                org.apache.spark.sql.types.DataType struct = DataTypes.createStructType(new StructField[] {
                    DataTypes.createStructField("real", part, false),
                    DataTypes.createStructField("imag", part, false)});
                return buffer(struct, fill, (t, rows, data) -> new Vectors.Complex(t, rows, data, part));
            }
            case RAW:
                return computed(DataTypes.BinaryType, false, Metadata.empty(), fill, region -> {
                    ByteBuffer data = region.bytes();
                    return new Vectors.Element() {
                        @Override
                        public byte[] getBinary(long flat) {
                            byte[] b = new byte[size];
                            data.get((int) flat * size, b);
                            return b;
                        }
                    };
                });
            case STRING: {
                return objects(DataTypes.StringType, fill, region -> new Vectors.Element() {
                    @Override
                    public String getString(long flat) {
                        return region.getString(flat);
                    }
                });
            }
            case BYTES:
                return objects(DataTypes.BinaryType, fill, region -> new Vectors.Element() {
                    @Override
                    public byte[] getBinary(long flat) {
                        return region.getBytes(flat);
                    }
                });
            case OTHER: {
                Optional<NumericEncoding> enc = type.numericEncoding();
                if (enc.isPresent() && !enc.get().isInteger()) {
                    return computed(DataTypes.DoubleType, false, Metadata.empty(), fill, region -> new Vectors.Element() {
                        @Override
                        public double getDouble(long flat) {
                            return region.getDouble(flat);
                        }
                    });
                }
                if (enc.isPresent()) {
                    return computed(DataTypes.LongType, false, Metadata.empty(), fill, region -> new Vectors.Element() {
                        @Override
                        public long getLong(long flat) {
                            return region.getLong(flat);
                        }
                    });
                }
                break;
            }
            default:
                break;
        }
        throw new UnsupportedFormatException("/data_type", "array '" + arrayPath + "' has data type '" + type.name()
                + "', which the zarr data source cannot read as a Spark column");
    }

    private interface BufferVector {
        ColumnVector make(org.apache.spark.sql.types.DataType type, Vectors.Rows rows, ByteBuffer data);
    }

    /** A fixed-size type read from the region's bytes; fill compared byte for byte. */
    private static ValueColumn buffer(org.apache.spark.sql.types.DataType sparkType, FillValue fill, BufferVector v) {
        byte[] fillBytes = fill.bytes();
        return new ValueColumn(sparkType, false, Metadata.empty()) {
            @Override
            public ColumnVector vector(NdArray region, Vectors.Rows rows) {
                return v.make(sparkType, rows, region.bytes());
            }

            @Override
            public boolean isFill(NdArray region, long flat) {
                return sameBytes(region, flat, fillBytes);
            }
        };
    }

    private static boolean sameBytes(NdArray region, long flat, byte[] fillBytes) {
        ByteBuffer data = region.bytes();
        int at = (int) flat * fillBytes.length;
        for (int i = 0; i < fillBytes.length; i++) {
            if (data.get(at + i) != fillBytes[i]) {
                return false;
            }
        }
        return true;
    }

    private interface PerRegion {
        Vectors.Element bind(NdArray region);
    }

    /** A fixed-size type read element by element; fill compared byte for byte. */
    private static ValueColumn computed(org.apache.spark.sql.types.DataType sparkType, boolean nullable,
                                        Metadata metadata, FillValue fill, PerRegion perRegion) {
        byte[] fillBytes = fill.bytes();
        return new ValueColumn(sparkType, nullable, metadata) {
            @Override
            public ColumnVector vector(NdArray region, Vectors.Rows rows) {
                return new Vectors.Computed(sparkType, rows, perRegion.bind(region));
            }

            @Override
            public boolean isFill(NdArray region, long flat) {
                return sameBytes(region, flat, fillBytes);
            }
        };
    }

    /** A variable-length type: elements are objects; the fill value is compared as text or bytes. */
    private static ValueColumn objects(org.apache.spark.sql.types.DataType sparkType, FillValue fill, PerRegion perRegion) {
        byte[] fillBytes = fill.bytes();
        String fillText = new String(fillBytes, StandardCharsets.UTF_8);
        boolean text = sparkType == DataTypes.StringType;
        return new ValueColumn(sparkType, false, Metadata.empty()) {
            @Override
            public ColumnVector vector(NdArray region, Vectors.Rows rows) {
                return new Vectors.Computed(sparkType, rows, perRegion.bind(region));
            }

            @Override
            public boolean isFill(NdArray region, long flat) {
                return text ? fillText.equals(region.getString(flat)) : Arrays.equals(fillBytes, region.getBytes(flat));
            }
        };
    }

    private static final BigInteger ATTOS_PER_MICRO = BigInteger.TEN.pow(12);
    private static final BigInteger MAX_FACTOR = BigInteger.valueOf(Long.MAX_VALUE);

    /** numpy.datetime64 and numpy.timedelta64. */
    private static ValueColumn time(NumpyTimeType t, FillValue fill) {
        boolean datetime = t.variant() == NumpyTimeType.Variant.DATETIME64;
        Metadata unit = new MetadataBuilder().putString("zarr.data_type", t.name())
                .putString("zarr.unit", t.unit().identifier()).putLong("zarr.scale_factor", t.scaleFactor()).build();
        Optional<BigInteger> attos = t.unit().attoseconds();
        if (datetime && t.unit().identifier().equals("D") && t.scaleFactor() == 1) {
            // A day count is a date (numpy's datetime64[D]; what a Spark date column is written as).
            return computed(DataTypes.DateType, true, unit, fill, region -> {
                ByteBuffer data = region.bytes();
                return new Vectors.Element() {
                    @Override
                    public boolean nullable() {
                        return true;
                    }

                    @Override
                    public boolean isNull(long flat) {
                        return NumpyTimeType.isNaT(data.getLong((int) flat << 3));
                    }

                    @Override
                    public long getLong(long flat) {
                        long days = data.getLong((int) flat << 3);
                        if (days != (int) days) {
                            throw new ArithmeticException("value " + days + " of " + t.name() + "[D] at element " + flat
                                    + " is outside the range of Spark's dates");
                        }
                        return days;
                    }
                };
            });
        }
        if (attos.isPresent()) {
            BigInteger[] qr = attos.get().multiply(BigInteger.valueOf(t.scaleFactor())).divideAndRemainder(ATTOS_PER_MICRO);
            if (qr[1].signum() == 0 && qr[0].compareTo(MAX_FACTOR) <= 0) {
                long micros = qr[0].longValueExact();
                org.apache.spark.sql.types.DataType type = datetime ? DataTypes.TimestampType
                        : DayTimeIntervalType.apply(DayTimeIntervalType.DAY(), DayTimeIntervalType.SECOND());
                return computed(type, true, unit, fill, region -> {
                    ByteBuffer data = region.bytes();
                    return new Vectors.Element() {
                        @Override
                        public boolean nullable() {
                            return true;
                        }

                        @Override
                        public boolean isNull(long flat) {
                            return NumpyTimeType.isNaT(data.getLong((int) flat << 3));
                        }

                        @Override
                        public long getLong(long flat) {
                            long count = data.getLong((int) flat << 3);
                            try {
                                return Math.multiplyExact(count, micros);
                            } catch (ArithmeticException e) {
                                throw new ArithmeticException("value " + count + " of " + t.name() + "[" + t.unit().identifier()
                                        + "] at element " + flat + " is outside the range of Spark's microsecond "
                                        + (datetime ? "timestamps" : "intervals"));
                            }
                        }
                    };
                });
            }
        } else if (t.unit().isCalendar()) {
            if (datetime) {
                return computed(DataTypes.TimestampType, true, unit, fill, region -> {
                    ByteBuffer data = region.bytes();
                    return new Vectors.Element() {
                        @Override
                        public boolean nullable() {
                            return true;
                        }

                        @Override
                        public boolean isNull(long flat) {
                            return NumpyTimeType.isNaT(data.getLong((int) flat << 3));
                        }

                        @Override
                        public long getLong(long flat) {
                            Instant i = t.toInstant(data.getLong((int) flat << 3));
                            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
                        }
                    };
                });
            }
            long months = t.unit().identifier().equals("Y") ? 12L * t.scaleFactor() : t.scaleFactor();
            return computed(YearMonthIntervalType.apply(YearMonthIntervalType.YEAR(), YearMonthIntervalType.MONTH()),
                    true, unit, fill, region -> {
                        ByteBuffer data = region.bytes();
                        return new Vectors.Element() {
                            @Override
                            public boolean nullable() {
                                return true;
                            }

                            @Override
                            public boolean isNull(long flat) {
                                return NumpyTimeType.isNaT(data.getLong((int) flat << 3));
                            }

                            @Override
                            public long getLong(long flat) {
                                return Math.toIntExact(Math.multiplyExact(data.getLong((int) flat << 3), months));
                            }
                        };
                    });
        }
        // A unit finer than a microsecond (or not a whole number of them): the counts, as stored.
        return computed(DataTypes.LongType, true, unit, fill, region -> {
            ByteBuffer data = region.bytes();
            return new Vectors.Element() {
                @Override
                public boolean nullable() {
                    return true;
                }

                @Override
                public boolean isNull(long flat) {
                    return NumpyTimeType.isNaT(data.getLong((int) flat << 3));
                }

                @Override
                public long getLong(long flat) {
                    return data.getLong((int) flat << 3);
                }
            };
        });
    }
}
