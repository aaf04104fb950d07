package dev.zarrj.ext.strings.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * The variable-length {@code string} and {@code bytes} types. Their fill value is held as the
 * string's UTF-8 encoding or the byte string itself.
 */
public final class VariableLengthType implements DataType {
    /** An estimate of one element's memory: a reference and a short value. */
    private static final int NOMINAL_SIZE = 32;

    public static final VariableLengthType STRING = new VariableLengthType("string", ElementKind.STRING);
    public static final VariableLengthType BYTES = new VariableLengthType("bytes", ElementKind.BYTES);

    private final String name;
    private final ElementKind kind;

    private VariableLengthType(String name, ElementKind kind) {
        this.name = name;
        this.kind = kind;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** {@code vlen-utf8} for strings, {@code vlen-bytes} for byte strings: the codecs zarr-python uses. */
    @Override
    public Optional<ObjectNode> arrayToBytesCodec() {
        return Optional.of(JsonNodeFactory.instance.objectNode()
                .put("name", kind == ElementKind.STRING ? "vlen-utf8" : "vlen-bytes"));
    }

    /** The short form, {@code "string"}, as zarr-python writes it. */
    @Override
    public JsonNode toJson() {
        return TextNode.valueOf(name);
    }

    @Override
    public int size() {
        return NOMINAL_SIZE;
    }

    @Override
    public int byteOrderUnit() {
        return 1;
    }

    @Override
    public ElementKind kind() {
        return kind;
    }

    /**
     * A string's fill value is a JSON string; a byte string's is base64 text or an array of
     * integers in [0, 255].
     */
    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        if (kind == ElementKind.STRING) {
            if (!json.isTextual()) {
                throw new InvalidMetadataException(pointer, "the string fill value must be a JSON string, found "
                        + abbreviate(json));
            }
            // A lone surrogate has no UTF-8 form; String.getBytes would store '?' instead.
            try {
                ByteBuffer utf8 = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(json.textValue()));
                byte[] out = new byte[utf8.remaining()];
                utf8.get(out);
                return FillValue.ofBytes(out);
            } catch (CharacterCodingException e) {
                throw new InvalidMetadataException(pointer, "the string fill value " + abbreviate(json)
                        + " is not Unicode text: it holds a lone surrogate, which has no UTF-8 form");
            }
        }
        if (json.isTextual()) {
            try {
                return FillValue.ofBytes(Base64.getDecoder().decode(json.textValue()));
            } catch (IllegalArgumentException e) {
                throw new InvalidMetadataException(pointer, "the bytes fill value " + abbreviate(json)
                        + " is not base64 text (" + e.getMessage() + ")");
            }
        }
        if (json.isArray()) {
            byte[] out = new byte[json.size()];
            for (int i = 0; i < out.length; i++) {
                JsonNode b = json.get(i);
                if (!b.isIntegralNumber() || !b.canConvertToInt() || b.intValue() < 0 || b.intValue() > 255) {
                    throw new InvalidMetadataException(pointer + "/" + i, "a bytes fill value's element must be an"
                            + " integer in [0, 255], found " + abbreviate(b));
                }
                out[i] = (byte) b.intValue();
            }
            return FillValue.ofBytes(out);
        }
        throw new InvalidMetadataException(pointer, "the bytes fill value must be base64 text or an array of integers"
                + " in [0, 255], found " + abbreviate(json));
    }

    /** The string itself, or a byte string as base64 text (the shorter of the spec's two forms). */
    @Override
    public JsonNode fillValueToJson(FillValue value) {
        byte[] b = value.bytes();
        if (kind == ElementKind.BYTES) {
            return TextNode.valueOf(Base64.getEncoder().encodeToString(b));
        }
        try {
            return TextNode.valueOf(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString());
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("a string fill value must be UTF-8", e);
        }
    }

    @Override
    public FillValue defaultFillValue() {
        return FillValue.ofBytes(new byte[0]);
    }

    static String abbreviate(JsonNode json) {
        String s = json.toString();
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VariableLengthType t && t.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
