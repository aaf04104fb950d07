package dev.zarrj.store.fs.internal;

import dev.zarrj.api.store.StoreKey;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child process for {@link FileStoreConditionalTest}: holds the lock of key {@code args[1]} of
 * the store at {@code args[0]} as a conditional writer of another process would, prints
 * {@code locked}, and on the line {@code change} from its standard input stores
 * {@code args[2]} under the key, deletes the lock file, releases it, prints {@code released}
 * and ends. Ends (halts) when its standard input ends.
 */
public final class KeyLockHolder {
    private KeyLockHolder() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        StoreKey key = StoreKey.of(args[1]);
        FileStore store = new FileStore(root, false, false);
        Path target = root.resolve(key.value());
        Path lockFile = target.resolveSibling(FileStore.lockName(target.getFileName().toString()));
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.lock();
            System.out.println("locked");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line = in.readLine();
            if (!"change".equals(line)) {
                Runtime.getRuntime().halt(3);
            }
            store.set(key, ByteBuffer.wrap(args[2].getBytes(StandardCharsets.UTF_8)));
            Files.delete(lockFile);
        }
        System.out.println("released");
        System.out.flush();
    }
}
