package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * Memory a caller lends a codec to encode into, so that a write of many chunks reuses its output
 * buffers instead of allocating (and zeroing) new ones for every chunk.
 *
 * <p>The contract, for a codec given a lender: call {@link #borrow} for each buffer you need, any
 * number of times and from any thread, and write your output there. You may return a result that
 * lies in a borrowed buffer or in memory of your own; a bytes→bytes codec never returns its
 * input's memory, while an array→bytes codec may return a view of the input array where
 * {@code encode} without a lender would (as {@code bytes} in native order does). The caller takes
 * back every buffer it lent once it is done with your result, so keep no reference to one after
 * you return. A codec that ignores the lender and allocates is correct, only slower.
 *
 * @since 0.1
 */
@FunctionalInterface
@API(status = EXPERIMENTAL, since = "0.1")
public interface BufferLender {
    /**
     * A buffer with position 0 and at least {@code size} bytes remaining, heap or direct, whose
     * content is unspecified (not zeroed).
     */
    ByteBuffer borrow(int size);

    /**
     * Takes back, before the caller is done with the result, a buffer this lender lent: the codec
     * has copied out what it needed and keeps no view of it, and its result does not lie in it. A
     * codec that encodes many pieces and then copies them into one result (sharding's inner
     * chunks into the shard) gives the pieces back, so that a write holds the memory of its
     * results only, not of every piece as well, while the results await the store.
     *
     * <p>Optional for both sides: a codec need not call it, and a lender may ignore it (the
     * default does; the buffer is then taken back with the rest).
     *
     * @param buffer the very buffer {@link #borrow} returned (not a view of it), at most once
     * @throws IllegalArgumentException from a lender that checks, when it did not lend {@code buffer}
     *                                  or already has it back
     * @since 0.1
     */
    default void giveBack(ByteBuffer buffer) {}

    /** A lender that allocates a new heap buffer for every request and takes nothing back. */
    static BufferLender allocating() {
        return ByteBuffer::allocate;
    }
}
