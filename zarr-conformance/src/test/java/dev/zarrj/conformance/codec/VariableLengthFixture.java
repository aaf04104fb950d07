package dev.zarrj.conformance.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Plain, correct test-only versions of the variable-length {@code string} and {@code bytes} data
 * types and of the {@code vlen-utf8} and {@code vlen-bytes} codecs (zarr-ext-strings provides the
 * real ones, which the kit cannot depend on), and copies of the codec with one defect each.
 */
public final class VariableLengthFixture {
    private VariableLengthFixture() {}

    /** {@code string} or {@code bytes}; fill values held as UTF-8 or as the byte string. */
    public static class TestType implements DataType {
        private final ElementKind kind;

        TestType(ElementKind kind) {
            this.kind = kind;
        }

        @Override public String name() { return kind == ElementKind.STRING ? "string" : "bytes"; }
        @Override public ObjectNode configuration() { return JsonNodeFactory.instance.objectNode(); }
        @Override public int size() { return 24; }
        @Override public int byteOrderUnit() { return 1; }
        @Override public ElementKind kind() { return kind; }
        @Override public java.util.Optional<ObjectNode> arrayToBytesCodec() {
            return java.util.Optional.of(JsonNodeFactory.instance.objectNode()
                    .put("name", kind == ElementKind.STRING ? "vlen-utf8" : "vlen-bytes"));
        }

        @Override
        public FillValue parseFillValue(JsonNode json, String pointer) {
            if (kind == ElementKind.STRING) {
                if (!json.isTextual()) {
                    throw new InvalidMetadataException(pointer, "a string fill value must be a JSON string");
                }
                return FillValue.ofBytes(utf8(json.textValue(), pointer));
            }
            if (json.isTextual()) {
                try {
                    return FillValue.ofBytes(Base64.getDecoder().decode(json.textValue()));
                } catch (IllegalArgumentException e) {
                    throw new InvalidMetadataException(pointer, "not base64: " + json);
                }
            }
            if (!json.isArray()) {
                throw new InvalidMetadataException(pointer, "a bytes fill value is base64 text or an array of bytes");
            }
            byte[] out = new byte[json.size()];
            for (int i = 0; i < out.length; i++) {
                JsonNode b = json.get(i);
                if (!b.isIntegralNumber() || !b.canConvertToInt() || b.intValue() < 0 || b.intValue() > 255) {
                    throw new InvalidMetadataException(pointer + "/" + i, "not a byte: " + b);
                }
                out[i] = (byte) b.intValue();
            }
            return FillValue.ofBytes(out);
        }

        @Override
        public JsonNode fillValueToJson(FillValue value) {
            return kind == ElementKind.STRING ? TextNode.valueOf(new String(value.bytes(), StandardCharsets.UTF_8))
                    : TextNode.valueOf(Base64.getEncoder().encodeToString(value.bytes()));
        }

        @Override
        public FillValue defaultFillValue() {
            return FillValue.ofBytes(new byte[0]);
        }

        @Override public boolean equals(Object o) { return o instanceof TestType t && t.kind == kind; }
        @Override public int hashCode() { return kind.hashCode(); }
        @Override public String toString() { return name(); }
    }

