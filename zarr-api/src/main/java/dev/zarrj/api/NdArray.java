package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.Float16;
import dev.zarrj.api.datatype.NumericEncoding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.apiguardian.api.API;

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
 * for raw and other types — except types of kind {@code OTHER} with a
 * {@link DataType#numericEncoding()}, whose values copy to and from {@code byte[]} (integers) or
 * {@code float[]} (floats; complex ones interleaved), converted. Each copy has one overload per
 * Java array type, so that anything else fails to compile; an array type that is not the data
 * type's fails at run time with an {@link IllegalArgumentException} naming both.
 * {@link #toJavaArray()} serves code that handles every data type.
 *
 * <p>Arrays of a {@linkplain ElementKind#isVariableLength() variable-length} type ({@code string},
 * {@code bytes}) hold one Java object per element instead of bytes: a {@link String} or a
 * {@code byte[]}, never null. They reshape, slice, fill, compare and copy regions like the others;
 * {@link #getString}/{@link #setString} and {@link #getBytes}/{@link #setBytes} reach one element,
 * {@code String[]} and {@code byte[][]} the bulk copies. They have no {@link #bytes()}: what a
 * variable-length element becomes in storage is its codec's business.
 *
 * <p>Element accessors take either one {@code long}, the flat C-order index whatever the rank (as
 * numpy's {@code item(i)}), or one index per dimension: {@code a.getDouble(3, 4)} is row 3, column 4
 * of a 2-d array and {@code a.getDouble()} the element of a 0-d array; on a 1-d array both forms
 * agree. Setters take the index first and the value last, the per-dimension index as a
 * {@code long[]}: {@code a.setDouble(new long[] {3, 4}, 2.5)}. An index of the wrong rank or outside
 * the shape is an {@link IndexOutOfBoundsException} naming the index and the shape.
 *
 * <p>Not thread-safe for concurrent writes; the shape and data type never change.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class NdArray {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final DataType dataType;
    private final long[] shape;
    private final ByteBuffer data;
    /** The conversions of a numeric OTHER type, else null. */
    private final NumericEncoding numeric;
    /**
     * For a variable-length type, the elements ({@code String} or {@code byte[]}, never shared
     * with callers) from {@link #base} on, in C order; else null, and the elements are in data.
     */
    private final Object[] objects;
    private final int base;

    private static final ByteBuffer NO_BYTES = ByteBuffer.allocate(0);
    private static final byte[] NO_BYTE_STRING = new byte[0];

    private NdArray(DataType dataType, long[] shape, ByteBuffer data) {
        this.dataType = dataType;
        this.shape = shape;
        this.data = data;
        this.numeric = dataType.kind() == ElementKind.OTHER ? dataType.numericEncoding().orElse(null) : null;
        this.objects = null;
        this.base = 0;
    }

    private NdArray(DataType dataType, long[] shape, Object[] objects, int base) {
        this.dataType = dataType;
        this.shape = shape;
        this.data = NO_BYTES;
        this.numeric = null;
        this.objects = objects;
        this.base = base;
    }

    /** A zero-filled array; for a variable-length type, one of empty strings or byte strings. */
    public static NdArray allocate(DataType dataType, long... shape) {
        long[] s = checkShape(shape);
        if (dataType.kind().isVariableLength()) {
            Object[] elements = new Object[elementCountOf(dataType, s)];
            Arrays.fill(elements, dataType.kind() == ElementKind.STRING ? "" : NO_BYTE_STRING);
            return new NdArray(dataType, s, elements, 0);
        }
        int bytes = byteSizeOf(dataType, s);
        return new NdArray(dataType, s, ByteBuffer.allocate(bytes).order(NATIVE));
    }

    /** An array with every element equal to {@code value}. */
    public static NdArray filled(DataType dataType, FillValue value, long... shape) {
        NdArray a = allocate(dataType, shape);
        if (!holdsAfterAllocate(dataType, value)) {
            a.fill(value);
        }
        return a;
    }

    /**
     * Whether a freshly {@link #allocate allocated} array of this type already holds {@code value}
     * everywhere: all-zero bytes, or for a variable-length type the empty value.
     */
    public static boolean holdsAfterAllocate(DataType dataType, FillValue value) {
        return dataType.kind().isVariableLength() ? value.size() == 0 : value.isZero();
    }

    /**
     * A new array of a {@code string} type holding {@code values} (none may be null).
     *
     * @throws IllegalArgumentException when the data type is not of kind {@link ElementKind#STRING},
     *                                  the length does not match the shape, or an element is null
     */
    public static NdArray copyOf(DataType dataType, String[] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
        return a;
    }

    /**
     * A new array of a variable-length {@code bytes} type holding copies of {@code values} (none
     * may be null).
     *
     * @throws IllegalArgumentException when the data type is not of kind {@link ElementKind#BYTES},
     *                                  the length does not match the shape, or an element is null
     */
    public static NdArray copyOf(DataType dataType, byte[][] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
        return a;
    }

    private static int elementCountOf(DataType dataType, long[] shape) {
        long n = 1;
        for (long d : shape) {
            n = d == 0 ? 0 : n > Long.MAX_VALUE / d ? Long.MAX_VALUE : n * d;
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("an array of shape " + Arrays.toString(shape) + " and type "
                    + dataType.name() + " holds " + (n == Long.MAX_VALUE ? "2^63 or more" : String.valueOf(n))
                    + " elements, more than one Java array can (2^31); read it in parts");
        }
        return (int) n;
    }

    /**
     * A view of bytes as an array: elements in native byte order, C order, from the buffer's
     * position to its limit, which must hold exactly the array's size. The buffer is shared.
     *
     * @throws IllegalArgumentException when the size does not match, or the type is variable-length
     */
    public static NdArray wrap(DataType dataType, ByteBuffer bytes, long... shape) {
        if (dataType.kind().isVariableLength()) {
            throw new IllegalArgumentException("a " + dataType.name() + " array holds objects, not bytes: allocate it");
        }
        long[] s = checkShape(shape);
        int size = byteSizeOf(dataType, s);
        if (bytes.remaining() != size) {
            throw new IllegalArgumentException("a " + dataType.name() + " array of shape " + Arrays.toString(s)
                    + " needs " + size + " bytes, got " + bytes.remaining());
        }
        return new NdArray(dataType, s, bytes.slice().order(NATIVE));
    }

    /**
     * A new array holding a copy of {@code values}, a {@code boolean[]} of one element per array
     * element, for {@code bool}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  the class description) or the length does not match the shape
     */
    public static NdArray copyOf(DataType dataType, boolean[] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
        return a;
    }

    /**
     * A new array holding a copy of {@code values}, a {@code byte[]} of one element per array
     * element for 1-byte integers, or of the elements' raw bytes for raw and other types.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  the class description) or the length does not match the shape
     */
    public static NdArray copyOf(DataType dataType, byte[] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
        return a;
    }

    /**
     * A new array holding a copy of {@code values}, a {@code short[]} of one element per array
     * element, for 2-byte integers.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  the class description) or the length does not match the shape
     */
    public static NdArray copyOf(DataType dataType, short[] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
        return a;
    }

    /**
     * A new array holding a copy of {@code values}, an {@code int[]} of one element per array
     * element, for 4-byte integers.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  the class description) or the length does not match the shape
     */
    public static NdArray copyOf(DataType dataType, int[] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
        return a;
    }

    /**
     * A new array holding a copy of {@code values}, a {@code long[]} of one element per array
     * element, for 8-byte integers.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  the class description) or the length does not match the shape
     */
    public static NdArray copyOf(DataType dataType, long[] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
        return a;
    }

    /**
     * A new array holding a copy of {@code values}, a {@code float[]} of one element per array
     * element for {@code float16} (rounded) and {@code float32}, or of two (real, imaginary) for
     * {@code complex64}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  the class description) or the length does not match the shape
     */
    public static NdArray copyOf(DataType dataType, float[] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
        return a;
    }

    /**
     * A new array holding a copy of {@code values}, a {@code double[]} of one element per array
     * element for {@code float64}, or of two (real, imaginary) for {@code complex128}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  the class description) or the length does not match the shape
     */
    public static NdArray copyOf(DataType dataType, double[] values, long... shape) {
        NdArray a = allocate(dataType, shape);
        a.copyFrom(values);
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

    /**
     * The size in bytes; for a variable-length type, the estimate {@link DataType#size()} gives
     * per element.
     */
    public int byteSize() {
        return objects != null ? (int) Math.min(Integer.MAX_VALUE, elementCount() * dataType.size()) : data.capacity();
    }

    /** Whether the elements are objects, not bytes: the data type is variable-length. */
    public boolean holdsObjects() {
        return objects != null;
    }

    /**
     * The elements' bytes: a view (shared, not a copy) in native byte order, position 0, limit at
     * the size.
     *
     * @throws UnsupportedOperationException for a variable-length type, whose elements are objects
     */
    public ByteBuffer bytes() {
        checkBytes("bytes()");
        return data.duplicate().order(NATIVE);
    }

    private void checkBytes(String what) {
        if (objects != null) {
            throw new UnsupportedOperationException(what + " of a " + dataType.name()
                    + " array: its elements are objects, not bytes (use getString/getBytes and the String[]/byte[][] copies)");
        }
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
        return objects != null ? new NdArray(dataType, s, objects, base) : new NdArray(dataType, s, data);
    }

    /** A view of the elements {@code [from, to)} along the first dimension. */
    public NdArray slice(long from, long to) {
        if (shape.length == 0 || from < 0 || to > shape[0] || from > to) {
            throw new IllegalArgumentException("slice [" + from + ", " + to + ") outside " + Arrays.toString(shape));
        }
        long inner = objects != null ? 1 : dataType.size();
        for (int d = 1; d < shape.length; d++) {
            inner *= shape[d];
        }
        long[] s = shape.clone();
        s[0] = to - from;
        if (objects != null) {
            return new NdArray(dataType, s, objects, (int) (base + from * inner));
        }
        ByteBuffer view = data.slice((int) (from * inner), (int) ((to - from) * inner)).order(NATIVE);
        return new NdArray(dataType, s, view);
    }

    /** Sets every element to {@code value}. */
    public void fill(FillValue value) {
        if (objects != null) {
            Object element = objectOf(value);
            Arrays.fill(objects, base, base + (int) elementCount(), element);
            return;
        }
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
        if (objects != null) {
            return allEqual(objectOf(value), 0, (int) elementCount());
        }
        return value.fillsAll(data.duplicate());
    }

    /** The element a fill value of this variable-length type stands for. */
    Object objectOf(FillValue value) {
        byte[] v = value.bytes();
        return dataType.kind() == ElementKind.STRING ? decodeUtf8(v) : v;
    }

    /** Whether the {@code n} elements from flat index {@code from} all equal {@code element}. */
    boolean allEqual(Object element, int from, int n) {
        for (int i = base + from, end = base + from + n; i < end; i++) {
            if (!sameElement(objects[i], element)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameElement(Object a, Object b) {
        return a instanceof byte[] x ? b instanceof byte[] y && Arrays.equals(x, y) : a.equals(b);
    }

    /** The shared element storage of a variable-length array, for {@link RegionCopy}. */
    Object[] objects() {
        return objects;
    }

    /** Where a variable-length array's first element lies in {@link #objects()}. */
    int base() {
        return base;
    }

    private static String decodeUtf8(byte[] utf8) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(utf8)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("not valid UTF-8: " + HexFormat.of().formatHex(utf8, 0,
                    Math.min(utf8.length, 32)) + (utf8.length > 32 ? "..." : ""), e);
        }
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

    /** Same data type, shape and bytes (for a variable-length type, equal elements). */
    public boolean contentEquals(NdArray other) {
        if (other == null || !dataType.equals(other.dataType) || !Arrays.equals(shape, other.shape)) {
            return false;
        }
        if (objects != null) {
            int n = (int) elementCount();
            for (int i = 0; i < n; i++) {
                if (!sameElement(objects[base + i], other.objects[other.base + i])) {
                    return false;
                }
            }
            return true;
        }
        return data.duplicate().clear().equals(other.data.duplicate().clear());
    }

    // ---- element access ----
    //
    // Every accessor comes twice: with one long, the flat C-order index; with a long[] (or, for the
    // getters, none or two or more longs), one index per dimension. The index always comes first.

    /** The byte position of the element at a flat C-order index. */
    private int flatOffset(long index) {
        checkBytes("element access by number");
        return (int) (checkFlat(index) * dataType.size());
    }

    /** The flat index, checked to lie inside the array. */
    private long checkFlat(long index) {
        long n = elementCount();
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("flat index " + index + " outside an array of shape "
                    + Arrays.toString(shape) + " (" + n + " elements)");
        }
        return index;
    }

    /** The byte position of the element at an index of one entry per dimension. */
    private int offset(long[] index) {
        checkBytes("element access by number");
        return (int) (flatIndex(index) * dataType.size());
    }

    /**
     * The flat C-order index of an index of one entry per dimension ({@code flatIndex()} of a 0-d
     * array is 0).
     *
     * @throws IndexOutOfBoundsException when the index's rank is not the array's or an entry lies
     *                                   outside its dimension; the message names index and shape
     */
    public long flatIndex(long... index) {
        if (index.length != shape.length) {
            throw new IndexOutOfBoundsException("index " + Arrays.toString(index) + " of rank " + index.length
                    + " for an array of shape " + Arrays.toString(shape) + " (rank " + shape.length + ")");
        }
        long flat = 0;
        for (int d = 0; d < shape.length; d++) {
            if (index[d] < 0 || index[d] >= shape[d]) {
                throw new IndexOutOfBoundsException("index " + Arrays.toString(index) + " outside an array of shape "
                        + Arrays.toString(shape));
            }
            flat = flat * shape[d] + index[d];
        }
        return flat;
    }

    /**
     * An integer or boolean element as a long, by flat C-order index whatever the rank (numpy's
     * {@code item(i)}): signed types sign-extend, unsigned types zero-extend ({@code uint64} keeps
     * its bits: use {@link Long#toUnsignedString}).
     *
     * @throws IndexOutOfBoundsException when the index lies outside {@code [0, elementCount())}
     */
    public long getLong(long index) {
        return longAt(flatOffset(index));
    }

    /**
     * An integer or boolean element as a long, by one index per dimension: {@code a.getLong(3, 4)}
     * is row 3, column 4 of a 2-d array, {@code a.getLong()} the element of a 0-d array. Extension
     * as in {@link #getLong(long)}, which a single {@code long} index selects.
     *
     * @throws IndexOutOfBoundsException when the index's rank is not the array's or an entry lies
     *                                   outside its dimension
     */
    public long getLong(long... index) {
        return longAt(offset(index));
    }

    /**
     * Sets an integer or boolean element, by flat C-order index whatever the rank, from a long
     * (truncated to the element size).
     *
     * @throws IndexOutOfBoundsException when the index lies outside {@code [0, elementCount())}
     */
    public void setLong(long index, long value) {
        putLongAt(flatOffset(index), value);
    }

    /**
     * Sets an integer or boolean element, by one index per dimension, from a long (truncated to
     * the element size): {@code a.setLong(new long[] {3, 4}, 7)}.
     *
     * @throws IndexOutOfBoundsException when the index's rank is not the array's or an entry lies
     *                                   outside its dimension
     */
    public void setLong(long[] index, long value) {
        putLongAt(offset(index), value);
    }

    private long longAt(int o) {
        if (numeric != null) {
            if (numeric.components() != 1 || !numeric.isInteger()) {
                throw new UnsupportedOperationException("getLong on " + dataType.name());
            }
            return (long) numeric.get(data, o);
        }
        ElementKind k = dataType.kind();
        return switch (dataType.size()) {
            case 1 -> k == ElementKind.INT ? data.get(o) : data.get(o) & 0xffL;
            case 2 -> k == ElementKind.INT ? data.getShort(o) : data.getShort(o) & 0xffffL;
            case 4 -> k == ElementKind.INT ? data.getInt(o) : data.getInt(o) & 0xffffffffL;
            case 8 -> data.getLong(o);
            default -> throw new UnsupportedOperationException("getLong on " + dataType.name());
        };
    }

    private void putLongAt(int o, long value) {
        if (numeric != null) {
            if (numeric.components() != 1 || !numeric.isInteger()) {
                throw new UnsupportedOperationException("setLong on " + dataType.name());
            }
            numeric.set(data, o, value);
            return;
        }
        switch (dataType.size()) {
            case 1 -> data.put(o, (byte) value);
            case 2 -> data.putShort(o, (short) value);
            case 4 -> data.putInt(o, (int) value);
            case 8 -> data.putLong(o, value);
            default -> throw new UnsupportedOperationException("setLong on " + dataType.name());
        }
    }

    /**
     * A numeric element as a double (for complex types, the real part), by flat C-order index
     * whatever the rank (numpy's {@code item(i)}).
     *
     * @throws IndexOutOfBoundsException when the index lies outside {@code [0, elementCount())}
     */
    public double getDouble(long index) {
        return doubleAt(flatOffset(index));
    }

    /**
     * A numeric element as a double (for complex types, the real part), by one index per
     * dimension: {@code a.getDouble(3, 4)} is row 3, column 4 of a 2-d array, {@code a.getDouble()}
     * the element of a 0-d array. A single {@code long} index selects {@link #getDouble(long)}.
     *
     * @throws IndexOutOfBoundsException when the index's rank is not the array's or an entry lies
     *                                   outside its dimension
     */
    public double getDouble(long... index) {
        return doubleAt(offset(index));
    }

    /**
     * Sets a numeric element, by flat C-order index whatever the rank, from a double (rounded to
     * floats, truncated to integers).
     *
     * @throws IndexOutOfBoundsException when the index lies outside {@code [0, elementCount())}
     */
    public void setDouble(long index, double value) {
        putDoubleAt(flatOffset(index), value);
    }

    /**
     * Sets a numeric element, by one index per dimension, from a double (rounded to floats,
     * truncated to integers): {@code a.setDouble(new long[] {3, 4}, 2.5)}.
     *
     * @throws IndexOutOfBoundsException when the index's rank is not the array's or an entry lies
     *                                   outside its dimension
     */
    public void setDouble(long[] index, double value) {
        putDoubleAt(offset(index), value);
    }

    private double doubleAt(int o) {
        if (numeric != null) {
            return numeric.get(data, o);
        }
        return switch (dataType.kind()) {
            case FLOAT -> switch (dataType.size()) {
                case 2 -> Float16.toFloat(data.getShort(o));
                case 4 -> data.getFloat(o);
                default -> data.getDouble(o);
            };
            case COMPLEX -> dataType.size() == 8 ? data.getFloat(o) : data.getDouble(o);
            case UINT -> {
                long v = longAt(o);
                yield v >= 0 ? (double) v : Double.parseDouble(Long.toUnsignedString(v));
            }
            case INT, BOOL -> longAt(o);
            default -> throw new UnsupportedOperationException("getDouble on " + dataType.name());
        };
    }

    private void putDoubleAt(int o, double value) {
        if (numeric != null) {
            if (numeric.components() != 1) {
                throw new UnsupportedOperationException("setDouble on " + dataType.name() + " (complex: use copyFrom)");
            }
            numeric.set(data, o, value);
            return;
        }
        switch (dataType.kind()) {
            case FLOAT -> {
                switch (dataType.size()) {
                    case 2 -> data.putShort(o, Float16.fromFloat(toFloatRoundToOdd(value)));
                    case 4 -> data.putFloat(o, (float) value);
                    default -> data.putDouble(o, value);
                }
            }
            case UINT -> putLongAt(o, value >= 0x1p63 ? (long) (value - 0x1p63) ^ Long.MIN_VALUE : (long) value);
            case INT, BOOL -> putLongAt(o, (long) value);
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

    /**
     * A {@code bool} element, by flat C-order index whatever the rank.
     *
     * @throws IndexOutOfBoundsException when the index lies outside {@code [0, elementCount())}
     */
    public boolean getBoolean(long index) {
        return data.get(flatOffset(index)) != 0;
    }

    /**
     * A {@code bool} element, by one index per dimension ({@code a.getBoolean()} on a 0-d array).
     * A single {@code long} index selects {@link #getBoolean(long)}.
     *
     * @throws IndexOutOfBoundsException when the index's rank is not the array's or an entry lies
     *                                   outside its dimension
     */
    public boolean getBoolean(long... index) {
        return data.get(offset(index)) != 0;
    }

    /**
     * Sets a {@code bool} element, by flat C-order index whatever the rank.
     *
     * @throws IndexOutOfBoundsException when the index lies outside {@code [0, elementCount())}
     */
    public void setBoolean(long index, boolean value) {
        data.put(flatOffset(index), (byte) (value ? 1 : 0));
    }

    /**
     * Sets a {@code bool} element, by one index per dimension.
     *
     * @throws IndexOutOfBoundsException when the index's rank is not the array's or an entry lies
     *                                   outside its dimension
     */
    public void setBoolean(long[] index, boolean value) {
        data.put(offset(index), (byte) (value ? 1 : 0));
    }

    /**
     * A {@code string} element, by flat C-order index whatever the rank.
     *
     * @throws UnsupportedOperationException when the data type is not of kind {@link ElementKind#STRING}
     * @throws IndexOutOfBoundsException     when the index lies outside {@code [0, elementCount())}
     */
    public String getString(long index) {
        return (String) objectAt(checkFlat(index), ElementKind.STRING, "getString");
    }

    /**
     * A {@code string} element, by one index per dimension. A single {@code long} index selects
     * {@link #getString(long)}.
     *
     * @throws UnsupportedOperationException when the data type is not of kind {@link ElementKind#STRING}
     * @throws IndexOutOfBoundsException     when the index's rank is not the array's or an entry lies
     *                                       outside its dimension
     */
    public String getString(long... index) {
        return (String) objectAt(flatIndex(index), ElementKind.STRING, "getString");
    }

    /**
     * Sets a {@code string} element, by flat C-order index whatever the rank.
     *
     * @throws UnsupportedOperationException when the data type is not of kind {@link ElementKind#STRING}
     * @throws IllegalArgumentException      when the value is null
     */
    public void setString(long index, String value) {
        putObject(checkFlat(index), ElementKind.STRING, "setString", requireElement(value));
    }

    /**
     * Sets a {@code string} element, by one index per dimension.
     *
     * @throws UnsupportedOperationException when the data type is not of kind {@link ElementKind#STRING}
     * @throws IllegalArgumentException      when the value is null
     */
    public void setString(long[] index, String value) {
        putObject(flatIndex(index), ElementKind.STRING, "setString", requireElement(value));
    }

    /**
     * An element's bytes as a new array, by flat C-order index whatever the rank: a {@code bytes}
     * element's value, a {@code string} element's UTF-8 encoding, or a fixed-size element's bytes
     * in native byte order.
     *
     * @throws IndexOutOfBoundsException when the index lies outside {@code [0, elementCount())}
     */
    public byte[] getBytes(long index) {
        return bytesAt(checkFlat(index));
    }

    /**
     * An element's bytes as a new array (see {@link #getBytes(long)}), by one index per
     * dimension.
     *
     * @throws IndexOutOfBoundsException when the index's rank is not the array's or an entry lies
     *                                   outside its dimension
     */
    public byte[] getBytes(long... index) {
        return bytesAt(flatIndex(index));
    }

    /**
     * Sets an element from its bytes (copied), by flat C-order index whatever the rank: a
     * {@code bytes} element's value, a {@code string} element's UTF-8 encoding, or a fixed-size
     * element's bytes in native byte order.
     *
     * @throws IllegalArgumentException when a string's bytes are not UTF-8, or a fixed-size
     *                                  element's are not {@link DataType#size()} long
     */
    public void setBytes(long index, byte[] value) {
        putBytes(checkFlat(index), value);
    }

    /**
     * Sets an element from its bytes (see {@link #setBytes(long, byte[])}), by one index per
     * dimension.
     *
     * @throws IllegalArgumentException when a string's bytes are not UTF-8, or a fixed-size
     *                                  element's are not {@link DataType#size()} long
     */
    public void setBytes(long[] index, byte[] value) {
        putBytes(flatIndex(index), value);
    }

    private Object objectAt(long flat, ElementKind kind, String what) {
        if (dataType.kind() != kind) {
            throw new UnsupportedOperationException(what + " on " + dataType.name());
        }
        return objects[base + (int) flat];
    }

    private void putObject(long flat, ElementKind kind, String what, Object value) {
        if (dataType.kind() != kind) {
            throw new UnsupportedOperationException(what + " on " + dataType.name());
        }
        objects[base + (int) flat] = value;
    }

    private static <T> T requireElement(T value) {
        if (value == null) {
            throw new IllegalArgumentException("a variable-length element cannot be null");
        }
        return value;
    }

    private byte[] bytesAt(long flat) {
        if (objects == null) {
            byte[] out = new byte[dataType.size()];
            data.get((int) (flat * dataType.size()), out);
            return out;
        }
        Object e = objects[base + (int) flat];
        return e instanceof String t ? t.getBytes(StandardCharsets.UTF_8) : ((byte[]) e).clone();
    }

    private void putBytes(long flat, byte[] value) {
        requireElement(value);
        if (objects == null) {
            if (value.length != dataType.size()) {
                throw new IllegalArgumentException("a " + dataType.name() + " element has " + dataType.size()
                        + " bytes, not " + value.length);
            }
            data.put((int) (flat * dataType.size()), value);
            return;
        }
        objects[base + (int) flat] = dataType.kind() == ElementKind.STRING ? decodeUtf8(value) : value.clone();
    }

    // ---- bulk copies to and from Java arrays ----
    //
    // One overload per primitive array type, so that anything else fails to compile; whether the
    // array type is the data type's is checked at run time (checkJavaArray).

    /** The Java array type that bulk copies use for this array's data type. */
    public Class<?> javaArrayType() {
        if (dataType.kind() == ElementKind.STRING) {
            return String[].class;
        } else if (dataType.kind() == ElementKind.BYTES) {
            return byte[][].class;
        }
        if (numeric != null) {
            return numeric.isInteger() ? byte[].class : float[].class;
        }
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
        if (objects != null) {
            return (int) n;
        } else if (numeric != null) {
            n *= numeric.components();
        } else if (dataType.kind() == ElementKind.COMPLEX) {
            n *= 2;
        } else if (javaArrayType() == byte[].class) {
            n = byteSize();
        }
        return (int) n;
    }

    /**
     * The length a Java array of {@code type} needs to hold the elements.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type
     */
    private int javaLength(Class<?> type) {
        if (type != javaArrayType()) {
            throw new IllegalArgumentException("a " + dataType.name() + " array copies to and from "
                    + javaArrayType().getSimpleName() + ", not " + type.getSimpleName());
        }
        return javaLength();
    }

    private void checkJavaArray(Class<?> type, int length) {
        if (length != javaLength(type)) {
            throw new IllegalArgumentException("a " + dataType.name() + " array of shape " + Arrays.toString(shape)
                    + " needs a " + type.getSimpleName() + " of length " + javaLength() + ", got " + length);
        }
    }

    /**
     * A new Java array of {@link #javaArrayType()} holding a copy of the elements, for code that
     * handles every data type; code that knows its type calls {@link #toFloatArray()} and the like.
     */
    public Object toJavaArray() {
        Class<?> type = javaArrayType();
        if (type == boolean[].class) {
            return toBooleanArray();
        } else if (type == short[].class) {
            return toShortArray();
        } else if (type == int[].class) {
            return toIntArray();
        } else if (type == long[].class) {
            return toLongArray();
        } else if (type == float[].class) {
            return toFloatArray();
        } else if (type == double[].class) {
            return toDoubleArray();
        } else if (type == String[].class) {
            return toStringArray();
        } else if (type == byte[][].class) {
            return toBytesArray();
        }
        byte[] out = new byte[javaLength()];
        copyTo(out);
        return out;
    }

    /** A {@code bool} array's elements as a new {@code boolean[]}. */
    public boolean[] toBooleanArray() {
        boolean[] out = new boolean[javaLength(boolean[].class)];
        copyTo(out);
        return out;
    }

    /** A 2-byte integer array's elements as a new {@code short[]}. */
    public short[] toShortArray() {
        short[] out = new short[javaLength(short[].class)];
        copyTo(out);
        return out;
    }

    /** A 4-byte integer array's elements as a new {@code int[]}. */
    public int[] toIntArray() {
        int[] out = new int[javaLength(int[].class)];
        copyTo(out);
        return out;
    }

    /** An 8-byte integer array's elements as a new {@code long[]}. */
    public long[] toLongArray() {
        long[] out = new long[javaLength(long[].class)];
        copyTo(out);
        return out;
    }

    /** A float32 or float16 array's elements (or complex64's, interleaved) as a new {@code float[]}. */
    public float[] toFloatArray() {
        float[] out = new float[javaLength(float[].class)];
        copyTo(out);
        return out;
    }

    /** A float64 array's elements (or complex128's, interleaved) as a new {@code double[]}. */
    public double[] toDoubleArray() {
        double[] out = new double[javaLength(double[].class)];
        copyTo(out);
        return out;
    }

    /**
     * A copy of the raw bytes (native byte order), whatever the data type: for 1-byte integer,
     * raw and other types, the elements as {@link #copyTo(byte[])} gives them.
     */
    public byte[] toByteArray() {
        checkBytes("toByteArray()");
        byte[] out = new byte[byteSize()];
        bytes().get(out);
        return out;
    }

    /**
     * Copies the elements of a {@code bool} array into {@code dst}, one per element.
     *
     * @throws IllegalArgumentException when the data type is not {@code bool} or the length differs
     */
    public void copyTo(boolean[] dst) {
        checkJavaArray(boolean[].class, dst.length);
        ByteBuffer b = bytes();
        for (int i = 0; i < dst.length; i++) {
            dst[i] = b.get(i) != 0;
        }
    }

    /**
     * Copies the elements of a 1-byte integer array, or the bytes of a raw or other type, into
     * {@code dst}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyTo(byte[] dst) {
        checkJavaArray(byte[].class, dst.length);
        if (numeric != null) {
            int step = dataType.size() / numeric.components();
            for (int i = 0; i < dst.length; i++) {
                dst[i] = (byte) numeric.get(data, i * step);
            }
            return;
        }
        bytes().get(dst);
    }

    /**
     * Copies the elements of a 2-byte integer array into {@code dst}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyTo(short[] dst) {
        checkJavaArray(short[].class, dst.length);
        bytes().asShortBuffer().get(dst);
    }

    /**
     * Copies the elements of a 4-byte integer array into {@code dst}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyTo(int[] dst) {
        checkJavaArray(int[].class, dst.length);
        bytes().asIntBuffer().get(dst);
    }

    /**
     * Copies the elements of an 8-byte integer array into {@code dst}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyTo(long[] dst) {
        checkJavaArray(long[].class, dst.length);
        bytes().asLongBuffer().get(dst);
    }

    /**
     * Copies the elements of a float16 or float32 array (complex64: real and imaginary parts,
     * interleaved) into {@code dst}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyTo(float[] dst) {
        checkJavaArray(float[].class, dst.length);
        ByteBuffer b = bytes();
        if (numeric != null) {
            int step = dataType.size() / numeric.components();
            for (int i = 0; i < dst.length; i++) {
                dst[i] = (float) numeric.get(data, i * step);
            }
        } else if (dataType.size() == 2) {
            for (int i = 0; i < dst.length; i++) {
                dst[i] = Float16.toFloat(b.getShort(2 * i));
            }
        } else {
            b.asFloatBuffer().get(dst);
        }
    }

    /**
     * Copies the elements of a float64 array (complex128: real and imaginary parts, interleaved)
     * into {@code dst}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyTo(double[] dst) {
        checkJavaArray(double[].class, dst.length);
        bytes().asDoubleBuffer().get(dst);
    }

    /**
     * Sets the elements of a {@code bool} array from {@code src}, one per element.
     *
     * @throws IllegalArgumentException when the data type is not {@code bool} or the length differs
     */
    public void copyFrom(boolean[] src) {
        checkJavaArray(boolean[].class, src.length);
        ByteBuffer b = bytes();
        for (int i = 0; i < src.length; i++) {
            b.put(i, (byte) (src[i] ? 1 : 0));
        }
    }

    /**
     * Sets the elements of a 1-byte integer array, or the bytes of a raw or other type, from
     * {@code src}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyFrom(byte[] src) {
        checkJavaArray(byte[].class, src.length);
        if (numeric != null) {
            int step = dataType.size() / numeric.components();
            for (int i = 0; i < src.length; i++) {
                numeric.set(data, i * step, src[i]);
            }
            return;
        }
        bytes().put(src);
    }

    /**
     * Sets the elements of a 2-byte integer array from {@code src}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyFrom(short[] src) {
        checkJavaArray(short[].class, src.length);
        bytes().asShortBuffer().put(src);
    }

    /**
     * Sets the elements of a 4-byte integer array from {@code src}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyFrom(int[] src) {
        checkJavaArray(int[].class, src.length);
        bytes().asIntBuffer().put(src);
    }

    /**
     * Sets the elements of an 8-byte integer array from {@code src}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyFrom(long[] src) {
        checkJavaArray(long[].class, src.length);
        bytes().asLongBuffer().put(src);
    }

    /**
     * Sets the elements of a float16 (rounded) or float32 array (complex64: real and imaginary
     * parts, interleaved) from {@code src}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyFrom(float[] src) {
        checkJavaArray(float[].class, src.length);
        ByteBuffer b = bytes();
        if (numeric != null) {
            int step = dataType.size() / numeric.components();
            for (int i = 0; i < src.length; i++) {
                numeric.set(data, i * step, src[i]);
            }
        } else if (dataType.size() == 2) {
            for (int i = 0; i < src.length; i++) {
                b.putShort(2 * i, Float16.fromFloat(src[i]));
            }
        } else {
            b.asFloatBuffer().put(src);
        }
    }

    /**
     * Sets the elements of a float64 array (complex128: real and imaginary parts, interleaved)
     * from {@code src}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type or the
     *                                  length differs
     */
    public void copyFrom(double[] src) {
        checkJavaArray(double[].class, src.length);
        bytes().asDoubleBuffer().put(src);
    }

    /** A {@code string} array's elements as a new {@code String[]}. */
    public String[] toStringArray() {
        String[] out = new String[javaLength(String[].class)];
        copyTo(out);
        return out;
    }

    /** A variable-length {@code bytes} array's elements as a new {@code byte[][]} of copies. */
    public byte[][] toBytesArray() {
        byte[][] out = new byte[javaLength(byte[][].class)][];
        copyTo(out);
        return out;
    }

    /**
     * Copies the elements of a {@code string} array into {@code dst}, one per element.
     *
     * @throws IllegalArgumentException when the data type is not of kind {@link ElementKind#STRING}
     *                                  or the length differs
     */
    public void copyTo(String[] dst) {
        checkJavaArray(String[].class, dst.length);
        System.arraycopy(objects, base, dst, 0, dst.length);
    }

    /**
     * Copies the elements of a variable-length {@code bytes} array into {@code dst}, one new
     * {@code byte[]} per element.
     *
     * @throws IllegalArgumentException when the data type is not of kind {@link ElementKind#BYTES}
     *                                  or the length differs
     */
    public void copyTo(byte[][] dst) {
        checkJavaArray(byte[][].class, dst.length);
        for (int i = 0; i < dst.length; i++) {
            dst[i] = ((byte[]) objects[base + i]).clone();
        }
    }

    /**
     * Sets the elements of a {@code string} array from {@code src}, one per element.
     *
     * @throws IllegalArgumentException when the data type is not of kind {@link ElementKind#STRING},
     *                                  the length differs, or an element is null (then nothing is set)
     */
    public void copyFrom(String[] src) {
        checkJavaArray(String[].class, src.length);
        for (int i = 0; i < src.length; i++) {
            if (src[i] == null) {
                throw new IllegalArgumentException("element " + i + " is null; a string element cannot be");
            }
        }
        System.arraycopy(src, 0, objects, base, src.length);
    }

    /**
     * Sets the elements of a variable-length {@code bytes} array from copies of {@code src}.
     *
     * @throws IllegalArgumentException when the data type is not of kind {@link ElementKind#BYTES},
     *                                  the length differs, or an element is null (then nothing is set)
     */
    public void copyFrom(byte[][] src) {
        checkJavaArray(byte[][].class, src.length);
        for (int i = 0; i < src.length; i++) {
            if (src[i] == null) {
                throw new IllegalArgumentException("element " + i + " is null; a bytes element cannot be");
            }
        }
        for (int i = 0; i < src.length; i++) {
            objects[base + i] = src[i].clone();
        }
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
