package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/**
 * {@code numcodecs.bz2}: a bzip2 stream, as numcodecs' {@code BZ2} writes with Python's
 * {@code bz2.compress(data, level)} (commons-compress's bzip2).
 *
 * <p>Configuration: {@code level}, the block size in units of 100 kB, 1 to 9; numcodecs' default
 * is 1. Decoding accepts concatenated streams, as Python's {@code bz2.decompress} does, and checks
 * every block's and stream's CRC. Immutable and thread-safe.
 *
 * @param level the block size, 1 to 9
 */
record Bz2Codec(int level) implements BytesToBytesCodec {
    static final String NAME = "numcodecs.bz2";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put("level", level);
    }

    /** bzip2's documented worst case: 1 % larger plus 600 bytes. */
    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        return Buffers.bound(decoded, n -> n + n / 100 + 600 + 64);
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        Buffers.Out out = new Buffers.Out(decoded.remaining() / 2 + 64);
        byte[] data = Buffers.toArray(decoded);
        try (BZip2CompressorOutputStream bz = new BZip2CompressorOutputStream(out, level)) {
            bz.write(data);
        } catch (IOException e) {
            // Writes go to memory; only the library's own checks of its options can fail here.
            throw new ZarrException("ZARR-CODEC", NAME + ": cannot encode: " + Buffers.describe(e), e);
        }
        return out.result();
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        return Buffers.readAll(NAME, () -> new BZip2CompressorInputStream(Buffers.in(encoded), true), decodedSize,
                encoded.remaining());
    }
}
