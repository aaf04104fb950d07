package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import java.nio.ByteBuffer;
import java.util.OptionalInt;

/**
 * {@code numcodecs.shuffle}: numcodecs' {@code Shuffle}, the byte shuffle of blosc without
 * compression. The bytes of {@code n} elements of {@code elementsize} bytes are written as
 * {@code elementsize} planes: first byte 0 of every element, then byte 1, and so on. An element
 * size of 0 or 1 leaves the bytes as they are.
 *
 * <p>Configuration: {@code elementsize}, numcodecs' default 4; zarr-python sets it to the data
 * type's size, and so does zarrj when an array is created without it. A value whose length is not
 * a multiple of the element size is refused. Immutable and thread-safe.
 *
 * @param elementsize the configured element size, if any
 * @param pointer     the configuration's JSON pointer, for messages
 */
record ShuffleCodec(OptionalInt elementsize, String pointer) implements BytesToBytesCodec {
    static final String NAME = "numcodecs.shuffle";
    static final int DEFAULT = 4;

    int size() {
        return elementsize.orElse(DEFAULT);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        elementsize.ifPresent(e -> node.put("elementsize", e));
        return node;
    }

    /** Records the element size as zarr-python does: the size of the data type reaching this codec. */
    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        return elementsize.isPresent() ? this : new ShuffleCodec(OptionalInt.of(decoded.dataType().size()), pointer);
    }

    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        return decoded;
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        int es = size();
        int n = decoded.remaining();
        if (es > 1 && n % es != 0) {
            throw new InvalidMetadataException(pointer + "/elementsize", NAME + ": " + n + " bytes are not a whole"
                    + " number of " + es + "-byte elements; set 'elementsize' to the data type's size");
        }
        return shuffle(decoded.slice(), es, true);
    }

    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        return EncodedSize.fixed(encoded.remaining());
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        int es = size();
        int n = encoded.remaining();
        BytesToBytesCodec.checkDecodedSize(NAME, n, decodedSize);
        if (es > 1 && n % es != 0) {
            throw new CorruptDataException(NAME + ": " + n + " bytes are not a whole number of " + es + "-byte"
                    + " elements");
        }
        return shuffle(encoded.slice(), es, false);
    }

    private static ByteBuffer shuffle(ByteBuffer in, int es, boolean forward) {
        int n = in.remaining();
        byte[] out = new byte[n];
        if (es <= 1) {
            in.get(0, out);
            return ByteBuffer.wrap(out);
        }
        int count = n / es;
        byte[] src = new byte[n];
        in.get(0, src);
        for (int i = 0; i < count; i++) {
            int element = i * es;
            for (int b = 0; b < es; b++) {
                if (forward) {
                    out[b * count + i] = src[element + b];
                } else {
                    out[element + b] = src[b * count + i];
                }
            }
        }
        return ByteBuffer.wrap(out);
    }
}
