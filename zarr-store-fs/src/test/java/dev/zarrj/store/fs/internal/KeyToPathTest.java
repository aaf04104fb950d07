package dev.zarrj.store.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.store.StoreKey;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyToPathTest {
    @TempDir
    Path tmp;

    @Test
    void keysAndPrefixesMapUnderTheRoot() {
        KeyToPath paths = new KeyToPath(tmp.resolve("r/../store"));
        Path root = tmp.resolve("store");
        assertEquals(root, paths.root());
        assertEquals(root.resolve("foo").resolve("bar"), paths.toPath(StoreKey.of("foo/bar")));
        assertEquals(root.resolve("zarr.json"), paths.toPath(StoreKey.of("zarr.json")));
        assertEquals(root, paths.toPath(""));
        assertEquals(root.resolve("a").resolve("b"), paths.toPath("a/b/"));
        assertEquals("file:" + root, paths.describe());
    }

    @Test
    void temporaryNamesAreRecognisedAndReserved() {
        String name = KeyToPath.newTempName();
        assertTrue(KeyToPath.isTempName(name), name);
        assertTrue(name.startsWith(".") && name.contains(".tmp"), name);
        assertFalse(KeyToPath.isTempName(".zarrj-.tmp"));
        assertFalse(KeyToPath.isTempName("zarrj-1.tmp"));
        assertFalse(KeyToPath.isKeySegment(name));
        assertFalse(KeyToPath.isKeySegment("a\\b"));
        assertTrue(KeyToPath.isKeySegment("c"));
        KeyToPath paths = new KeyToPath(tmp);
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> paths.toPath(StoreKey.of("a/" + name + "/b")));
        assertTrue(e.getMessage().contains(name) && e.getMessage().contains("reserved"), e.getMessage());
        assertThrows(InvalidKeyException.class, () -> paths.toPath(name + "/"));
    }

    @Test
    void keysThatWouldLeaveTheRootNeverReachIt() {
        // StoreKey refuses them before they reach the mapping.
        for (String bad : new String[] {"../x", "a/../../x", "/etc/passwd", "a\\..\\x", ".", "a/./b"}) {
            assertThrows(InvalidKeyException.class, () -> new KeyToPath(tmp).toPath(StoreKey.of(bad)), bad);
        }
        assertThrows(InvalidKeyException.class, () -> new KeyToPath(tmp).toPath("../"));
    }
}
