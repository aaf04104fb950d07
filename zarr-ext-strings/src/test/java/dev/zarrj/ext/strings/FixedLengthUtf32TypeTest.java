package dev.zarrj.ext.strings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** fixed_length_utf32: text in, UTF-32 code units out, padding with U+0000, as NumPy's {@code <U}. */
class FixedLengthUtf32TypeTest {
    private static final Zarr ZARR = Zarr.defaults();

    @Test
    void theSpecsExampleIsStoredAsItShows() {
        Store store = ZARR.openStore("memory:");
        FixedLengthUtf32Type type = StringTypes.fixedLengthUtf32(3);
        ZarrArray a = ZARR.array(type, 2).chunks(2).create(store, "/u");
        assertEquals("{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":12}}",
                a.metadata().get("data_type").toString());
        assertEquals("\"\"", a.metadata().get("fill_value").toString());
        a.write(type.copyOf(new String[] {"Hi", "🎉"}, 2));
        assertEquals("48000000" + "69000000" + "00000000" + "89f30100" + "00000000" + "00000000",
                HexFormat.of().formatHex(store.get(StoreKey.of("u/c/0")).orElseThrow().array()));
        NdArray back = ZARR.openArray(store, "/u").read();
        assertArrayEquals(new String[] {"Hi", "🎉"}, type.toStringArray(back));
        assertEquals("🎉", type.get(back, 1));
    }

    @Test
    void bigEndianCodeUnitsToo() {
        Store store = ZARR.openStore("memory:");
        FixedLengthUtf32Type type = StringTypes.fixedLengthUtf32(2);
        ZarrArray a = ZARR.array(type, 1).codecs("[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}]")
                .fillValue("é").create(store, "/u");
        NdArray data = NdArray.allocate(type, 1);
        type.set(data, 0, "ab");
        a.write(data);
        assertEquals("00000061" + "00000062", HexFormat.of().formatHex(store.get(StoreKey.of("u/c/0")).orElseThrow().array()));
        a.write(type.copyOf(new String[] {"é"}, 1));
        assertEquals("é", type.get(ZARR.openArray(store, "/u").read(), 0));
    }

    @Test
    void textLongerThanTheTypeOrNotTextIsRefused() {
        FixedLengthUtf32Type type = StringTypes.fixedLengthUtf32(2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> type.encode("abc"));
        assertTrue(e.getMessage().contains("3 code points") && e.getMessage().contains("at most 2"), e.getMessage());
        assertEquals(2, type.encode("🎉🎉").length / 4, "two code points, though four UTF-16 chars");
        InvalidMetadataException m = assertThrows(InvalidMetadataException.class,
                () -> type.parseFillValue(TextNode.valueOf("abc"), "/fill_value"));
        assertTrue(m.getMessage().contains("/fill_value"), m.getMessage());
        assertThrows(InvalidMetadataException.class, () -> type.parseFillValue(IntNode.valueOf(0), "/fill_value"));
        assertThrows(IllegalArgumentException.class, () -> StringTypes.fixedLengthUtf32(0));
        assertThrows(IllegalArgumentException.class, () -> FixedLengthUtf32Type.ofLengthBytes(6));
        Store store = ZARR.openStore("memory:");
        assertThrows(InvalidMetadataException.class, () -> ZARR.array(type, 1)
                .codecs("[{\"name\": \"bytes\"}]").create(store, "/no-endian"));
    }

    @Test
    void aCodeUnitThatIsNoCodePointFailsTheRead() {
        Store store = ZARR.openStore("memory:");
        FixedLengthUtf32Type type = StringTypes.fixedLengthUtf32(1);
        ZarrArray a = ZARR.array(type, 1).create(store, "/u");
        store.set(StoreKey.of("u/c/0"), ByteBuffer.wrap(HexFormat.of().parseHex("00001100")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> type.toStringArray(a.read()));
        assertTrue(e.getMessage().contains("0x110000"), e.getMessage());
        InvalidMetadataException m = assertThrows(InvalidMetadataException.class, () -> ZARR.array(type, 1)
                .codecs("[{\"name\": \"vlen-utf8\"}]").create(store, "/v"));
        assertTrue(m.getMessage().contains("fixed_length_utf32"), m.getMessage());
    }
}
