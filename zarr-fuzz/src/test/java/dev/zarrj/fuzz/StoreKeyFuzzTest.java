package dev.zarrj.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import dev.zarrj.store.fs.FileStoreOptions;
import dev.zarrj.store.fs.FileStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Store keys and node paths: {@link StoreKey}'s validation, opening and creating nodes at fuzzed
 * paths, and the file store's key-to-path mapping, which must never reach outside its root. Inputs
 * are UTF-8 text (malformed sequences become U+FFFD).
 */
class StoreKeyFuzzTest {
    private static final Zarr ZARR = Zarr.builder().threads(1).build();
    private static final byte[] GROUP = "{\"zarr_format\":3,\"node_type\":\"group\"}".getBytes(StandardCharsets.UTF_8);
    private static final int MAX_CREATED_PATH = 64;
    private static final Path PARENT;
    private static final Path ROOT;
    private static final Store FILES;

    static {
        try {
            PARENT = Files.createTempDirectory("zarrj-fuzz-keys-");
            ROOT = Files.createDirectory(PARENT.resolve("root"));
            FILES = FileStores.open(ROOT, FileStoreOptions.defaults().withFsync(false));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(PARENT)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A key is accepted only when it has the shape {@link StoreKey} promises; otherwise an {@link InvalidKeyException} says why. */
    @FuzzTest(maxDuration = "5s")
    void storeKey(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        Outcomes.zarrErrorOrNothing(() -> {
            StoreKey key = StoreKey.of(text);
            if (!key.value().equals(text)) {
                throw new AssertionError("StoreKey.of('" + text + "') holds '" + key.value() + "'");
            }
            for (String segment : text.split("/", -1)) {
                if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                    throw new AssertionError("StoreKey accepted '" + text + "' with the segment '" + segment + "'");
                }
            }
            if (text.indexOf('\\') >= 0 || text.indexOf('\0') >= 0) {
                throw new AssertionError("StoreKey accepted '" + text + "' with a backslash or NUL");
            }
        });
        Outcomes.zarrErrorOrNothing(() -> StoreKey.checkPrefix(text));
    }

    /** Opening and creating a node at a fuzzed path: a node, or a ZarrException naming the path. */
    @FuzzTest(maxDuration = "5s")
    void nodePath(byte[] input) {
        String path = new String(input, StandardCharsets.UTF_8);
        Outcomes.zarrErrorOrNothing(() -> {
            try (Store store = ZARR.openStore("memory:")) {
                store.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(GROUP));
                store.set(StoreKey.of("a/zarr.json"), ByteBuffer.wrap(GROUP));
                Outcomes.zarrErrorOrNothing(() -> ZARR.open(store, path));
                Outcomes.zarrErrorOrNothing(() -> ZARR.exists(store, path));
                if (path.length() > MAX_CREATED_PATH) {
                    return; // creating writes a group per segment; a long path only makes the run slow
                }
                ZarrGroup created = ZARR.createGroup(store, path);
                ZarrNode again = ZARR.open(store, created.path());
                if (!(again instanceof ZarrGroup)) {
                    throw new AssertionError("the group created at '" + path + "' opens as " + again);
                }
                for (StoreKey k : store.list()) {
                    if (!k.value().endsWith("zarr.json")) {
                        throw new AssertionError("creating a group at '" + path + "' wrote the key '" + k + "'");
                    }
                }
            }
        });
    }

    /**
     * The file store writes, reads, lists and erases a fuzzed key inside its root, and nothing
     * appears beside the root.
     */
    @FuzzTest(maxDuration = "10s")
    void fileStoreKey(byte[] input) throws IOException {
        String text = new String(input, StandardCharsets.UTF_8);
        StoreKey key;
        try {
            key = StoreKey.of(text);
        } catch (InvalidKeyException e) {
            return;
        }
        byte[] value = text.getBytes(StandardCharsets.UTF_8);
        try {
            Outcomes.zarrErrorOrNothing(() -> {
                FILES.set(key, ByteBuffer.wrap(value));
                ByteBuffer read = FILES.get(key).orElseThrow(() -> new AssertionError("key '" + key + "' was written but reads as absent"));
                if (!read.equals(ByteBuffer.wrap(value))) {
                    throw new AssertionError("key '" + key + "' reads other bytes than were written");
                }
                List<StoreKey> listed = FILES.list();
                if (!listed.contains(key)) {
                    throw new AssertionError("key '" + key + "' was written but is not listed: " + listed);
                }
                FILES.erase(key);
                if (FILES.exists(key)) {
                    throw new AssertionError("key '" + key + "' exists after erase");
                }
            });
        } finally {
            try (Stream<Path> beside = Files.list(PARENT)) {
                List<Path> all = beside.toList();
                if (!all.equals(List.of(ROOT))) {
                    throw new AssertionError("the key '" + text + "' left the root: " + all);
                }
            }
            clean();
        }
    }

    /** Removes what a key left in the root (folders of its segments), so that runs do not accumulate. */
    private static void clean() throws IOException {
        try (Stream<Path> s = Files.list(ROOT)) {
            for (Path p : s.toList()) {
                delete(p);
            }
        }
    }

    private static void delete(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (DirectoryNotEmptyException e) {
                    // a concurrent write; the next clean removes it
                }
            }
        } catch (IOException | UncheckedIOException e) {
            throw new AssertionError("cannot clean " + root + ": " + e, e);
        }
    }
}
