package dev.zarrj.ext.optional;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * zarrs' {@code optional} data type: each element is either missing or a value of an inner data
 * type, which may itself be {@code optional} ({@code optional<optional<uint8>>} tells "missing"
 * from "present, but its value missing").
 *
 * <p>Metadata (zarrs 0.23 writes the name {@code "zarrs.optional"}, earlier versions
 * {@code "optional"}; zarrj reads both and writes the name it read):
 * <pre>{@code
 * "data_type": {"name": "zarrs.optional", "configuration": {"name": "uint8", "configuration": {}}}
 * }</pre>
 * The fill value is {@code null} (missing) or a one-element array holding the inner type's fill
 * value: {@code [42]} is "present, 42", and for nested types {@code [null]} is "present, inner
 * missing", {@code [[42]]} "present, present, 42".
 *
 * <p>In memory an element is the inner element's bytes followed by one mask byte, 1 when present
 * and 0 when missing: {@link #size()} is the inner size + 1 ({@code optional<optional<uint8>>}
 * takes 3 bytes: value, inner mask, outer mask). A missing element's inner bytes are all zero, so
 * that equal values have equal bytes; the {@code optional} codec decodes every element in this
 * canonical form. Its {@link #kind()} is {@code OTHER}: use the static helpers here
 * ({@link #isPresent}, {@link #missingMask}, {@link #innerValues}, {@link #fromValues},
 * {@link #toJson(NdArray, long)}) rather than the number accessors of {@link NdArray}.
 *
 * <p>Chunks of it are stored with the {@code optional} codec ({@link OptionalConfiguration}):
 * the {@code bytes} codec would accept it and store zarrj's in-memory layout, which no other
 * implementation reads. Inner types must have fixed-size elements: {@code optional<string>},
 * which zarrs also writes, is refused when the array is opened.
 *
 * <p>Immutable and thread-safe; equal when they write the same metadata.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class OptionalType implements DataType {
    /** The name zarrs 0.23 reads and writes, which zarrj writes for types made with {@link #of(DataType)}. */
    public static final String NAME = "zarrs.optional";

    /** The name earlier zarrs versions wrote (the zarrs test data use it). */
    public static final String LEGACY_NAME = "optional";

    /** Every name this type is read under. */
    public static final Set<String> NAMES = Set.of(NAME, LEGACY_NAME);

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** The kinds whose elements have a fixed size, which an optional element's layout needs. */
    private static final Set<ElementKind> FIXED_SIZE = EnumSet.of(ElementKind.BOOL, ElementKind.INT, ElementKind.UINT,
            ElementKind.FLOAT, ElementKind.COMPLEX, ElementKind.RAW, ElementKind.OTHER);

    private final String name;
    private final DataType inner;

    private OptionalType(String name, DataType inner) {
        this.name = name;
        this.inner = inner;
    }

    /** The optional type of {@code inner}, named {@value #NAME}. */
    public static OptionalType of(DataType inner) {
        return of(NAME, inner);
    }

    /**
     * Whether {@code inner} can be wrapped: its elements have a fixed size. Variable-length types
     * (text, byte strings) cannot, yet.
     */
    public static boolean supports(DataType inner) {
        return FIXED_SIZE.contains(inner.kind());
    }

    /**
     * The optional type of {@code inner} under one of {@link #NAMES}.
     *
     * @throws IllegalArgumentException when the name is not one of them, the inner type's elements
     *                                  are not of a fixed size (see {@link #supports}), or with the
     *                                  mask byte would exceed 2^31 - 1 bytes
     */
    public static OptionalType of(String name, DataType inner) {
        Objects.requireNonNull(inner, "inner");
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("an optional type is named one of " + NAMES + ", not '" + name + "'");
        }
        if (!supports(inner)) {
            throw new IllegalArgumentException(unsupported(inner));
        }
        if (inner.size() < 1 || inner.size() == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the inner type " + inner.name() + " has elements of " + inner.size()
                    + " bytes; optional needs 1 to 2^31 - 2");
        }
        return new OptionalType(name, inner);
    }

    /** Why {@code inner} cannot be wrapped, for messages. */
    public static String unsupported(DataType inner) {
        return "zarrj's optional type wraps data types of fixed-size elements; " + inner.name() + " has elements of "
                + "kind " + inner.kind() + ", which vary in size (zarrs' optional<string> is not supported yet)";
    }

    /** The type of the present values (another {@code OptionalType} for nested types). */
    public DataType inner() {
        return inner;
    }

    /** The value that stands for a missing element (all bytes zero). */
    public FillValue missing() {
        return FillValue.ofBytes(new byte[size()]);
    }

    /**
     * The present element holding {@code value}.
     *
     * @throws IllegalArgumentException when {@code value} is not of the inner type's size
     */
    public FillValue present(FillValue value) {
        if (value.size() != inner.size()) {
            throw new IllegalArgumentException("a value of " + inner.name() + " has " + inner.size() + " bytes, not "
                    + value.size());
        }
        byte[] b = Arrays.copyOf(value.bytes(), size());
        b[size() - 1] = 1;
        return FillValue.ofBytes(b);
    }

    // ---- DataType ----

    @Override
    public String name() {
        return name;
    }

    /** {@code {"name": <inner name>, "configuration": <inner configuration>}}, both always written, as zarrs requires. */
    @Override
    public ObjectNode configuration() {
        ObjectNode c = F.objectNode();
        c.put("name", inner.name());
        c.set("configuration", inner.configuration());
        return c;
    }

    /** The inner element's size and one mask byte. */
    @Override
    public int size() {
        return inner.size() + 1;
    }

    /** 1: the {@code optional} codec orders the inner values' bytes through its own chain. */
    @Override
    public int byteOrderUnit() {
        return 1;
    }

    /** {@code OTHER}. */
    @Override
    public ElementKind kind() {
        return ElementKind.OTHER;
    }

    /**
     * zarrs' chain ({@link OptionalConfiguration#zarrsDefault}): the {@code optional} codec,
     * {@code packbits} masks, little-endian {@code bytes} values. The element's in-memory layout
     * (value, then a mask byte) is zarrj's own, so {@code bytes} must not store it.
     */
    @Override
    public Optional<ObjectNode> arrayToBytesCodec() {
        return Optional.of(OptionalConfiguration.zarrsDefault(this).toJson());
    }

    /**
     * {@code null} (missing) or {@code [v]} with {@code v} a fill value of the inner type.
     *
     * @throws InvalidMetadataException for any other form, naming it
     */
    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        if (json == null || json.isNull()) {
            return missing();
        }
        if (!json.isArray() || json.size() != 1) {
            String s = String.valueOf(json);
            throw new InvalidMetadataException(pointer, "the " + name + " fill value must be null (missing) or an array"
                    + " of one " + inner.name() + " fill value ([v] for a present v, as zarrs writes it); found "
                    + (s.length() <= 80 ? s : s.substring(0, 77) + "..."));
        }
        FillValue v = inner.parseFillValue(json.get(0), pointer + "/0");
        return present(v);
    }

    /** {@code null} for a missing element, {@code [v]} for a present one (zarrs' metadata form). */
    @Override
    public JsonNode fillValueToJson(FillValue value) {
        if (value.size() != size()) {
            throw new IllegalArgumentException("a " + name + " fill value has " + size() + " bytes, not " + value.size());
        }
        byte[] b = value.bytes();
        if (b[b.length - 1] == 0) {
            return F.nullNode();
        }
        return F.arrayNode().add(inner.fillValueToJson(FillValue.ofBytes(Arrays.copyOf(b, inner.size()))));
    }

    /** Missing. */
    @Override
    public FillValue defaultFillValue() {
        return missing();
    }

    // ---- typed access ----

    private static OptionalType typeOf(NdArray a) {
        if (a.dataType() instanceof OptionalType t) {
            return t;
        }
        throw new IllegalArgumentException("an array of " + a.dataType().name() + ", not of an optional type");
    }

    /**
     * Whether the element at a flat C-order index is present (its outer mask byte is not zero).
     *
     * @throws IllegalArgumentException  when the array's type is not an {@code OptionalType}
     * @throws IndexOutOfBoundsException when the index is outside the array
     */
    public static boolean isPresent(NdArray a, long index) {
        OptionalType t = typeOf(a);
        checkIndex(a, index);
        return a.bytes().get((int) (index * t.size() + t.size() - 1)) != 0;
    }

    /**
     * One flag per element in C order, true where the element is missing.
     *
     * @throws IllegalArgumentException when the array's type is not an {@code OptionalType}
     */
    public static boolean[] missingMask(NdArray a) {
        OptionalType t = typeOf(a);
        int size = t.size();
        ByteBuffer b = a.bytes();
        boolean[] out = new boolean[Math.toIntExact(a.elementCount())];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.get(i * size + size - 1) == 0;
        }
        return out;
    }

    /**
     * A new array of the inner type and the same shape holding each element's value; a missing
     * element's value is all zero bytes (0, or missing for a nested optional).
     *
     * @throws IllegalArgumentException when the array's type is not an {@code OptionalType}
     */
    public static NdArray innerValues(NdArray a) {
        OptionalType t = typeOf(a);
        int size = t.size();
        int innerSize = size - 1;
        NdArray out = NdArray.allocate(t.inner, a.shape());
        ByteBuffer src = a.bytes();
        ByteBuffer dst = out.bytes();
        long n = a.elementCount();
        for (int i = 0; i < n; i++) {
            if (src.get(i * size + innerSize) != 0) {
                dst.put(i * innerSize, src, i * size, innerSize);
            }
        }
        return out;
    }

    /**
     * A new array of {@code type} from values of its inner type and a mask: element {@code i} is
     * missing where {@code missing[i]}, else {@code values}' element {@code i}.
     *
     * @throws IllegalArgumentException when {@code values} is not of {@code type.inner()} or the
     *                                  mask's length is not its element count
     */
    public static NdArray fromValues(OptionalType type, NdArray values, boolean[] missing) {
        if (!values.dataType().equals(type.inner)) {
            throw new IllegalArgumentException("values of " + values.dataType().name() + " for " + type.name + "<"
                    + type.inner.name() + ">");
        }
        if (missing.length != values.elementCount()) {
            throw new IllegalArgumentException("a mask of " + missing.length + " flags for " + values.elementCount()
                    + " values");
        }
        int size = type.size();
        int innerSize = size - 1;
        NdArray out = NdArray.allocate(type, values.shape());
        ByteBuffer src = values.bytes();
        ByteBuffer dst = out.bytes();
        for (int i = 0; i < missing.length; i++) {
            if (!missing[i]) {
                dst.put(i * size, src, i * innerSize, innerSize);
                dst.put(i * size + innerSize, (byte) 1);
            }
        }
        return out;
    }

    /**
     * One element as plain JSON, as the CLI prints it and test manifests write it: {@code null}
     * when missing; when a nested level is missing, {@code null} inside one array per present
     * level above it ({@code [null]} for "present, inner missing"); otherwise the innermost value
     * in its type's fill-value JSON form ({@code 5}, not zarrs' metadata form {@code [5]}).
     *
     * @throws IllegalArgumentException  when the array's type is not an {@code OptionalType}
     * @throws IndexOutOfBoundsException when the index is outside the array
     */
    public static JsonNode toJson(NdArray a, long index) {
        OptionalType t = typeOf(a);
        checkIndex(a, index);
        byte[] element = new byte[t.size()];
        a.bytes().get((int) (index * t.size()), element);
        return t.toJson(element);
    }

    /** {@link #toJson(NdArray, long)} of one element's bytes (native byte order, this type's size). */
    public JsonNode toJson(byte[] element) {
        if (element.length != size()) {
            throw new IllegalArgumentException("a " + name + " element has " + size() + " bytes, not " + element.length);
        }
        DataType level = this;
        int depth = 0;
        int end = element.length;
        while (level instanceof OptionalType o) {
            if (element[end - 1] == 0) {
                JsonNode out = F.nullNode();
                for (int d = 0; d < depth; d++) {
                    out = F.arrayNode().add(out);
                }
                return out;
            }
            end--;
            depth++;
            level = o.inner;
        }
        return level.fillValueToJson(FillValue.ofBytes(Arrays.copyOf(element, end)));
    }

    private static void checkIndex(NdArray a, long index) {
        if (index < 0 || index >= a.elementCount()) {
            throw new IndexOutOfBoundsException("flat index " + index + " outside an array of shape "
                    + Arrays.toString(a.shape()));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OptionalType t && name.equals(t.name) && inner.equals(t.inner);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, inner);
    }

    /** {@code zarrs.optional<uint8>}. */
    @Override
    public String toString() {
        return name + "<" + (inner instanceof OptionalType ? inner.toString() : inner.name()) + ">";
    }
}
