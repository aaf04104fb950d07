package dev.zarrj.core.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/** Test helpers: JSON text in, fill value bytes and canonical JSON text out. */
final class FillValueJson {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final String POINTER = "/fill_value";

    private FillValueJson() {}

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static FillValue parse(DataType type, String jsonText) {
        return type.parseFillValue(json(jsonText), POINTER);
    }

    /** The bytes a buffer of {@code size} in native order holds after {@code writer}. */
    static byte[] nativeBytes(int size, Consumer<ByteBuffer> writer) {
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        writer.accept(b);
        assertEquals(size, b.position(), "test helper wrote the wrong number of bytes");
        return b.array();
    }

    /**
     * Parses {@code input}, checks its bytes, checks that it is written as {@code canonical}, that
     * the written node equals what a parser reads from that text, and that the text parses to the
     * same bytes.
     */
    static void assertRoundTrip(DataType type, String input, byte[] expected, String canonical) {
        FillValue value = parse(type, input);
        assertArrayEquals(expected, value.bytes(), () -> type.name() + " " + input + " parsed to " + value);
        JsonNode written = type.fillValueToJson(value);
        assertEquals(canonical, text(written), () -> type.name() + " " + input + " written");
        assertEquals(json(canonical), written, () -> type.name() + " " + input + ": written node differs "
                + "from the parsed text (node types)");
        assertEquals(value, parse(type, canonical), () -> type.name() + " " + canonical + " re-parsed");
    }

    /** Asserts that {@code input} is refused with a message naming the pointer and the value. */
    static InvalidMetadataException assertRefused(DataType type, String input) {
        return assertRefused(type, input, POINTER);
    }

    static InvalidMetadataException assertRefused(DataType type, String input, String pointer) {
        JsonNode node = json(input);
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> type.parseFillValue(node, POINTER), () -> type.name() + " accepted " + input);
        assertEquals(pointer, e.pointer());
        assertTrue(e.getMessage().contains(pointer + ": "), e::getMessage);
        assertTrue(e.getMessage().contains(type.name()), e::getMessage);
        JsonNode offending = pointer.equals(POINTER) ? node : node.at(pointer.substring(POINTER.length()));
        assertTrue(e.getMessage().contains("found " + text(offending)), e::getMessage);
        return e;
    }
}
