package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.function.IntConsumer;
import org.apiguardian.api.API;

/**
 * Runs the independent pieces of one operation (the inner chunks of a shard, say) in parallel,
 * within the thread budget of the zarrj instance that handed it out (see
 * {@link ProviderContext#tasks()}).
 *
 * <p>An implementation must let the calling thread take part and must never wait for a piece that
 * no thread has started. Then a codec may call {@link #forEach} from inside a chunk task, at any
 * depth of nesting, on any executor, without deadlock.
 *
 * @since 0.1
 */
@FunctionalInterface
@API(status = EXPERIMENTAL, since = "0.1")
public interface TaskRunner {
    /**
     * Runs {@code task} for every index in {@code [0, n)} and returns when every piece that was
     * started has finished. Once one piece has failed, pieces not yet started are skipped, and the
     * first failure is rethrown as it was thrown. The pieces may run in any order and on any
     * thread, the caller's included.
     *
     * @param n    how many pieces; nothing runs when it is zero or less
     * @param task the piece, given its index
     */
    void forEach(int n, IntConsumer task);

    /**
     * Whether the calling thread is running one piece of a {@link #forEach} call with several
     * pieces (one chunk among the chunks of a read), so that the other threads are likely busy
     * with pieces of their own. A codec that can split one large value into pieces of its
     * own (the blocks of a blosc frame) splits it only when this is false: the value is then all
     * there is to do, and splitting gives it the whole budget. False by default.
     *
     * @since 0.1
     */
    default boolean inPiece() {
        return false;
    }

    /** Runs every piece in the calling thread, in index order: for codecs created outside zarrj. */
    static TaskRunner sequential() {
        return (n, task) -> {
            for (int i = 0; i < n; i++) {
                task.accept(i);
            }
        };
    }
}
