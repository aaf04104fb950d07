package dev.zarrj.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.store.zip.ZipStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Zip archives (end of central directory, Zip64 records, central directory entries, local
 * headers, stored and deflated data): open the archive read-only, list it, read every entry whole
 * and in part, and open the hierarchy at its root.
 */
class ZipFuzzTest {
    private static final Zarr ZARR = Zarr.builder().threads(1).build();
    private static final int MAX_ENTRIES = 64;
    private static final Path ARCHIVE;

    static {
        try {
            Path folder = Files.createTempDirectory("zarrj-fuzz-zip-");
            ARCHIVE = folder.resolve("fuzz.zip");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Files.deleteIfExists(ARCHIVE);
                    Files.deleteIfExists(folder);
                } catch (IOException e) {
                    // best effort at exit
                }
            }));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void archive(byte[] bytes) throws IOException {
        Files.write(ARCHIVE, bytes);
        Outcomes.zarrErrorOrNothing(() -> {
            try (Store store = ZipStores.open(ARCHIVE, "")) {
                List<StoreKey> keys = store.list();
                for (StoreKey key : keys.subList(0, Math.min(keys.size(), MAX_ENTRIES))) {
                    Optional<ByteBuffer> whole = store.get(key);
                    if (whole.isEmpty()) {
                        throw new AssertionError("listed key '" + key + "' reads as absent");
                    }
                    long size = store.size(key).orElseThrow(() -> new AssertionError("listed key '" + key + "' has no size"));
                    if (size != whole.get().remaining()) {
                        throw new AssertionError("key '" + key + "': size " + size + " but " + whole.get().remaining() + " bytes read");
                    }
                    if (size > 2) {
                        ByteBuffer part = store.get(key, ByteRange.of(1, 2)).orElseThrow();
                        if (part.remaining() != 2 || part.get(part.position()) != whole.get().get(whole.get().position() + 1)) {
                            throw new AssertionError("key '" + key + "': bytes 1..3 differ from the whole value's");
                        }
                    }
                }
                Nodes.visit(ZARR.open(store, ""));
            }
        });
    }
}
