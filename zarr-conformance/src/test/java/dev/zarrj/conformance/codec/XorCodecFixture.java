package dev.zarrj.conformance.codec;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A small, correct bytes→bytes codec for proving the kit, and copies of it with one defect each.
 *
 * <p>Format: a 4-byte little-endian payload length, a version byte (1), a salt byte (0), then the
 * payload with each byte XORed with {@code key ^ salt}. Configuration: {@code {"key": 0..255}},
 * default 0. It has no checksum, so flipped payload bits decode to other bytes of the right size,
 * which BB08 allows.
 */
final class XorCodecFixture implements BytesToBytesCodec {
    /** What is wrong with a copy, and the rule it breaks. */
    enum Defect {
        /** Nothing: passes every rule (the control). */
        NONE,
        /** Encode drops the last payload byte: BB01. */
        DROPS_LAST_BYTE,
        /** Reads {@code array()} from index 0, ignoring position, offset, direct and read-only buffers: BB02. */
        IGNORES_BUFFER_POSITION,
        /** Declares the payload size as the encoded size, forgetting the header: BB03. */
        LIES_ABOUT_SIZE,
        /** {@code configuration()} leaves out {@code key}: BB04. */
        LOSES_CONFIG_FIELD,
        /** Writes a random salt: BB05. */
        NONDETERMINISTIC,
        /** Never compares the decoded size with the one it is given: BB06. */
        IGNORES_DECODED_SIZE,
        /** Throws IllegalStateException for input shorter than the header: BB07. */
        THROWS_ON_SHORT_INPUT,
        /** Throws IllegalArgumentException for an unknown version byte: BB08. */
        THROWS_ON_BAD_VERSION,
        /** Encodes through one scratch array shared by all threads: BB09. */
        THREAD_UNSAFE,
        /** The partial decoder reads suffix ranges from the start: BB11. */
        BROKEN_PARTIAL_DECODE,
        /** decodeInto writes from index 0 of the destination, ignoring its position: BB13. */
        DECODE_INTO_IGNORES_POSITION,
        /** Encoding into lent memory returns the lent buffer whole, old bytes past the encoding included: BB14. */
        ENCODE_KEEPS_LENT_LIMIT,
        /** decodedSize reads the header's length one too high: BB15. */
        DECODED_SIZE_OFF_BY_ONE,
        /** The partial decoder throws CorruptDataException when the value is absent: BB16. */
        PARTIAL_DECODE_THROWS_ON_ABSENT,
        /** decodePrefixInto starts a prefix at the payload's second byte: BB17. */
        PREFIX_FROM_SECOND_BYTE
    }

    static final String NAME = "xor-fixture";
    private static final int HEADER = 6;

    private final int key;
    private final Defect defect;
    private byte[] scratch = new byte[0];

    XorCodecFixture(int key, Defect defect) {
        this.key = key;
        this.defect = defect;
    }

