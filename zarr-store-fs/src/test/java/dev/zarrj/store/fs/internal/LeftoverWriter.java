package dev.zarrj.store.fs.internal;

import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A child process for {@link FileStoreLeftoversTest}: writes large values to {@code c/0} …
 * {@code c/3} of the store at {@code args[0]} in a loop until it is killed, each value
 * {@code args[1]} bytes all equal to its round number. Prints {@code ready} after the first round;
 * ends when its standard input ends, so that it does not outlive the test.
 */
public final class LeftoverWriter {
    private LeftoverWriter() {}

    public static void main(String[] args) {
        Thread parentWatch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is sent: end of input means the test is over or gone
                }
            } catch (java.io.IOException e) {
                // the same
            }
            Runtime.getRuntime().halt(3);
        });
        parentWatch.setDaemon(true);
        parentWatch.start();
        FileStore store = new FileStore(Path.of(args[0]), false, false);
        int size = Integer.parseInt(args[1]);
        ByteBuffer value = ByteBuffer.allocateDirect(size);
        for (int round = 0; ; round++) {
            byte b = (byte) round;
            for (int i = 0; i < size; i++) {
                value.put(i, b);
            }
            for (int k = 0; k < 4; k++) {
                store.set(StoreKey.of("c/" + k), value);
            }
            if (round == 0) {
                System.out.println("ready");
                System.out.flush();
            }
        }
    }
}
