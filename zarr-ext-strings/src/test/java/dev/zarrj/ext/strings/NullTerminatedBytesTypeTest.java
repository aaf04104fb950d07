package dev.zarrj.ext.strings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** NumPy's {@code |S} strings as zarr-python 3 names them: padded bytes, base64 fill values without the padding. */
class NullTerminatedBytesTypeTest {
    private final NullTerminatedBytesType s4 = StringTypes.nullTerminatedBytes(4);

    @Test
    void theFillValueIsBase64OfTheStringWithoutItsPadding() {
        FillValue f = s4.parseFillValue(TextNode.valueOf("YWI="), "/fill_value");
        assertArrayEquals(new byte[] {'a', 'b', 0, 0}, f.bytes());
        assertEquals(TextNode.valueOf("YWI="), s4.fillValueToJson(f));
        assertEquals(TextNode.valueOf(""), s4.fillValueToJson(s4.defaultFillValue()));
        assertEquals(TextNode.valueOf("YWI="), s4.fillValueToJson(s4.parseFillValue(TextNode.valueOf("YWIAAA=="), "/f")));
    }

    @Test
    void aFillValueThatDoesNotFitIsRefusedNamingTheField() {
        InvalidMetadataException tooLong = assertThrows(InvalidMetadataException.class,
                () -> s4.parseFillValue(TextNode.valueOf("YWJjZGU="), "/fill_value"));
        assertEquals("/fill_value", tooLong.pointer());
        assertTrue(tooLong.getMessage().contains("5 bytes"), tooLong.getMessage());
        assertThrows(InvalidMetadataException.class, () -> s4.parseFillValue(TextNode.valueOf("***"), "/fill_value"));
        assertThrows(InvalidMetadataException.class, () -> s4.parseFillValue(IntNode.valueOf(1), "/fill_value"));
        assertThrows(IllegalArgumentException.class, () -> StringTypes.nullTerminatedBytes(0));
        assertThrows(IllegalArgumentException.class, () -> s4.copyOf(new byte[][] {new byte[5]}, 1));
    }

    @Test
    void elementsAreTheirPaddedBytesThroughAnArray() {
        try (Zarr zarr = Zarr.builder().threads(1).build(); Store store = zarr.openStore("memory:")) {
            ZarrArray a = zarr.array(s4, 3).chunks(2).fillValue("eno=").create(store, "/s");
            byte[][] values = {"ab".getBytes(StandardCharsets.US_ASCII), "abcd".getBytes(StandardCharsets.US_ASCII)};
            a.write(new long[] {0}, s4.copyOf(values, 2));
            NdArray back = zarr.openArray(store, "/s").read(new long[] {0}, new long[] {3});
            assertArrayEquals(new byte[] {'a', 'b', 0, 0}, back.getBytes(0));
            assertArrayEquals("ab".getBytes(StandardCharsets.US_ASCII), s4.get(back, 0));
            assertArrayEquals("abcd".getBytes(StandardCharsets.US_ASCII), back.getBytes(1));
            assertArrayEquals(new byte[] {'z', 'z', 0, 0}, back.getBytes(2), "the fill value");
            assertEquals("null_terminated_bytes", a.metadata().get("data_type").get("name").asText());
            assertEquals(4, a.metadata().get("data_type").get("configuration").get("length_bytes").asInt());
        }
    }
}
