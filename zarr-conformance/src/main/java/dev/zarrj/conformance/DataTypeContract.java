package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import static dev.zarrj.conformance.internal.extension.Extensions.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.conformance.internal.extension.Extensions;
import dev.zarrj.conformance.internal.extension.Instances;
import dev.zarrj.conformance.internal.rules.Rule;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract of a data type (data-types.rst): its size and byte-order unit, the JSON forms of
 * its fill value, and its metadata form.
 *
 * <p>A data type's own test extends this class and hands it the provider; the types under test
 * are created from {@link #configurations()} (by default the provider's
 * {@linkplain dev.zarrj.api.ExtensionProvider#exampleConfigurations() example configurations}).
 * For a type whose {@link DataType#kind()} is one of the spec's kinds ({@code BOOL}, {@code INT},
 * {@code UINT}, {@code FLOAT}, {@code COMPLEX}, {@code RAW}) the kit already knows the spec's
 * fill-value forms — numbers, {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}, hex bit
 * patterns, complex pairs, byte arrays — and the forms the spec forbids. It knows them too for the
 * variable-length kinds {@code STRING} (JSON strings, held as their UTF-8; a lone surrogate is
 * forbidden) and {@code BYTES} (base64 text or integer arrays, held as the byte string), and for
 * zarr-extensions' {@code fixed_length_utf32} by name (JSON strings of at most
 * {@code length_bytes / 4} code points, held as 4-byte code units in native order, zeros after).
 * Override
 * {@link #validFillValues}, {@link #invalidFillValues} and {@link #fillValueExamples} to add to
 * them, or to supply them for an {@code OTHER} type:
 *
 * <pre>{@code
 * class BFloat16DataTypeConformanceTest extends DataTypeContract {
 *     @Override protected DataTypeProvider provider() { return new BFloat16DataTypeProvider(); }
 * }
 * }</pre>
 *
 * <p>A type of kind {@code OTHER} that offers a {@link DataType#numericEncoding()} is also checked
 * over every bit pattern of its components, and for rounding to nearest (optional rule DT07).
 *
 * <p>Every rule is one test named {@code required_DT<NN>_...} (or {@code optional_DT<NN>_...}); a
 * failure message starts with the rule id. Rules are listed in {@code rules/stores-and-metadata.md}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class DataTypeContract {
    private static final String SPEC = " (spec: data-types.rst)";
    private static final String FILL_SPEC = " (spec: data-types.rst 'Permitted fill values')";
    private static final String POINTER = "/fill_value";
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final Instances<DataType> types =
            new Instances<>(getClass(), "data type", this::provider, this::configurations, DataType::name);

    /** The provider under test. */
    protected abstract DataTypeProvider provider();

    /**
     * The configurations to create data types from, each with the name to create (for a family
     * such as {@code r*}, a member's name like {@code r24}). By default the provider's example
     * configurations under its name, or its name alone.
     */
    protected List<ExtensionConfig> configurations() {
        return Extensions.defaultConfigurations(provider(), "/data_type");
    }

    /** A fill value's JSON form and the element bytes (native byte order) it stands for. */
    public record FillValueExample(JsonNode json, byte[] nativeBytes) {
        public FillValueExample {
            nativeBytes = nativeBytes.clone();
        }

        @Override
        public byte[] nativeBytes() {
            return nativeBytes.clone();
        }
    }

    /**
     * Fill-value JSON forms the type must accept and round trip. By default the spec's forms for the
     * type's kind; empty for {@code OTHER}.
     */
    protected List<JsonNode> validFillValues(DataType type) {
        List<JsonNode> out = new ArrayList<>();
        for (FillValueExample e : fillValueExamples(type)) {
            out.add(e.json());
        }
        switch (type.kind()) {
            case FLOAT -> {
                out.add(json("1e300"));
                out.add(json("-1e-300"));
                out.add(json("0.1"));
            }
            case COMPLEX -> out.add(json("[0.1, -1e300]"));
            default -> { }
        }
        return out;
    }

    /**
     * Fill-value JSON forms the type must reject. By default the forms the spec does not permit for
     * the type's kind; empty for {@code OTHER}.
     */
    protected List<JsonNode> invalidFillValues(DataType type) {
        int size = type.size();
        List<String> forms = switch (type.kind()) {
            // 0 and 1 are left out: older writers stored them, and a reader may accept them as legacy forms.
            case BOOL -> List.of("2", "-1", "0.0", "\"true\"", "null", "[true]", "{}");
            case INT -> List.of(integerMax(type).add(BigInteger.ONE).toString(),
                    integerMin(type).subtract(BigInteger.ONE).toString(), "1.5", "1.0", "1e2", "\"1\"", "true",
                    "null", "[1]");
            case UINT -> List.of("-1", integerMax(type).add(BigInteger.ONE).toString(), "1.5", "1.0", "1e2", "\"1\"",
                    "true", "null");
            case FLOAT -> List.of("\"nan\"", "\"inf\"", "\"+Infinity\"", "\"1.5\"", "\"0x\"", "\"0xZZ\"",
                    "\"0x1" + "0".repeat(2 * size) + "\"", "true", "null", "[1.0]", "{}");
            case COMPLEX -> List.of("1", "\"NaN\"", "[1]", "[1, 2, 3]", "[\"x\", 0]", "[true, 0]", "[0, null]",
                    "null", "{}");
            case RAW -> List.of(rawArray(size + 1, 0), size > 1 ? rawArray(size - 1, 0) : "[]",
                    rawArrayWith(size, "256"), rawArrayWith(size, "-1"), rawArrayWith(size, "1.5"),
                    "\"0x" + "00".repeat(size) + "\"", "true", "null");
            case STRING -> List.of("0", "1.5", "true", "null", "[]", "[\"a\"]", "[104, 105]", "{}",
                    "\"\\ud800\"", "\"a\\udc00b\"");
            case BYTES -> List.of("\"A\"", "\"@@@@\"", "\"not base64!\"", "[256]", "[-1]", "[1.5]", "[\"a\"]",
                    "[[1]]", "[true]", "[0, null]", "0", "true", "null", "{}");
            default -> isFixedLengthUtf32(type) ? List.of("\"" + "x".repeat(size / 4 + 1) + "\"",
                    "\"" + "\\ud83d\\ude00".repeat(size / 4 + 1) + "\"", "0", "true", "null", "[]", "[120]", "{}")
                    : List.of();
        };
        List<JsonNode> out = new ArrayList<>();
        for (String f : forms) {
            out.add(json(f));
        }
        return out;
    }

    /**
     * Fill-value forms with the element bytes the spec says they stand for. By default, for the
     * spec's kinds: booleans; zero, one, minus one and the bounds of integers; for floats
     * {@code 0}, {@code -0.0}, {@code 1.5}, {@code "NaN"} (sign 0, mantissa MSB 1, the rest 0),
     * {@code "Infinity"}, {@code "-Infinity"} and hex forms including a NaN with a payload; complex
     * pairs of these; raw byte arrays.
     */
    protected List<FillValueExample> fillValueExamples(DataType type) {
        int size = type.size();
        List<FillValueExample> out = new ArrayList<>();
        switch (type.kind()) {
            case BOOL -> {
                out.add(new FillValueExample(json("false"), new byte[] {0}));
                out.add(new FillValueExample(json("true"), new byte[] {1}));
            }
            case INT, UINT -> {
                List<BigInteger> values = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TEN,
                        integerMax(type), integerMin(type)));
                if (type.kind() == ElementKind.INT) {
                    values.add(BigInteger.ONE.negate());
                }
                for (BigInteger v : values) {
                    out.add(new FillValueExample(json(v.toString()), integerBytes(v.longValue(), size)));
                }
            }
            case FLOAT -> {
                for (String[] f : floatForms(size)) {
                    out.add(new FillValueExample(json(f[0]), integerBytes(Long.parseUnsignedLong(f[1], 16), size)));
                }
            }
            case COMPLEX -> {
                int unit = size / 2;
                List<String[]> forms = floatForms(unit);
                for (int i = 0; i < forms.size(); i++) {
                    String[] re = forms.get(i);
                    String[] im = forms.get((i * 3 + 1) % forms.size());
                    ByteBuffer b = ByteBuffer.allocate(size).order(NATIVE);
                    b.put(integerBytes(Long.parseUnsignedLong(re[1], 16), unit));
                    b.put(integerBytes(Long.parseUnsignedLong(im[1], 16), unit));
                    out.add(new FillValueExample(json("[" + re[0] + ", " + im[0] + "]"), b.array()));
                }
            }
            case RAW -> {
                byte[] zeros = new byte[size];
                byte[] mixed = new byte[size];
                StringJoiner j = new StringJoiner(", ", "[", "]");
                for (int i = 0; i < size; i++) {
                    int v = (i * 97 + 255) % 256;
                    mixed[i] = (byte) v;
                    j.add(Integer.toString(v));
                }
                out.add(new FillValueExample(json(rawArray(size, 0)), zeros));
                out.add(new FillValueExample(json(j.toString()), mixed));
            }
            case STRING -> {
                for (String text : TEXTS) {
                    out.add(new FillValueExample(jsonString(text), text.getBytes(StandardCharsets.UTF_8)));
                }
            }
            case BYTES -> {
                byte[] mixed = {0, 1, 2, (byte) 255};
                out.add(new FillValueExample(json("\"\""), new byte[0]));
                out.add(new FillValueExample(json("[]"), new byte[0]));
                out.add(new FillValueExample(json("\"AAEC/w==\""), mixed));
                out.add(new FillValueExample(json("[0, 1, 2, 255]"), mixed));
                out.add(new FillValueExample(json("\"aGVsbG8=\""), "hello".getBytes(StandardCharsets.US_ASCII)));
                out.add(new FillValueExample(json("[104, 101, 108, 108, 111]"), "hello".getBytes(StandardCharsets.US_ASCII)));
            }
            default -> {
                if (isFixedLengthUtf32(type)) {
                    int codePoints = size / 4;
                    for (String text : TEXTS) {
                        int[] cps = text.codePoints().limit(codePoints).toArray();
                        String fits = new String(cps, 0, cps.length);
                        ByteBuffer b = ByteBuffer.allocate(size).order(NATIVE);
                        for (int cp : cps) {
                            b.putInt(cp);
                        }
                        out.add(new FillValueExample(jsonString(fits), b.array()));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Texts whose fill-value forms the kit knows for the text types: empty, ASCII, non-ASCII with
     * a supplementary code point, controls and the characters JSON escapes.
     */
    private static final List<String> TEXTS = List.of("", "hello", "Zo\u00eb \u65e5\u672c \ud83d\ude00 \u00b5",
            "\ud83d\ude00\u00e9", "tab\t newline\n nul\u0000 end", "\"quoted\" back\\slash /");

    private static JsonNode jsonString(String text) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(text);
    }

    /**
     * Whether the type is zarr-extensions' {@code fixed_length_utf32}, whose forms the kit knows:
     * a JSON string of at most {@code length_bytes / 4} code points, held as that many UTF-32 code
     * units in native byte order, zero after the text.
     */
    private static boolean isFixedLengthUtf32(DataType type) {
        return "fixed_length_utf32".equals(type.name()) && type.kind() == ElementKind.OTHER && type.size() % 4 == 0;
    }

    /** {@code {json, hex bits}} for IEEE 754 forms of a float of {@code size} bytes. */
    private static List<String[]> floatForms(int size) {
        switch (size) {
            case 2:
                return List.of(new String[] {"0", "0000"}, new String[] {"-0.0", "8000"},
                        new String[] {"1.5", "3e00"}, new String[] {"-2", "c000"},
                        new String[] {"\"NaN\"", "7e00"}, new String[] {"\"Infinity\"", "7c00"},
                        new String[] {"\"-Infinity\"", "fc00"}, new String[] {"\"0x7e01\"", "7e01"},
                        new String[] {"\"0xfd00\"", "fd00"}, new String[] {"\"0x3c00\"", "3c00"},
                        new String[] {"\"0x0001\"", "0001"});
            case 4:
                return List.of(new String[] {"0", "00000000"}, new String[] {"-0.0", "80000000"},
                        new String[] {"1.5", "3fc00000"}, new String[] {"-2", "c0000000"},
                        new String[] {"\"NaN\"", "7fc00000"}, new String[] {"\"Infinity\"", "7f800000"},
                        new String[] {"\"-Infinity\"", "ff800000"}, new String[] {"\"0x7fc00001\"", "7fc00001"},
                        new String[] {"\"0xff800123\"", "ff800123"}, new String[] {"\"0x3f800000\"", "3f800000"},
                        new String[] {"\"0x00000001\"", "00000001"});
            case 8:
                return List.of(new String[] {"0", "0000000000000000"}, new String[] {"-0.0", "8000000000000000"},
                        new String[] {"1.5", "3ff8000000000000"}, new String[] {"-2", "c000000000000000"},
                        new String[] {"\"NaN\"", "7ff8000000000000"}, new String[] {"\"Infinity\"", "7ff0000000000000"},
                        new String[] {"\"-Infinity\"", "fff0000000000000"},
                        new String[] {"\"0x7ff8000000000001\"", "7ff8000000000001"},
                        new String[] {"\"0xfff0000000000abc\"", "fff0000000000abc"},
                        new String[] {"\"0x3ff0000000000000\"", "3ff0000000000000"},
                        new String[] {"\"0x0000000000000001\"", "0000000000000001"});
            default:
                return List.of();
        }
    }

    private static byte[] integerBytes(long v, int size) {
        ByteBuffer b = ByteBuffer.allocate(size).order(NATIVE);
        switch (size) {
            case 1 -> b.put((byte) v);
            case 2 -> b.putShort((short) v);
            case 4 -> b.putInt((int) v);
            default -> b.putLong(v);
        }
        return b.array();
    }

    private static BigInteger integerMax(DataType t) {
        int bits = 8 * t.size();
        return t.kind() == ElementKind.UINT ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
    }

    private static BigInteger integerMin(DataType t) {
        return t.kind() == ElementKind.UINT ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(8 * t.size() - 1).negate();
    }

    private static String rawArray(int n, int value) {
        StringJoiner j = new StringJoiner(", ", "[", "]");
        for (int i = 0; i < n; i++) {
            j.add(Integer.toString(value));
        }
        return j.toString();
    }

    private static String rawArrayWith(int n, String last) {
        StringJoiner j = new StringJoiner(", ", "[", "]");
        for (int i = 0; i < n - 1; i++) {
            j.add("0");
        }
        j.add(last);
        return j.toString();
    }

    // ---- running the rules ----

    private static String hex(FillValue v) {
        return HexFormat.of().formatHex(v.bytes());
    }

    private static FillValue parse(DataType t, JsonNode form) {
        FillValue v;
        try {
            v = t.parseFillValue(form, POINTER);
        } catch (InvalidMetadataException e) {
            throw Rule.fail("the permitted fill value " + form + " was rejected: " + e.getMessage());
        }
        if (v == null) {
            throw Rule.fail("parseFillValue(" + form + ") returned null");
        }
        if (!t.kind().isVariableLength() && v.size() != t.size()) {
            throw Rule.fail("the fill value " + form + " parsed to " + v.size() + " bytes, but size() is " + t.size());
        }
        return v;
    }

    // ---- rules ----

    /**
     * Every permitted fill-value form survives a round trip: parse, write back with
     * {@code fillValueToJson}, parse again — the same bytes, bit for bit (NaN payloads and
     * {@code -0.0} included); the form written back is stable (writing the second parse gives the
     * same JSON); and the {@code defaultFillValue()} writes a form that parses back to itself.
     *
     * <p>Spec: data-types.rst, "Permitted fill values"; core.rst, {@code fill_value}.
     *
     * <p>If this fails, check: every NaN written as {@code "NaN"} (losing its payload — write
     * {@code "0x..."} unless it is the canonical NaN); {@code -0.0} written as {@code 0};
     * {@code uint64} values above {@code Long.MAX_VALUE} written as negative numbers; float32 values
     * widened to double and written with digits that round differently.
     */
    @TestFactory
    @DisplayName("DT01 fill values round trip through their JSON forms" + FILL_SPEC)
    public Stream<DynamicTest> required_DT01_fillValuesRoundTrip() {
        return types.each("DT01", "fill values round trip through their JSON forms", t -> {
            List<JsonNode> forms = new ArrayList<>(validFillValues(t));
            FillValue def = t.defaultFillValue();
            if (def == null || !t.kind().isVariableLength() && def.size() != t.size()) {
                throw Rule.fail("defaultFillValue() is " + def + ", not a value of " + t.size() + " bytes");
            }
            forms.add(t.fillValueToJson(def));
            for (JsonNode form : forms) {
                FillValue first = parse(t, form);
                JsonNode written = t.fillValueToJson(first);
                if (written == null) {
                    throw Rule.fail("fillValueToJson of " + form + " returned null");
                }
                FillValue second = parse(t, written);
                if (!first.equals(second)) {
                    throw Rule.fail("the fill value " + form + " (bytes " + hex(first) + ") was written as " + written
                            + ", which parses to the bytes " + hex(second));
                }
                JsonNode again = t.fillValueToJson(second);
                if (!written.equals(again)) {
                    throw Rule.fail("the fill value " + form + " is written as " + written + " and then as " + again);
                }
            }
            JsonNode defJson = t.fillValueToJson(def);
            if (!parse(t, defJson).equals(def)) {
                throw Rule.fail("defaultFillValue() " + hex(def) + " is written as " + defJson
                        + ", which parses to something else");
            }
        });
    }

    /**
     * A fill value in a form the spec does not permit for the type — out of range, a fraction or
     * exponent for an integer, a string other than the spec's for a float, a pair of the wrong
     * length, a byte outside {@code [0, 255]} — is rejected with an {@link InvalidMetadataException}
     * whose pointer is (or is under) the {@code fill_value} member given to it, never with another
     * exception and never silently converted.
     *
     * <p>Spec: data-types.rst, "Permitted fill values"; DESIGN.md: malformed metadata names the JSON
     * field.
     *
     * <p>If this fails, check: {@code JsonNode.asLong()}/{@code asDouble()} used (they convert
     * anything); range checks for the widest types; the pointer argument dropped from the
     * exception.
     */
    @TestFactory
    @DisplayName("DT02 forbidden fill values are rejected naming the pointer" + FILL_SPEC)
    public Stream<DynamicTest> required_DT02_invalidFillValuesAreRejected() {
        return types.each("DT02", "forbidden fill values are rejected naming the pointer", t -> {
            for (JsonNode form : invalidFillValues(t)) {
                FillValue v;
                try {
                    v = t.parseFillValue(form, POINTER);
                } catch (InvalidMetadataException e) {
                    if (!e.pointer().startsWith(POINTER)) {
                        throw Rule.fail("the error for " + form + " has the pointer '" + e.pointer() + "', not one under '"
                                + POINTER + "'");
                    }
                    if (!e.getMessage().contains(POINTER)) {
                        throw Rule.fail("the message for " + form + " does not name " + POINTER + ": " + e.getMessage());
                    }
                    continue;
                } catch (RuntimeException e) {
                    throw Rule.fail("the fill value " + form + " threw " + e + "; expected an InvalidMetadataException");
                }
                throw Rule.fail("the fill value " + form + " is not permitted for " + t.name() + " but was accepted as "
                        + hex(v));
            }
        });
    }

    /**
     * Size, byte-order unit and kind agree: the size is at least 1 and a multiple of the unit;
     * {@code BOOL} is 1 byte; {@code INT}/{@code UINT} are 1, 2, 4 or 8 bytes with the unit equal
     * to the size; {@code FLOAT} 2, 4 or 8 with the unit equal to the size; {@code COMPLEX} 8 or 16
     * with the unit half the size; {@code RAW} has unit 1; the default fill value has
     * {@code size()} bytes.
     *
     * <p>Spec: data-types.rst, "Core data types"; codecs/bytes ({@code endian} applies per unit).
     *
     * <p>If this fails, check: the unit of a complex type (each component is swapped, not the
     * pair); 1-byte types reporting a unit above 1 (then {@code bytes} would demand
     * {@code endian}).
     */
    @TestFactory
    @DisplayName("DT03 size, byte-order unit and kind agree" + SPEC)
    public Stream<DynamicTest> required_DT03_sizeUnitAndKindAgree() {
        return types.each("DT03", "size, byte-order unit and kind agree", t -> {
            int size = t.size();
            int unit = t.byteOrderUnit();
            ElementKind kind = t.kind();
            if (kind == null) {
                throw Rule.fail("kind() is null");
            }
            if (size < 1 || unit < 1 || size % unit != 0) {
                throw Rule.fail("size() " + size + " and byteOrderUnit() " + unit + ": the size must be a positive"
                        + " multiple of the unit");
            }
            String wrong = switch (kind) {
                case BOOL -> size == 1 && unit == 1 ? null : "BOOL must be 1 byte with unit 1";
                case INT, UINT -> Set.of(1, 2, 4, 8).contains(size) && unit == size ? null
                        : kind + " must be 1, 2, 4 or 8 bytes with the unit equal to the size";
                case FLOAT -> Set.of(2, 4, 8).contains(size) && unit == size ? null
                        : "FLOAT must be 2, 4 or 8 bytes with the unit equal to the size";
                case COMPLEX -> Set.of(8, 16).contains(size) && unit == size / 2 ? null
                        : "COMPLEX must be 8 or 16 bytes with the unit half the size";
                case RAW -> unit == 1 ? null : "RAW has no byte order: its unit must be 1";
                case STRING, BYTES -> unit == 1 ? null : kind + " elements are stored by their codec, not"
                        + " byte-swapped: the unit must be 1";
                default -> isFixedLengthUtf32(t) && unit != 4 ? "fixed_length_utf32 is made of 4-byte code units:"
                        + " the unit must be 4" : null;
            };
            if (wrong != null) {
                throw Rule.fail(wrong + "; found kind " + kind + ", size " + size + ", unit " + unit);
            }
            if (kind.isVariableLength()) {
                if (t.defaultFillValue().size() != 0) {
                    throw Rule.fail("the default fill value of a " + kind + " type is the empty value, but"
                            + " defaultFillValue() has " + t.defaultFillValue().size() + " bytes");
                }
            } else if (t.defaultFillValue().size() != size) {
                throw Rule.fail("defaultFillValue() has " + t.defaultFillValue().size() + " bytes, size() is " + size);
            }
        });
    }

    /**
     * The type's metadata form ({@code toJson()}: its name, or an object with name and
     * configuration) creates, through the provider, an equal type that writes the same metadata.
     *
     * <p>Spec: core.rst, {@code data_type} (an extension point); DESIGN.md: metadata read and
     * written again is the same document.
     *
     * <p>If this fails, check: {@code equals}/{@code hashCode} not overridden; a configuration
     * field written under another name than the one read; defaults left out or added.
     */
    @TestFactory
    @DisplayName("DT04 the data_type metadata round trips through the provider" + SPEC)
    public Stream<DynamicTest> required_DT04_metadataRoundTrips() {
        return types.each("DT04", "the data_type metadata round trips through the provider",
                t -> Extensions.roundTrip(provider(), t, "/data_type"));
    }

    /**
     * Each permitted form means what the spec says, bit for bit: {@code "NaN"} is the quiet NaN
     * with sign 0 and only the mantissa's top bit set; {@code "0x..."} is exactly those bits (a NaN
     * payload is kept); {@code "Infinity"}, {@code -0.0}, integers at their bounds, complex pairs
     * and raw byte arrays give their exact bytes.
     *
     * <p>Spec: data-types.rst, "Permitted fill values".
     *
     * <p>If this fails, check: hex parsed as a number and rounded through {@code double}; a NaN
     * canonicalised by {@code Float.floatToIntBits} (use the raw variant); the byte order of the
     * result (native, like every element in memory).
     */
    @TestFactory
    @DisplayName("DT05 fill-value forms mean what the spec says, bit for bit" + FILL_SPEC)
    public Stream<DynamicTest> required_DT05_fillValueFormsMeanWhatTheSpecSays() {
        return types.each("DT05", "fill-value forms mean what the spec says, bit for bit", t -> {
            for (FillValueExample e : fillValueExamples(t)) {
                FillValue v = parse(t, e.json());
                if (!Arrays.equals(v.bytes(), e.nativeBytes())) {
                    throw Rule.fail("the fill value " + e.json() + " parsed to the bytes " + hex(v) + ", expected "
                            + HexFormat.of().formatHex(e.nativeBytes()) + " (native byte order)");
                }
            }
        });
    }

    /**
     * The provider rejects a configuration with a field it does not know, with an
     * {@link InvalidMetadataException} that names the field.
     *
     * <p>Spec: core.rst, "Extension definition" ({@code must_understand}; a broken configuration is
     * never skipped); DESIGN.md: providers reject anything they do not understand.
     *
     * <p>If this fails, check: {@link ExtensionConfig#rejectUnknownFields} called in
     * {@code create}.
     */
    @Test
    @DisplayName("DT06 an unknown configuration field is rejected" + SPEC)
    public void required_DT06_unknownConfigurationFieldIsRejected() {
        Rule.check("DT06", "an unknown configuration field is rejected", provider().name(),
                () -> Extensions.rejectsUnknownFields(provider(), configurations()));
    }

    /**
     * A type whose in-memory form is no storage format names the array→bytes codec that stores
     * it ({@link DataType#arrayToBytesCodec()}), and a type of a variable-length kind must, since
     * its elements have no bytes for {@code bytes} to store. The entry is a codec's metadata form:
     * an object with a registered {@code name} other than {@code bytes}, an object
     * {@code configuration} if any, nothing else; each call returns a fresh node.
     *
     * <p>Spec: core.rst, "Codecs" (every chain has exactly one array→bytes codec) and the entry's
     * form; SPI {@link DataType#arrayToBytesCodec()}.
     *
     * <p>If this fails, check: a {@code string}-like type left with the default; the entry built
     * as a bare name instead of {@code {"name": ...}}; one shared node handed out.
     */
    @TestFactory
    @DisplayName("DT08 a type names the array→bytes codec that stores it where bytes cannot" + SPEC)
    public Stream<DynamicTest> required_DT08_namesItsArrayToBytesCodecWhereBytesCannotStoreIt() {
        return types.each("DT08", "a type names the array→bytes codec that stores it where bytes cannot", t -> {
            java.util.Optional<com.fasterxml.jackson.databind.node.ObjectNode> entry = t.arrayToBytesCodec();
            if (entry == null) {
                throw Rule.fail("arrayToBytesCodec() returned null instead of an Optional");
            }
            if (entry.isEmpty()) {
                if (t.kind().isVariableLength()) {
                    throw Rule.fail("a " + t.kind() + " type's elements are objects, which bytes cannot store, but"
                            + " arrayToBytesCodec() names no codec");
                }
                return;
            }
            com.fasterxml.jackson.databind.node.ObjectNode e = entry.get();
            JsonNode name = e.get("name");
            if (name == null || !name.isTextual() || !name.textValue().matches("[a-z][a-z0-9-_.]+")) {
                throw Rule.fail("the codec entry " + e + " has no registered 'name'");
            }
            if (name.textValue().equals("bytes")) {
                throw Rule.fail("the codec entry names bytes, which stores elements as they lie in memory: leave"
                        + " arrayToBytesCodec() empty instead");
            }
            if (e.has("configuration") && !e.get("configuration").isObject()) {
                throw Rule.fail("the codec entry's configuration is not an object: " + e);
            }
            e.fieldNames().forEachRemaining(f -> {
                if (!Set.of("name", "configuration", "must_understand").contains(f)) {
                    throw Rule.fail("the codec entry has a member '" + f + "' that a codec entry does not: " + e);
                }
            });
            e.put("name", "changed-by-the-kit");
            if (t.arrayToBytesCodec().orElseThrow().path("name").asText().equals("changed-by-the-kit")) {
                throw Rule.fail("arrayToBytesCodec() hands out one shared node: a caller's change shows in the next call");
            }
        });
    }
    /**
     * A type that offers a {@link DataType#numericEncoding()} (kind {@code OTHER} only) converts
     * every value exactly and rounds to nearest: for every bit pattern of a component (all 256 or
     * 65536), {@code get} returns NaN or a value that a {@code float} holds exactly, and
     * {@code set} of that value stores a pattern that reads back as the same value ({@code -0.0}
     * and {@code 0.0} told apart, any NaN as NaN); for a float format, a value a quarter of the
     * way from one value to the next reads back as the nearer one; {@code get} and {@code set}
     * leave the buffer's position and limit alone. The claim is made by a present encoding.
     *
     * <p>Spec: the data type's own (zarr-extensions data-types/*); SPI
     * {@link dev.zarrj.api.datatype.NumericEncoding}.
     *
     * <p>If this fails, check: rounding by truncation ({@code (int)} instead of
     * {@code Math.rint}); double rounding through {@code float}; the sign of zero; bits above a
     * narrow format's width not ignored when read.
     */
    @TestFactory
    @DisplayName("DT07 a numeric encoding reads every pattern exactly and rounds to nearest" + SPEC)
    public Stream<DynamicTest> optional_DT07_numericEncodingIsExactAndRoundsToNearest() {
        List<DataType> claimed = new ArrayList<>();
        try {
            for (DataType t : types.create()) {
                if (t.kind() == ElementKind.OTHER && t.numericEncoding().isPresent()) {
                    claimed.add(t);
                } else {
                    Rule.notClaimed("optional_DT07", "data type " + t.name() + " (no numeric encoding of kind OTHER)");
                }
            }
        } catch (RuntimeException e) {
            return types.each("DT07", "a numeric encoding reads every pattern exactly and rounds to nearest", t -> { });
        }
        return types.each("DT07", "a numeric encoding reads every pattern exactly and rounds to nearest", t -> {
            if (claimed.contains(t)) {
                checkNumericEncoding(t, t.numericEncoding().orElseThrow());
            }
        }).filter(test -> !claimed.isEmpty());
    }

    private static void checkNumericEncoding(DataType t, dev.zarrj.api.datatype.NumericEncoding enc) {
        int components = enc.components();
        if ((components != 1 && components != 2) || t.size() % components != 0) {
            throw Rule.fail("components() is " + components + " for an element of " + t.size() + " bytes");
        }
        int unit = t.size() / components;
        if (unit != 1 && unit != 2) {
            throw Rule.fail("a component of " + unit + " bytes: numeric encodings are for formats of at most 16 bits");
        }
        int patterns = 1 << (8 * unit);
        // Components at offset 3 of a larger buffer whose position is not 0.
        ByteBuffer in = ByteBuffer.allocate(unit + 4).order(NATIVE);
        ByteBuffer out = ByteBuffer.allocate(unit + 4).order(NATIVE);
        java.util.TreeSet<Double> finite = new java.util.TreeSet<>();
        for (int p = 0; p < patterns; p++) {
            if (unit == 1) {
                in.put(3, (byte) p);
            } else {
                in.putShort(3, (short) p);
            }
            in.limit(unit + 3).position(1);
            double v = enc.get(in, 3);
            if (in.position() != 1 || in.limit() != unit + 3) {
                throw Rule.fail("get moved the buffer's position or limit");
            }
            String pattern = "pattern 0x" + Integer.toHexString(p);
            if (!Double.isNaN(v) && (double) (float) v != v) {
                throw Rule.fail(pattern + " reads as " + v + ", which no float holds exactly");
            }
            out.limit(unit + 3).position(2);
            enc.set(out, 3, v);
            if (out.position() != 2 || out.limit() != unit + 3) {
                throw Rule.fail("set moved the buffer's position or limit");
            }
            double back = enc.get(out, 3);
            if (Double.compare(v, back) != 0 && !(Double.isNaN(v) && Double.isNaN(back))) {
                throw Rule.fail(pattern + " reads as " + v + ", which set() stores as a pattern that reads as " + back);
            }
            if (!Double.isNaN(v) && !Double.isInfinite(v)) {
                finite.add(v == 0 ? 0.0 : v);
            }
        }
        if (enc.isInteger()) {
            return;
        }
        Double previous = null;
        for (double hi : finite) {
            if (previous == null) {
                previous = hi;
                continue;
            }
            double lo = previous;
            previous = hi;
            double quarter = (hi - lo) / 4;
            for (double[] probe : new double[][] {{lo + quarter, lo}, {hi - quarter, hi}}) {
                enc.set(out, 3, probe[0]);
                double got = enc.get(out, 3);
                if (got != probe[1]) {
                    throw Rule.fail(probe[0] + " (between " + lo + " and " + hi + ") is stored as " + got + ", not the"
                            + " nearest value " + probe[1]);
                }
            }
        }
    }
}