    /** The provider of one defect. */
    static CodecProvider provider(Defect defect) {
        return new CodecProvider() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public List<ObjectNode> exampleConfigurations() {
                return List.of(JsonNodeFactory.instance.objectNode().put("key", 0x5A),
                        JsonNodeFactory.instance.objectNode().put("key", 0xC3));
            }

            @Override
            public Codec create(ExtensionConfig config, ProviderContext context) {
                config.rejectUnknownFields("key");
                return new XorCodecFixture(config.intField("key", 0, 255, 0), defect);
            }
        };
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (defect != Defect.LOSES_CONFIG_FIELD) {
            node.put("key", key);
        }
        return node;
    }

    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        int header = defect == Defect.LIES_ABOUT_SIZE ? 0 : HEADER;
        if (decoded instanceof EncodedSize.Fixed f) {
            return EncodedSize.fixed(f.bytes() + header);
        }
        if (decoded instanceof EncodedSize.Bounded b) {
            return EncodedSize.bounded(b.maxBytes() + header);
        }
        return EncodedSize.unbounded();
    }

    private byte[] read(ByteBuffer b) {
        if (defect == Defect.IGNORES_BUFFER_POSITION) {
            return java.util.Arrays.copyOf(b.array(), b.remaining());
        }
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded, BufferLender lender) {
        ByteBuffer e = encode(decoded);
        ByteBuffer out = lender.borrow(e.remaining());
        out.put(0, e, e.position(), e.remaining());
        return defect == Defect.ENCODE_KEEPS_LENT_LIMIT ? out : out.slice(0, e.remaining());
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        byte[] in = read(decoded);
        int n = defect == Defect.DROPS_LAST_BYTE && in.length > 0 ? in.length - 1 : in.length;
        int salt = defect == Defect.NONDETERMINISTIC ? ThreadLocalRandom.current().nextInt(1, 256) : 0;
        byte[] out;
        if (defect == Defect.THREAD_UNSAFE) {
            synchronized (this) {
                if (scratch.length < HEADER + n) {
                    scratch = new byte[HEADER + n];
                }
            }
            out = scratch;
        } else {
            out = new byte[HEADER + n];
        }
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(0, in.length);
        out[4] = 1;
        out[5] = (byte) salt;
        for (int i = 0; i < n; i++) {
            out[HEADER + i] = (byte) (in[i] ^ key ^ salt);
        }
        if (defect == Defect.THREAD_UNSAFE) {
            try {
                Thread.sleep(1); // another thread overwrites the shared scratch meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ByteBuffer.wrap(java.util.Arrays.copyOf(out, HEADER + n));
        }
        return ByteBuffer.wrap(out);
    }

    /** The header's payload length, exactly; unknown for input shorter than the header. */
    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        if (encoded.remaining() < HEADER) {
            return EncodedSize.unbounded();
        }
        int length = encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(encoded.position());
        return EncodedSize.fixed(Integer.toUnsignedLong(length) + (defect == Defect.DECODED_SIZE_OFF_BY_ONE ? 1 : 0));
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        if (encoded.remaining() < HEADER && defect == Defect.THROWS_ON_SHORT_INPUT) {
            throw new IllegalStateException("short input");
        }
        if (encoded.remaining() < HEADER) {
            throw new CorruptDataException(NAME + ": " + encoded.remaining() + " bytes, shorter than the header");
        }
        byte[] in = read(encoded);
        int length = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        if (in[4] != 1) {
            if (defect == Defect.THROWS_ON_BAD_VERSION) {
                throw new IllegalArgumentException("version " + in[4]);
            }
            throw new CorruptDataException(NAME + ": unknown version " + in[4]);
        }
        if (length != in.length - HEADER) {
            throw new CorruptDataException(NAME + ": the header says " + length + " bytes, found "
                    + (in.length - HEADER));
        }
        if (defect != Defect.IGNORES_DECODED_SIZE) {
            BytesToBytesCodec.checkDecodedSize(NAME, length, decodedSize);
        }
        int salt = in[5];
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (in[HEADER + i] ^ key ^ salt);
        }
        return ByteBuffer.wrap(out);
    }

    @Override
    public void decodeInto(ByteBuffer encoded, ByteBuffer destination) {
        if (defect != Defect.DECODE_INTO_IGNORES_POSITION) {
            BytesToBytesCodec.super.decodeInto(encoded, destination);
            return;
        }
        ByteBuffer decoded = decode(encoded, EncodedSize.fixed(destination.remaining()));
        destination.put(0, decoded, 0, decoded.remaining());
    }

    /** The control and the copy that breaks BB17 decode prefixes; the others cannot. */
    @Override
    public boolean decodePrefixInto(ByteBuffer encoded, ByteBuffer destination, int decodedSize) {
        if (defect != Defect.NONE && defect != Defect.PREFIX_FROM_SECOND_BYTE) {
            return false;
        }
        ByteBuffer decoded = decode(encoded, EncodedSize.fixed(decodedSize));
        int k = destination.remaining();
        int from = defect == Defect.PREFIX_FROM_SECOND_BYTE && k < decodedSize ? 1 : 0;
        destination.put(destination.position(), decoded, decoded.position() + from, k);
        return true;
    }

    /** The copies that break BB11 and BB16 and the control have one; the others do not. */
    @Override
    public Optional<ByteSource> partialDecoder(ByteSource input, EncodedSize decodedSize) {
        if (defect != Defect.NONE && defect != Defect.BROKEN_PARTIAL_DECODE
                && defect != Defect.PARTIAL_DECODE_THROWS_ON_ABSENT) {
            return Optional.empty();
        }
        return Optional.of(new ByteSource() {
            private Optional<ByteSource> whole() {
                Optional<ByteBuffer> all = input.read(ByteRange.all());
                if (defect == Defect.PARTIAL_DECODE_THROWS_ON_ABSENT && all.isEmpty()) {
                    throw new CorruptDataException(NAME + ": the value is missing");
                }
                return all.map(a -> ByteSource.of(decode(a, decodedSize)));
            }

            @Override
            public Optional<ByteBuffer> read(ByteRange range) {
                ByteRange r = defect == Defect.BROKEN_PARTIAL_DECODE && range instanceof ByteRange.Suffix s
                        ? ByteRange.of(0, s.length()) : range;
                return whole().flatMap(w -> w.read(r));
            }

            @Override
            public OptionalLong size() {
                return decodedSize instanceof EncodedSize.Fixed f ? OptionalLong.of(f.bytes()) : OptionalLong.empty();
            }
        });
    }
}
