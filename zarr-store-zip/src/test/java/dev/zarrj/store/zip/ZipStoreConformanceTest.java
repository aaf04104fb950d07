package dev.zarrj.store.zip;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.StoreContract;
import dev.zarrj.store.zip.ZipStoreOptions.Compression;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zip store against the kit's store contract, in each way it is used: read-only archives built
 * from given content, and update mode with stored and with deflated entries, whose writes reach
 * the archive when the store is closed (the contract reads them through a re-opened, read-only
 * store).
 */
class ZipStoreConformanceTest {
    @TempDir
    Path dir;

    private int n;

    private Path nextZip() {
        return dir.resolve("archive-" + n++ + ".zip");
    }

    /** A new archive holding {@code content}, written with these options. */
    private Path archiveOf(Map<String, byte[]> content, ZipStoreOptions options) {
        Path zip = nextZip();
        try (Store w = ZipStores.create(zip, options)) {
            content.forEach((k, v) -> w.set(StoreKey.of(k), ByteBuffer.wrap(v)));
        }
        return zip;
    }

    /** Archives opened with {@link ZipStores#open}: every reading rule, and S20 (writes refused). */
    @Nested
    class ReadOnly extends StoreContract {
        @Override
        protected Store newStore() {
            return ZipStores.open(archiveOf(Map.of(), ZipStoreOptions.defaults()), "");
        }

        @Override
        protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
            return Optional.of(ZipStores.open(archiveOf(content, ZipStoreOptions.defaults()), ""));
        }
    }

    /** {@link ZipStores#update} with stored entries: written on close, read back read-only. */
    @Nested
    class UpdateStored extends Update {
        UpdateStored() {
            super(ZipStoreOptions.defaults());
        }
    }

    /** {@link ZipStores#update} with deflated entries: range reads inflate. */
    @Nested
    class UpdateDeflated extends Update {
        UpdateDeflated() {
            super(ZipStoreOptions.defaults().withCompression(Compression.DEFLATED));
        }
    }

    abstract class Update extends StoreContract {
        private final ZipStoreOptions options;
        private final Map<Store, Path> archives = new IdentityHashMap<>();

        Update(ZipStoreOptions options) {
            this.options = options;
        }

        @Override
        protected Store newStore() {
            Path zip = archiveOf(Map.of(), options);
            Store s = ZipStores.update(zip, "", options);
            archives.put(s, zip);
            return s;
        }

        @Override
        protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
            return Optional.of(ZipStores.open(archiveOf(content, options), ""));
        }

        /** Closing writes the archive; the written entries are then read from it. */
        @Override
        protected Store reopen(Store written) {
            Path zip = archives.remove(written);
            written.close();
            return ZipStores.open(zip, "");
        }
    }
}
