package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * The memory side of one read ({@link Store#getLent}): buffers the caller lends the store to read
 * into, and the store's way to lend the caller memory of its own (a file mapped rather than
 * read) until the caller is done with the value.
 *
 * <p>The caller runs every action registered with {@link #onRelease} exactly once, after its
 * last use of the value and of every view of it, and returns the buffers {@link #allocate} gave
 * at the same time. Until then the store keeps what it lent valid.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ReadMemory {
    /**
     * A buffer with position 0 and at least {@code size} bytes remaining, heap or direct, whose
     * content is unspecified (not zeroed).
     */
    ByteBuffer allocate(int size);

    /**
     * Has the caller run {@code release} when it is done with the value: the store gives back
     * what the value's memory holds (unmaps a file), which must not be read after.
     */
    void onRelease(Runnable release);
}
