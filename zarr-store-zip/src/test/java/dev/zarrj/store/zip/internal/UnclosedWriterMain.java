package dev.zarrj.store.zip.internal;

import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Run in a child JVM by {@link UnclosedWriterGuardTest}: opens an archive for writing, sets one
 * key, closes the store only when the second argument is {@code close}, and exits. Standard error
 * goes to standard output, so that the parent reads both in order.
 */
public final class UnclosedWriterMain {
    private UnclosedWriterMain() {}

    public static void main(String[] args) {
        System.setErr(System.out);
        ZipStore s = ZipStore.open(Path.of(args[0]), "", ZipStore.Mode.UPDATE, ZipStoreOptions.defaults());
        s.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(new byte[] {'{', '}'}));
        if (args[1].equals("close")) {
            s.close();
        }
        System.out.println("done");
    }
}