    /** Strict UTF-8: a lone surrogate has none, and is refused. */
    static byte[] utf8(String s, String pointer) {
        try {
            ByteBuffer b = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(s));
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw new InvalidMetadataException(pointer, "not Unicode text (a lone surrogate): " + e);
        }
    }

    public static final TestType STRING = new TestType(ElementKind.STRING);
    public static final TestType BYTES = new TestType(ElementKind.BYTES);

    /** A provider of one of the test types. */
    public static DataTypeProvider typeProvider(TestType type) {
        return new DataTypeProvider() {
            @Override public String name() { return type.name(); }

            @Override public DataType create(ExtensionConfig config, ProviderContext context) {
                config.rejectUnknownFields();
                return type;
            }
        };
    }

    /** What is wrong with a codec copy, and the rule it breaks. */
    enum Defect {
        /** Nothing: passes every rule (the control). */
        NONE,
        /** Decodes malformed UTF-8 with replacement characters instead of failing: AB18. */
        LENIENT_UTF8,
        /** Ignores bytes after the last element: AB18. */
        IGNORES_TRAILING_BYTES
    }

    /** The provider of {@code vlen-utf8} (text) or {@code vlen-bytes}, with a defect. */
    static CodecProvider provider(boolean text, Defect defect) {
        return new CodecProvider() {
            @Override public String name() { return text ? "vlen-utf8" : "vlen-bytes"; }

            @Override public Codec create(ExtensionConfig config, ProviderContext context) {
                config.rejectUnknownFields();
                return new Vlen(text, defect);
            }
        };
    }

    /** u32le count, then per element u32le length and bytes. */
    static final class Vlen implements ArrayToBytesCodec {
        private final boolean text;
        private final Defect defect;

        Vlen(boolean text, Defect defect) {
            this.text = text;
            this.defect = defect;
        }

        @Override public String name() { return text ? "vlen-utf8" : "vlen-bytes"; }
        @Override public ObjectNode configuration() { return JsonNodeFactory.instance.objectNode(); }

        @Override
        public void checkSupported(ChunkSpec decoded) {
            if (decoded.dataType().kind() != (text ? ElementKind.STRING : ElementKind.BYTES)) {
                throw new InvalidMetadataException("/codecs", name() + " does not store " + decoded.dataType().name());
            }
        }

        @Override
        public EncodedSize encodedSize(ChunkSpec decoded) {
            checkSupported(decoded);
            return EncodedSize.unbounded();
        }

        @Override
        public ByteBuffer encode(NdArray array, ChunkSpec decoded) {
            checkSupported(decoded);
            int n = (int) array.elementCount();
            byte[][] items = new byte[n][];
            long size = 4;
            for (int i = 0; i < n; i++) {
                items[i] = array.getBytes(i);
                size += 4 + items[i].length;
            }
            ByteBuffer out = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN).putInt(n);
            for (byte[] item : items) {
                out.putInt(item.length).put(item);
            }
            return out.flip();
        }

        @Override
        public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
            checkSupported(decoded);
            ByteBuffer in = encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            if (in.remaining() < 4 || Integer.toUnsignedLong(in.getInt()) != decoded.elementCount()) {
                throw new CorruptDataException(name() + ": no element count, or not the chunk's");
            }
            NdArray out = NdArray.allocate(decoded.dataType(), decoded.shape());
            for (long i = 0; i < decoded.elementCount(); i++) {
                if (in.remaining() < 4) {
                    throw new CorruptDataException(name() + ": truncated at element " + i);
                }
                long length = Integer.toUnsignedLong(in.getInt());
                if (length > in.remaining()) {
                    throw new CorruptDataException(name() + ": element " + i + " runs past the end");
                }
                byte[] item = new byte[(int) length];
                in.get(item);
                if (!text) {
                    out.setBytes(i, item);
                } else if (defect == Defect.LENIENT_UTF8) {
                    out.setString(i, new String(item, StandardCharsets.UTF_8));
                } else {
                    try {
                        out.setString(i, StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(item)).toString());
                    } catch (CharacterCodingException e) {
                        throw new CorruptDataException(name() + ": element " + i + " is not UTF-8");
                    }
                }
            }
            if (in.hasRemaining() && defect != Defect.IGNORES_TRAILING_BYTES) {
                throw new CorruptDataException(name() + ": " + in.remaining() + " bytes after the last element");
            }
            return out;
        }

        @Override public boolean equals(Object o) { return o instanceof Vlen v && v.text == text && v.defect == defect; }
        @Override public int hashCode() { return Boolean.hashCode(text); }
    }
}
