package dev.zarrj.api.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BytesToBytesCodecTest {

    @Test
    void fixedSizeMustMatchExactly() {
        assertDoesNotThrow(() -> BytesToBytesCodec.checkDecodedSize("gzip", 10, EncodedSize.fixed(10)));
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> BytesToBytesCodec.checkDecodedSize("gzip", 9, EncodedSize.fixed(10)));
        assertTrue(e.getMessage().contains("gzip: decoded 9 bytes, expected 10"), e.getMessage());
        assertThrows(CorruptDataException.class, () -> BytesToBytesCodec.checkDecodedSize("gzip", 11, EncodedSize.fixed(10)));
    }

    @Test
    void boundedSizeIsAnUpperLimit() {
        assertDoesNotThrow(() -> BytesToBytesCodec.checkDecodedSize("zstd", 0, EncodedSize.bounded(10)));
        assertDoesNotThrow(() -> BytesToBytesCodec.checkDecodedSize("zstd", 10, EncodedSize.bounded(10)));
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> BytesToBytesCodec.checkDecodedSize("zstd", 11, EncodedSize.bounded(10)));
        assertTrue(e.getMessage().contains("zstd") && e.getMessage().contains("10 bytes"), e.getMessage());
    }

    @Test
    void unboundedAllowsAnything() {
        assertDoesNotThrow(() -> BytesToBytesCodec.checkDecodedSize("x", 0, EncodedSize.unbounded()));
        assertDoesNotThrow(() -> BytesToBytesCodec.checkDecodedSize("x", Long.MAX_VALUE, EncodedSize.unbounded()));
    }

    /** Reverses bytes; counts decodes. */
    static final class Reverse implements BytesToBytesCodec {
        final AtomicInteger decodes = new AtomicInteger();

        @Override public String name() { return "reverse"; }
        @Override public ObjectNode configuration() { return JsonNodeFactory.instance.objectNode(); }
        @Override public EncodedSize encodedSize(EncodedSize decoded) { return decoded; }

        @Override
        public ByteBuffer encode(ByteBuffer decoded) {
            byte[] b = new byte[decoded.remaining()];
            decoded.duplicate().get(b);
            for (int i = 0; i < b.length / 2; i++) {
                byte t = b[i];
                b[i] = b[b.length - 1 - i];
                b[b.length - 1 - i] = t;
            }
            return ByteBuffer.wrap(b);
        }

        @Override
        public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
            decodes.incrementAndGet();
            BytesToBytesCodec.checkDecodedSize(name(), encoded.remaining(), decodedSize);
            return encode(encoded);
        }
    }

    @Test
    void noPartialDecoderByDefault() {
        AtomicInteger reads = new AtomicInteger();
        ByteSource counting = range -> {
            reads.incrementAndGet();
            return Optional.of(ByteBuffer.allocate(6));
        };
        assertTrue(new Reverse().partialDecoder(counting, EncodedSize.fixed(6)).isEmpty());
        assertEquals(0, reads.get(), "asking reads nothing");
    }
}
