package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.InsufficientMemoryException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.StoreKey;

/**
 * What a user sees when reading or writing a chunk of one array fails: a store failure as the
 * store reported it, a codec's failure as a {@link ChunkDecodeException} naming the key, and a
 * lack of memory as an {@link InsufficientMemoryException} naming the chunk and the array
 * ({@code "reading chunk 'a/c/0' of array '/a'"}), never an {@link OutOfMemoryError}.
 */
final class ChunkErrors {
    private final String array;

    /** @param prefix the array's key prefix ({@code ""} for a root array, else ending in {@code /}) */
    ChunkErrors(String prefix) {
        this.array = "/" + (prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
    }

    /** A chunk for messages: {@code "reading chunk 'a/c/0' of array '/a'"}. */
    String describe(String doing, StoreKey key) {
        return doing + " chunk '" + key.value() + "' of array '" + array + "'";
    }

    /**
     * Chunks for messages: {@code "reading chunks 'a/c/0/0', 'a/c/0/1' of array '/a'"}; one as
     * {@link #describe(String, StoreKey)} does.
     */
    String describe(String doing, StoreKey[] keys) {
        if (keys.length == 1) {
            return describe(doing, keys[0]);
        }
        StringBuilder b = new StringBuilder(doing).append(" chunks ");
        for (int i = 0; i < keys.length; i++) {
            b.append(i == 0 ? "'" : ", '").append(keys[i].value()).append('\'');
        }
        return b.append(" of array '").append(array).append('\'').toString();
    }

    /**
     * What to throw for {@code e}, thrown while reading the chunk at {@code key}.
     *
     * @param e          a {@link RuntimeException} or an {@link OutOfMemoryError}
     * @param chunkBytes the decoded size of the chunk, for a lack of memory
     */
    RuntimeException reading(StoreKey key, long chunkBytes, Throwable e) {
        if (e instanceof StoreException || e instanceof ChunkDecodeException) {
            return (RuntimeException) e;
        }
        RuntimeException memory = memory("reading", key, chunkBytes, e);
        if (memory != null) {
            return memory;
        }
        return decoding(key, (RuntimeException) e);
    }

    /**
     * What to throw for {@code e}, thrown while writing the chunk at {@code key}: a lack of memory
     * names the chunk, and so does a codec's refusal of the values (an
     * {@link IllegalArgumentException}, such as a string with no UTF-8 form); anything else goes
     * on as it is.
     *
     * @param e a {@link RuntimeException} or an {@link OutOfMemoryError}
     */
    RuntimeException writing(StoreKey key, long chunkBytes, Throwable e) {
        RuntimeException memory = memory("writing", key, chunkBytes, e);
        if (memory != null) {
            return memory;
        }
        if (e instanceof IllegalArgumentException refused
                && !String.valueOf(refused.getMessage()).contains("'" + key.value() + "'")) {
            return new IllegalArgumentException(describe("writing", key) + ": " + refused.getMessage(), refused);
        }
        return (RuntimeException) e;
    }

    /**
     * What to throw for {@code e}, thrown by a codec on the stored value of {@code key}: a
     * {@link ChunkDecodeException} for a failure of a codec ({@link ZarrException},
     * {@link IllegalArgumentException}, {@link IndexOutOfBoundsException}), while a store's
     * failure and anything else go on as they are.
     */
    static RuntimeException decoding(StoreKey key, RuntimeException e) {
        if (e instanceof StoreException) {
            return e;
        }
        if (e instanceof ZarrException || e instanceof IllegalArgumentException
                || e instanceof IndexOutOfBoundsException) {
            return new ChunkDecodeException(key.value(), e);
        }
        return e;
    }

    /** An {@link InsufficientMemoryException} naming the chunk when {@code e} is a lack of memory, else null. */
    private RuntimeException memory(String doing, StoreKey key, long chunkBytes, Throwable e) {
        if (e instanceof InsufficientMemoryException m) {
            return m.reading(describe(doing, key));
        }
        if (e instanceof OutOfMemoryError oom) {
            return new InsufficientMemoryException(describe(doing, key), chunkBytes, oom);
        }
        return null;
    }
}
