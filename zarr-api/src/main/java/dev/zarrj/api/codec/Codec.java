package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.Extension;
import org.apiguardian.api.API;

/**
 * One step of a chunk's codec chain, of one of the spec's three kinds: array→array,
 * array→bytes, bytes→bytes.
 *
 * <p>Codecs are immutable and thread-safe and hold no array state: the decoded representation
 * ({@link ChunkSpec}) arrives with every call. Buffers passed in are not modified; a decoded result
 * may share the encoded input's memory, so callers hand over ownership of what they pass to
 * {@code decode}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface Codec extends Extension permits ArrayToArrayCodec, ArrayToBytesCodec, BytesToBytesCodec {
    /**
     * This codec with any defaults that depend on the decoded representation filled in, as they
     * should be recorded in new metadata (for example blosc's {@code typesize}). Called when an
     * array is created. Returns {@code this} by default.
     */
    default Codec resolveDefaults(ChunkSpec decoded) {
        return this;
    }

    /**
     * Whether decode gives back exactly what encode was given. A lossy codec ({@code bitround},
     * quantisers) returns false; its decoded output must then be a fixed point: encoding and
     * decoding it again changes nothing. True by default.
     */
    default boolean lossless() {
        return true;
    }
}
