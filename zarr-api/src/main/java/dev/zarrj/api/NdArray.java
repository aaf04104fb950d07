package dev.zarrj.api;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.Float16;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A typed, shaped, C-ordered block of elements: what users read and write, and what array codecs
 * exchange.
 *
 * <p>Elements are stored contiguously in row-major (C) order, each in the platform's native byte
 * order, in one {@link ByteBuffer}. {@link #reshape} and {@link #slice} are views that share it;
 * {@link RegionCopy} moves a {@link Region} between two arrays in whole contiguous runs.
 *
 * <p>Bulk copies to and from Java arrays use one array type per data type: {@code boolean[]} for
 * {@code bool}, {@code byte[]}/{@code short[]}/{@code int[]}/{@code long[]} for 1/2/4/8-byte
 * integers (unsigned values keep their bits), {@code float[]} for {@code float16} (converted) and
 * {@code float32}, {@code double[]} for {@code float64}, interleaved real/imaginary
 * {@code float[]}/{@code double[]} for {@code complex64}/{@code complex128}, and {@code byte[]}
 * for raw and other types.
 *
 * <p>Not thread-safe for concurrent writes; the shape and data type never change.
 */
public final class NdArray {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final DataType dataType;
    private final long[] shape;
    private final ByteBuffer data;

    private NdArray(DataType dataType, long[] shape, ByteBuffer data) {
        this.dataType = dataType;
        this.shape = shape;
        this.data = data;
    }

    /** A zero-filled array. */
    public static NdArray allocate(DataType dataType, long... shape) {
        long[] s = checkShape(shape);
        int bytes = byteSizeOf(dataType, s);
        return new NdArray(dataType, s, ByteBuffer.allocate(bytes).order(NATIVE));
    }

    /** An array with every element equal to {@code value}. */
    public static NdArray filled(DataType dataType, FillValue value, long... shape) {
        NdArray a = allocate(dataType, shape);
        if (!value.isZero()) {
            a.fill(value);
        }
        return a;
    }

    /**
     * A view of bytes as an array: elements in native byte order, C order, from the buffer's
     * position to its limit, which must hold exactly the array's size. The buffer is shared.
     *
     * @throws IllegalArgumentException when the size does not match
     */
    public static NdArray wrap(DataType dataType, ByteBuffer bytes, long... shape) {
        long[] s = checkShape(shape);
        int size = byteSizeOf(dataType, s);
        if (bytes.remaining() != size) {
            throw new IllegalArgumentException("a " + dataType.name() + " array of shape " + Arrays.toString(s)
                    + " needs " + size + " bytes, got " + bytes.remaining());
        }
        return new NdArray(dataType, s, bytes.slice().order(NATIVE));
    }

    /**
     * A new array holding a copy of a Java array's elements (see the class description for the
     * Java array type of each data type).
     *
     * @throws IllegalArgumentException when the Java array's type or length does not match
     */
    public static NdArray copyOf(DataType dataType, Object javaArray, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(javaArray);
        return a;
    }

    private static long[] checkShape(long[] shape) {
        long[] s = shape.clone();
        for (long d : s) {
            if (d < 0) {
                throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(s));
            }
        }
        return s;
    }

    private static int byteSizeOf(DataType dataType, long[] shape) {
        long n = dataType.size();
        for (long d : shape) {
            n = d == 0 ? 0 : n > Long.MAX_VALUE / d ? Long.MAX_VALUE : n * d;
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("an array of shape " + Arrays.toString(shape) + " and type "
                    + dataType.name() + " holds " + (n == Long.MAX_VALUE ? "2^63 or more" : String.valueOf(n))
                    + " bytes, more than one buffer can (2 GiB); read it in parts");
        }
        return (int) n;
    }

    /** The element type. */
    public DataType dataType() {
        return dataType;
    }

    /** A copy of the shape. */
    public long[] shape() {
        return shape.clone();
    }

    /** The length of one dimension. */
    public long shape(int dimension) {
        return shape[dimension];
    }

    /** The number of dimensions (0 for a scalar). */
    public int rank() {
        return shape.length;
    }

    /** The number of elements. */
    public long elementCount() {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** The size in bytes. */
    public int byteSize() {
        return data.capacity();
    }

    /**
     * The elements' bytes: a view (shared, not a copy) in native byte order, position 0, limit at
     * the size.
     */
    public ByteBuffer bytes() {
        return data.duplicate().order(NATIVE);
    }

    /** A view with another shape of the same element count. */
    public NdArray reshape(long... newShape) {
        long[] s = checkShape(newShape);
        long n = 1;
        for (long d : s) {
            n *= d;
        }
        if (n != elementCount()) {
            throw new IllegalArgumentException("cannot reshape " + Arrays.toString(shape) + " to " + Arrays.toString(s));
        }
        return new NdArray(dataType, s, data);
    }

    /** A view of the elements {@code [from, to)} along the first dimension. */
    public NdArray slice(long from, long to) {
        if (shape.length == 0 || from < 0 || to > shape[0] || from > to) {
            throw new IllegalArgumentException("slice [" + from + ", " + to + ") outside " + Arrays.toString(shape));
        }
        long inner = (long) dataType.size();
        for (int d = 1; d < shape.length; d++) {
            inner *= shape[d];
        }
        long[] s = shape.clone();
        s[0] = to - from;
        ByteBuffer view = data.slice((int) (from * inner), (int) ((to - from) * inner)).order(NATIVE);
        return new NdArray(dataType, s, view);
    }

    /** Sets every element to {@code value}. */
    public void fill(FillValue value) {
        byte[] v = value.bytes();
        if (v.length != dataType.size()) {
            throw new IllegalArgumentException("fill value of " + v.length + " bytes for " + dataType.name());
        }
        int size = data.capacity();
        if (size == 0) {
            return;
        }
        // Write one element, then double the filled prefix each step.
        data.put(0, v, 0, Math.min(v.length, size));
        int filled = v.length;
        while (filled < size) {
            int n = Math.min(filled, size - filled);
            data.put(filled, data, 0, n);
            filled += n;
        }
    }

    /**
     * Sets every element of a region to {@code value}.
     *
     * @throws IllegalArgumentException when the region lies outside the array
     */
    public void fill(FillValue value, Region region) {
        RegionCopy.fill(this, region, value);
    }

    /** Whether every element equals {@code value} bit for bit. */
    public boolean isAll(FillValue value) {
        return value.fillsAll(data.duplicate());
    }

    /**
     * Whether every element of a region equals {@code value} bit for bit; stops at the first that
     * does not.
     *
     * @throws IllegalArgumentException when the region lies outside the array
     */
    public boolean isAll(FillValue value, Region region) {
        return RegionCopy.allEqual(this, region, value);
    }

    /** Same data type, shape and bytes. */
    public boolean contentEquals(NdArray other) {
        return other != null && dataType.equals(other.dataType) && Arrays.equals(shape, other.shape)
                && data.duplicate().clear().equals(other.data.duplicate().clear());
    }

    // ---- element access by flat C-order index ----

    private int offset(long index) {
        long n = elementCount();
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("element " + index + " of " + n);
        }
        return (int) (index * dataType.size());
    }

    /** The flat C-order index of a multi-dimensional index. */
    public long flatIndex(long... index) {
        if (index.length != shape.length) {
            throw new IllegalArgumentException("index of rank " + index.length + " for an array of rank " + shape.length);
        }
        long flat = 0;
        for (int d = 0; d < shape.length; d++) {
            if (index[d] < 0 || index[d] >= shape[d]) {
                throw new IndexOutOfBoundsException("index " + Arrays.toString(index) + " outside " + Arrays.toString(shape));
            }
            flat = flat * shape[d] + index[d];
        }
        return flat;
    }

    /**
     * An integer or boolean element as a long: signed types sign-extend, unsigned types
     * zero-extend ({@code uint64} keeps its bits: use {@link Long#toUnsignedString}).
     */
    public long getLong(long index) {
        int o = offset(index);
        ElementKind k = dataType.kind();
        return switch (dataType.size()) {
            case 1 -> k == ElementKind.INT ? data.get(o) : data.get(o) & 0xffL;
            case 2 -> k == ElementKind.INT ? data.getShort(o) : data.getShort(o) & 0xffffL;
            case 4 -> k == ElementKind.INT ? data.getInt(o) : data.getInt(o) & 0xffffffffL;
            case 8 -> data.getLong(o);
            default -> throw new UnsupportedOperationException("getLong on " + dataType.name());
        };
    }

    /** Sets an integer or boolean element from a long (truncated to the element size). */
    public void setLong(long index, long value) {
        int o = offset(index);
        switch (dataType.size()) {
            case 1 -> data.put(o, (byte) value);
            case 2 -> data.putShort(o, (short) value);
            case 4 -> data.putInt(o, (int) value);
            case 8 -> data.putLong(o, value);
            default -> throw new UnsupportedOperationException("setLong on " + dataType.name());
        }
    }

    /** A numeric element as a double (for complex types, the real part). */
    public double getDouble(long index) {
        int o = offset(index);
        return switch (dataType.kind()) {
            case FLOAT -> switch (dataType.size()) {
                case 2 -> Float16.toFloat(data.getShort(o));
                case 4 -> data.getFloat(o);
                default -> data.getDouble(o);
            };
            case COMPLEX -> dataType.size() == 8 ? data.getFloat(o) : data.getDouble(o);
            case UINT -> {
                long v = getLong(index);
                yield v >= 0 ? (double) v : Double.parseDouble(Long.toUnsignedString(v));
            }
            case INT, BOOL -> getLong(index);
            default -> throw new UnsupportedOperationException("getDouble on " + dataType.name());
        };
    }

    /** Sets a numeric element from a double (rounded to floats, truncated to integers). */
    public void setDouble(long index, double value) {
        int o = offset(index);
        switch (dataType.kind()) {
            case FLOAT -> {
                switch (dataType.size()) {
                    case 2 -> data.putShort(o, Float16.fromFloat(toFloatRoundToOdd(value)));
                    case 4 -> data.putFloat(o, (float) value);
                    default -> data.putDouble(o, value);
                }
            }
            case UINT -> setLong(index, value >= 0x1p63 ? (long) (value - 0x1p63) ^ Long.MIN_VALUE : (long) value);
            case INT, BOOL -> setLong(index, (long) value);
            default -> throw new UnsupportedOperationException("setDouble on " + dataType.name());
        }
    }

    /**
     * The double rounded to a float with round-to-odd, so that rounding that float again to
     * float16 (11 bits, far fewer than float's 24) gives the correctly rounded result; rounding to
     * nearest twice could land on a float16 tie that the double was not on.
     */
    private static float toFloatRoundToOdd(double value) {
        float f = (float) value;
        if (Double.isNaN(value) || f == value || (Float.floatToRawIntBits(f) & 1) != 0) {
            return f;
        }
        return f < value ? Math.nextUp(f) : Math.nextDown(f);
    }

    /** A {@code bool} element. */
    public boolean getBoolean(long index) {
        return data.get(offset(index)) != 0;
    }

    /** Sets a {@code bool} element. */
    public void setBoolean(long index, boolean value) {
        data.put(offset(index), (byte) (value ? 1 : 0));
    }

    // ---- bulk copies to and from Java arrays ----

    /** The Java array type that bulk copies use for this array's data type. */
    public Class<?> javaArrayType() {
        int size = dataType.size();
        return switch (dataType.kind()) {
            case BOOL -> boolean[].class;
            case INT, UINT -> switch (size) {
                case 1 -> byte[].class;
                case 2 -> short[].class;
                case 4 -> int[].class;
                case 8 -> long[].class;
                default -> byte[].class;
            };
            case FLOAT -> size == 8 ? double[].class : float[].class;
            case COMPLEX -> size == 16 ? double[].class : float[].class;
            default -> byte[].class;
        };
    }

    private int javaLength() {
        long n = elementCount();
        if (dataType.kind() == ElementKind.COMPLEX) {
            n *= 2;
        } else if (javaArrayType() == byte[].class) {
            n = byteSize();
        }
        return (int) n;
    }

    /** A new Java array holding a copy of the elements (see the class description for its type). */
    public Object toJavaArray() {
        Object out = java.lang.reflect.Array.newInstance(javaArrayType().getComponentType(), javaLength());
        copyTo(out);
        return out;
    }

    /** Copies the elements into a Java array of the matching type and length. */
    public void copyTo(Object javaArray) {
        checkJavaArray(javaArray);
        ByteBuffer b = bytes();
        if (javaArray instanceof boolean[] a) {
            for (int i = 0; i < a.length; i++) {
                a[i] = b.get(i) != 0;
            }
        } else if (javaArray instanceof byte[] a) {
            b.get(a);
        } else if (javaArray instanceof short[] a) {
            b.asShortBuffer().get(a);
        } else if (javaArray instanceof int[] a) {
            b.asIntBuffer().get(a);
        } else if (javaArray instanceof long[] a) {
            b.asLongBuffer().get(a);
        } else if (javaArray instanceof float[] a) {
            if (dataType.size() == 2) {
                for (int i = 0; i < a.length; i++) {
                    a[i] = Float16.toFloat(b.getShort(2 * i));
                }
            } else {
                b.asFloatBuffer().get(a);
            }
        } else if (javaArray instanceof double[] a) {
            b.asDoubleBuffer().get(a);
        }
    }

    /** Copies all elements from a Java array of the matching type and length. */
    public void copyFrom(Object javaArray) {
        checkJavaArray(javaArray);
        ByteBuffer b = bytes();
        if (javaArray instanceof boolean[] a) {
            for (int i = 0; i < a.length; i++) {
                b.put(i, (byte) (a[i] ? 1 : 0));
            }
        } else if (javaArray instanceof byte[] a) {
            b.put(a);
        } else if (javaArray instanceof short[] a) {
            b.asShortBuffer().put(a);
        } else if (javaArray instanceof int[] a) {
            b.asIntBuffer().put(a);
        } else if (javaArray instanceof long[] a) {
            b.asLongBuffer().put(a);
        } else if (javaArray instanceof float[] a) {
            if (dataType.size() == 2) {
                for (int i = 0; i < a.length; i++) {
                    b.putShort(2 * i, Float16.fromFloat(a[i]));
                }
            } else {
                b.asFloatBuffer().put(a);
            }
        } else if (javaArray instanceof double[] a) {
            b.asDoubleBuffer().put(a);
        }
    }

    private void checkJavaArray(Object javaArray) {
        Objects.requireNonNull(javaArray, "javaArray");
        if (javaArray.getClass() != javaArrayType()) {
            throw new IllegalArgumentException("a " + dataType.name() + " array copies to and from "
                    + javaArrayType().getSimpleName() + ", not " + javaArray.getClass().getSimpleName());
        }
        int len = java.lang.reflect.Array.getLength(javaArray);
        if (len != javaLength()) {
            throw new IllegalArgumentException("a " + dataType.name() + " array of shape " + Arrays.toString(shape)
                    + " needs a " + javaArrayType().getSimpleName() + " of length " + javaLength() + ", got " + len);
        }
    }

    /** A float32 (or float16) array's elements as a new {@code float[]}. */
    public float[] toFloatArray() {
        return (float[]) requireType(float[].class);
    }

    /** A float64 array's elements as a new {@code double[]}. */
    public double[] toDoubleArray() {
        return (double[]) requireType(double[].class);
    }

    /** A 4-byte integer array's elements as a new {@code int[]}. */
    public int[] toIntArray() {
        return (int[]) requireType(int[].class);
    }

    /** An 8-byte integer array's elements as a new {@code long[]}. */
    public long[] toLongArray() {
        return (long[]) requireType(long[].class);
    }

    /** A 2-byte integer array's elements as a new {@code short[]}. */
    public short[] toShortArray() {
        return (short[]) requireType(short[].class);
    }

    /** A copy of the raw bytes (native byte order). */
    public byte[] toByteArray() {
        byte[] out = new byte[byteSize()];
        bytes().get(out);
        return out;
    }

    private Object requireType(Class<?> type) {
        if (javaArrayType() != type) {
            throw new IllegalArgumentException("a " + dataType.name() + " array copies to "
                    + javaArrayType().getSimpleName() + ", not " + type.getSimpleName());
        }
        return toJavaArray();
    }

    // ---- regions ----

    /**
     * A new array holding a copy of a region of this one.
     *
     * @throws IllegalArgumentException when the region lies outside the array
     */
    public NdArray region(Region region) {
        NdArray out = allocate(dataType, region.shape());
        RegionCopy.copy(this, region, out, new long[shape.length]);
        return out;
    }

    @Override
    public String toString() {
        return "NdArray[" + dataType.name() + " " + Arrays.toString(shape) + "]";
    }
}
