package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The pipeline refuses encoded bytes whose own account of their decoded size
 * ({@link BytesToBytesCodec#decodedSize(ByteBuffer)}) cannot be what the metadata promises, before
 * memory is allocated for them; small sizes are not worth asking about.
 */
class ClaimedSizeTest {
    /** A codec whose bytes always say {@code said}, counting the questions. */
    static final class Saying implements BytesToBytesCodec {
        final EncodedSize said;
        final AtomicInteger asked = new AtomicInteger();

        Saying(EncodedSize said) {
            this.said = said;
        }

        @Override
        public String name() {
            return "saying";
        }

        @Override
        public ObjectNode configuration() {
            return JsonNodeFactory.instance.objectNode();
        }

        @Override
        public EncodedSize encodedSize(EncodedSize decoded) {
            return EncodedSize.unbounded();
        }

        @Override
        public ByteBuffer encode(ByteBuffer decoded) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
            throw new UnsupportedOperationException();
        }

        @Override
        public EncodedSize decodedSize(ByteBuffer encoded) {
            asked.incrementAndGet();
            return said;
        }
    }

    private static final ByteBuffer BYTES = ByteBuffer.allocate(522);
    private static final long BIG = 512L << 20;

    @Test
    void aFixedClaimMustBeTheSizeTheMetadataPromises() {
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> DefaultCodecChain.checkClaimedSize(new Saying(EncodedSize.fixed(512)), BYTES, EncodedSize.fixed(BIG)));
        assertTrue(e.getMessage().contains("saying: the 522 encoded bytes say they decode to 512 bytes, but the array's"
                + " metadata makes them 536870912 bytes; nothing was decoded"), e.getMessage());
        assertDoesNotThrow(() -> DefaultCodecChain.checkClaimedSize(new Saying(EncodedSize.fixed(BIG)), BYTES,
                EncodedSize.fixed(BIG)));
        assertThrows(CorruptDataException.class, () -> DefaultCodecChain.checkClaimedSize(
                new Saying(EncodedSize.fixed(BIG + 1)), BYTES, EncodedSize.bounded(BIG)));
    }

    @Test
    void aBoundMustReachThePromisedSize() {
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> DefaultCodecChain.checkClaimedSize(
                new Saying(EncodedSize.bounded(538_704)), BYTES, EncodedSize.fixed(BIG)));
        assertTrue(e.getMessage().contains("can decode to at most 538704 bytes"), e.getMessage());
        assertDoesNotThrow(() -> DefaultCodecChain.checkClaimedSize(new Saying(EncodedSize.bounded(BIG)), BYTES,
                EncodedSize.fixed(BIG)));
        assertDoesNotThrow(() -> DefaultCodecChain.checkClaimedSize(new Saying(EncodedSize.unbounded()), BYTES,
                EncodedSize.fixed(BIG)));
    }

    @Test
    void smallSizesAreNotAskedAbout() {
        Saying s = new Saying(EncodedSize.fixed(1));
        DefaultCodecChain.checkClaimedSize(s, BYTES, EncodedSize.fixed(DefaultCodecChain.CHECK_CLAIMS_FROM - 1));
        assertEquals(0, s.asked.get());
        assertThrows(CorruptDataException.class,
                () -> DefaultCodecChain.checkClaimedSize(s, BYTES, EncodedSize.fixed(DefaultCodecChain.CHECK_CLAIMS_FROM)));
        assertEquals(1, s.asked.get());
    }
}
