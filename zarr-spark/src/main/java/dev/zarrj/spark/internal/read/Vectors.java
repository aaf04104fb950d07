package dev.zarrj.spark.internal.read;

import java.nio.ByteBuffer;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Read-only column vectors over a decoded region: row {@code r} of a batch is element
 * {@link Rows#flat(int) rows.flat(r)} (C order) of the region, so the values are read where the
 * codecs left them, never copied into Spark's own vectors.
 */
public final class Vectors {
    private Vectors() {}

    /**
     * Which elements of a region a batch's rows are: a run of consecutive ones, or (after fill
     * values were skipped) a list.
     */
    public record Rows(long start, int[] list) {
        public static Rows run(long start) {
            return new Rows(start, null);
        }

        static Rows list(int[] flat) {
            return new Rows(0, flat);
        }

        long flat(int row) {
            return list == null ? start + row : list[row];
        }
    }

    /** The base of every vector here: reading methods a vector does not serve fail. */
    abstract static class Base extends ColumnVector {
        final Rows rows;

        Base(DataType type, Rows rows) {
            super(type);
            this.rows = rows;
        }

        /** The element index of a row, as an int (regions are below 2^31 elements). */
        final int at(int row) {
            return (int) rows.flat(row);
        }

        @Override
        public void close() {}

        @Override
        public boolean hasNull() {
            return false;
        }

        @Override
        public int numNulls() {
            return 0;
        }

        @Override
        public boolean isNullAt(int rowId) {
            return false;
        }

        private UnsupportedOperationException no(String what) {
            return new UnsupportedOperationException(what + " of a " + dataType().simpleString() + " column");
        }

        @Override
        public boolean getBoolean(int rowId) {
            throw no("getBoolean");
        }

        @Override
        public byte getByte(int rowId) {
            throw no("getByte");
        }

        @Override
        public short getShort(int rowId) {
            throw no("getShort");
        }

        @Override
        public int getInt(int rowId) {
            throw no("getInt");
        }

        @Override
        public long getLong(int rowId) {
            throw no("getLong");
        }

        @Override
        public float getFloat(int rowId) {
            throw no("getFloat");
        }

        @Override
        public double getDouble(int rowId) {
            throw no("getDouble");
        }

        @Override
        public ColumnarArray getArray(int rowId) {
            throw no("getArray");
        }

        @Override
        public ColumnarMap getMap(int rowId) {
            throw no("getMap");
        }

        @Override
        public Decimal getDecimal(int rowId, int precision, int scale) {
            throw no("getDecimal");
        }

        @Override
        public UTF8String getUTF8String(int rowId) {
            throw no("getUTF8String");
        }

        @Override
        public byte[] getBinary(int rowId) {
            throw no("getBinary");
        }

        @Override
        public ColumnVector getChild(int ordinal) {
            throw no("getChild");
        }
    }

    /** A dimension column: the element's index along one dimension, computed from its position. */
    static final class Coordinate extends Base {
        private final long origin;
        private final long stride;
        private final long extent;

        /**
         * @param origin the region's first index along the dimension
         * @param stride elements between consecutive indices along it (C order)
         * @param extent the region's size along it
         */
        Coordinate(Rows rows, long origin, long stride, long extent) {
            super(org.apache.spark.sql.types.DataTypes.LongType, rows);
            this.origin = origin;
            this.stride = stride;
            this.extent = extent;
        }

        @Override
        public long getLong(int rowId) {
            return origin + (rows.flat(rowId) / stride) % extent;
        }
    }

    /** A column of fixed-size elements read from a byte buffer in native order. */
    abstract static class Buffer extends Base {
        final ByteBuffer data;

        Buffer(DataType type, Rows rows, ByteBuffer data) {
            super(type, rows);
            this.data = data;
        }
    }

    static final class Bools extends Buffer {
        Bools(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public boolean getBoolean(int rowId) {
            return data.get(at(rowId)) != 0;
        }
    }

    static final class Int8 extends Buffer {
        Int8(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public byte getByte(int rowId) {
            return data.get(at(rowId));
        }
    }

    static final class Int16 extends Buffer {
        Int16(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public short getShort(int rowId) {
            return data.getShort(at(rowId) << 1);
        }
    }

    static final class Int32 extends Buffer {
        Int32(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public int getInt(int rowId) {
            return data.getInt(at(rowId) << 2);
        }
    }

    static final class Int64 extends Buffer {
        Int64(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public long getLong(int rowId) {
            return data.getLong(at(rowId) << 3);
        }
    }

    /** uint8 widened to short. */
    static final class UInt8 extends Buffer {
        UInt8(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public short getShort(int rowId) {
            return (short) (data.get(at(rowId)) & 0xff);
        }
    }

    /** uint16 widened to int. */
    static final class UInt16 extends Buffer {
        UInt16(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public int getInt(int rowId) {
            return data.getShort(at(rowId) << 1) & 0xffff;
        }
    }

    /** uint32 widened to long. */
    static final class UInt32 extends Buffer {
        UInt32(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public long getLong(int rowId) {
            return data.getInt(at(rowId) << 2) & 0xffffffffL;
        }
    }

    /** uint64 as {@code Decimal(20,0)}. */
    static final class UInt64 extends Buffer {
        UInt64(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public Decimal getDecimal(int rowId, int precision, int scale) {
            long v = data.getLong(at(rowId) << 3);
            if (v >= 0) {
                return Decimal.apply(v);
            }
            return Decimal.apply(new java.math.BigDecimal(Long.toUnsignedString(v)));
        }
    }

    static final class Float16s extends Buffer {
        Float16s(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public float getFloat(int rowId) {
            return dev.zarrj.api.datatype.Float16.toFloat(data.getShort(at(rowId) << 1));
        }
    }

    static final class Float32 extends Buffer {
        Float32(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public float getFloat(int rowId) {
            return data.getFloat(at(rowId) << 2);
        }
    }

    static final class Float64 extends Buffer {
        Float64(DataType t, Rows r, ByteBuffer d) {
            super(t, r, d);
        }

        @Override
        public double getDouble(int rowId) {
            return data.getDouble(at(rowId) << 3);
        }
    }

    /** One part of a complex number: element {@code i}'s part at component {@code 2i + part}. */
    static final class ComplexPart extends Buffer {
        private final boolean doubles;
        private final int part;

        ComplexPart(DataType t, Rows r, ByteBuffer d, boolean doubles, int part) {
            super(t, r, d);
            this.doubles = doubles;
            this.part = part;
        }

        @Override
        public float getFloat(int rowId) {
            return data.getFloat(((at(rowId) << 1) + part) << 2);
        }

        @Override
        public double getDouble(int rowId) {
            return data.getDouble(((at(rowId) << 1) + part) << 3);
        }
    }

    /** A struct {@code (real, imag)} over a complex column. */
    static final class Complex extends Base {
        private final ColumnVector real;
        private final ColumnVector imag;

        Complex(DataType t, Rows r, ByteBuffer d, DataType part) {
            super(t, r);
            boolean doubles = part == org.apache.spark.sql.types.DataTypes.DoubleType;
            this.real = new ComplexPart(part, r, d, doubles, 0);
            this.imag = new ComplexPart(part, r, d, doubles, 1);
        }

        @Override
        public ColumnVector getChild(int ordinal) {
            return ordinal == 0 ? real : imag;
        }
    }

    /** A column computed per element by a function of the flat index (objects, encoded numbers...). */
    static final class Computed extends Base {
        private final Element element;

        Computed(DataType t, Rows r, Element element) {
            super(t, r);
            this.element = element;
        }

        @Override
        public boolean hasNull() {
            return element.nullable();
        }

        @Override
        public int numNulls() {
            throw new UnsupportedOperationException("numNulls of a computed column");
        }

        @Override
        public boolean isNullAt(int rowId) {
            return element.isNull(rows.flat(rowId));
        }

        @Override
        public byte getByte(int rowId) {
            return (byte) element.getLong(rows.flat(rowId));
        }

        @Override
        public short getShort(int rowId) {
            return (short) element.getLong(rows.flat(rowId));
        }

        @Override
        public int getInt(int rowId) {
            return (int) element.getLong(rows.flat(rowId));
        }

        @Override
        public long getLong(int rowId) {
            return element.getLong(rows.flat(rowId));
        }

        @Override
        public float getFloat(int rowId) {
            return (float) element.getDouble(rows.flat(rowId));
        }

        @Override
        public double getDouble(int rowId) {
            return element.getDouble(rows.flat(rowId));
        }

        @Override
        public UTF8String getUTF8String(int rowId) {
            return UTF8String.fromString(element.getString(rows.flat(rowId)));
        }

        @Override
        public byte[] getBinary(int rowId) {
            return element.getBinary(rows.flat(rowId));
        }
    }

    /** How a {@link Computed} column reads one element. */
    interface Element {
        default boolean nullable() {
            return false;
        }

        default boolean isNull(long flat) {
            return false;
        }

        default long getLong(long flat) {
            throw new UnsupportedOperationException();
        }

        default double getDouble(long flat) {
            throw new UnsupportedOperationException();
        }

        default String getString(long flat) {
            throw new UnsupportedOperationException();
        }

        default byte[] getBinary(long flat) {
            throw new UnsupportedOperationException();
        }
    }
}
