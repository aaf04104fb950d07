package dev.zarrj.store.zip.internal;

import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Run in a child JVM by {@link ZipLockTest}: opens an archive for writing, sets the key given,
 * says {@code holding} on standard output, and closes the store when its standard input ends
 * (unless it is killed first).
 */
public final class LockHolderMain {
    private LockHolderMain() {}

    public static void main(String[] args) throws Exception {
        try (ZipStore s = ZipStore.open(Path.of(args[0]), "", ZipStore.Mode.UPDATE, ZipStoreOptions.defaults())) {
            s.set(StoreKey.of(args[1]), ByteBuffer.wrap(args[1].getBytes(StandardCharsets.UTF_8)));
            System.out.println("holding");
            System.out.flush();
            System.in.readAllBytes();
        }
        System.out.println("closed");
    }
}
