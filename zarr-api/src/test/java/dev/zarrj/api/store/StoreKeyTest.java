package dev.zarrj.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InvalidKeyException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StoreKeyTest {

    @ParameterizedTest
    @ValueSource(strings = {"zarr.json", "a/b", "foo/bar/c/0/1", "...", ".a", "a.", "..b/c", "a/.zarray",
            "with space/ü/日本", "c/0.0", "A/a"})
    void validKeysAccepted(String value) {
        StoreKey k = StoreKey.of(value);
        assertEquals(value, k.value());
        assertEquals(value, k.toString());
        assertEquals(k, new StoreKey(value));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''           | must not be empty",
            "/a           | must not start with '/'",
            "/            | must not start with '/'",
            "a/           | must not end with '/'",
            "a//b         | empty segment",
            ".            | '.' segment",
            "..           | '..' segment",
            "a/./b        | '.' segment",
            "a/../b       | '..' segment",
            "../a         | '..' segment",
            "a/..         | '..' segment",
            "a\\b         | backslash",
            "a/b\\        | backslash"})
    void refusedForms(String value, String reason) {
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> StoreKey.of(value));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertEquals("ZARR-KEY", e.code());
        if (!value.isEmpty()) {
            assertTrue(e.getMessage().contains("'" + value + "'"), "names the key: " + e.getMessage());
        }
    }

    @Test
    void nulRefusedAndShownPrintably() {
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> StoreKey.of("a\0b"));
        assertTrue(e.getMessage().contains("NUL"), e.getMessage());
        assertTrue(e.getMessage().contains("a\\0b"), e.getMessage());
        assertFalse(e.getMessage().contains("\0"), "no raw NUL in the message");
    }

    @Test
    void nullRefused() {
        assertThrows(InvalidKeyException.class, () -> new StoreKey(null));
    }

    @Test
    void ofPrefixAndSuffix() {
        assertEquals(StoreKey.of("a/b/zarr.json"), StoreKey.of("a/b/", "zarr.json"));
        assertEquals(StoreKey.of("zarr.json"), StoreKey.of("", "zarr.json"));
        assertThrows(InvalidKeyException.class, () -> StoreKey.of("a/", "../x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a/", "a/b/", "c/0/"})
    void validPrefixes(String prefix) {
        assertSame(prefix, StoreKey.checkPrefix(prefix));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "a           | must be empty or end with '/'",
            "/           | must not be empty",
            "//          | must not start with '/'",
            "/a/         | must not start with '/'",
            "a//         | must not end with '/'",
            "../         | '..' segment",
            "a/./        | '.' segment",
            "a\\/        | backslash"})
    void refusedPrefixes(String prefix, String reason) {
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> StoreKey.checkPrefix(prefix));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertTrue(e.getMessage().contains("prefix"), e.getMessage());
    }

    @Test
    void nullPrefixRefused() {
        assertThrows(InvalidKeyException.class, () -> StoreKey.checkPrefix(null));
    }

    @Test
    void nameIsTheLastSegment() {
        assertEquals("zarr.json", StoreKey.of("a/b/zarr.json").name());
        assertEquals("zarr.json", StoreKey.of("zarr.json").name());
        assertEquals("1", StoreKey.of("c/0/1").name());
    }

    @Test
    void hasPrefix() {
        StoreKey k = StoreKey.of("a/b/c");
        assertTrue(k.hasPrefix(""));
        assertTrue(k.hasPrefix("a/"));
        assertTrue(k.hasPrefix("a/b/"));
        assertFalse(k.hasPrefix("b/"));
        assertFalse(k.hasPrefix("a/b/c/"));
    }

    @Test
    void keysAreCaseSensitive() {
        assertNotEquals(StoreKey.of("foo"), StoreKey.of("FOO"));
    }

    @Test
    void orderingIsByStringValue() {
        List<StoreKey> keys = new ArrayList<>(List.of(StoreKey.of("b"), StoreKey.of("a/c"), StoreKey.of("a/b/c"),
                StoreKey.of("a"), StoreKey.of("B"), StoreKey.of("a-b"), StoreKey.of("a/b")));
        Collections.sort(keys);
        assertEquals(List.of("B", "a", "a-b", "a/b", "a/b/c", "a/c", "b"),
                keys.stream().map(StoreKey::value).toList());
        assertEquals(0, StoreKey.of("x/y").compareTo(StoreKey.of("x/y")));
        assertTrue(StoreKey.of("c/1").compareTo(StoreKey.of("c/10")) < 0);
    }
}
