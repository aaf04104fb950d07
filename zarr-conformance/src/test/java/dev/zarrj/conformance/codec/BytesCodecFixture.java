package dev.zarrj.conformance.codec;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.Region;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayRegionEncoder;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;

/**
 * A plain, correct re-implementation of the {@code bytes} codec (registered under that name, the
 * way a third party would replace the built-in one), and copies of it with one defect each.
 */
final class BytesCodecFixture implements ArrayToBytesCodec {
    /** What is wrong with a copy, and the rule it breaks. */
    enum Defect {
        /** Nothing: passes every rule (the control). */
        NONE,
        /** Refuses a missing {@code endian} with IllegalArgumentException instead of InvalidMetadataException: AB01. */
        REFUSES_WITH_WRONG_EXCEPTION,
        /** Decodes input longer than the fixed size, ignoring the extra bytes: AB06. */
        ACCEPTS_LONGER_INPUT,
        /** Writes the platform's byte order whatever {@code endian} says: AB10. */
        IGNORES_ENDIANNESS,
        /** The partial decoder returns regions one element off: AB11. */
        BROKEN_PARTIAL_DECODE,
        /** decodeInto writes the region at the destination's origin, ignoring the offset asked for: AB13. */
        DECODE_INTO_IGNORES_OFFSET,
        /** The region encoder encodes the source's region at its origin, ignoring the offset: AB14. */
        ENCODE_REGION_IGNORES_OFFSET,
        /** Encoding into lent memory returns the lent buffer whole, old bytes past the encoding included: AB15. */
        ENCODE_KEEPS_LENT_LIMIT,
        /** Encoding into lent memory gives the buffer its result lies in back to the lender: AB15. */
        GIVES_BACK_ITS_RESULT,
        /** Claims its encoding is as in memory whatever {@code endian} says: AB16. */
        CLAIMS_IN_MEMORY_WRONGLY,
        /** The partial decoder throws CorruptDataException when the value is absent: AB17. */
        PARTIAL_DECODE_THROWS_ON_ABSENT,
        /** The partial decoder declares an innerChunkShape one larger than the chunk's: AB19. */
        INNER_CHUNK_SHAPE_NOT_DIVIDING,
        /** Declares itself lossy, and decoding adds 1 to every byte, so no output is a fixed point: AB01. */
        LOSSY_WITHOUT_FIXED_POINT,
        /** Not a defect: declares itself lossy and decodes every byte with its lowest bit cleared, a fixed point. */
        LOSSY_WITH_FIXED_POINT
    }

    private final String endian;
    private final Defect defect;

    BytesCodecFixture(String endian, Defect defect) {
        this.endian = endian;
        this.defect = defect;
    }

    static CodecProvider provider(Defect defect) {
        return new CodecProvider() {
            @Override
            public String name() {
                return "bytes";
            }

            @Override
            public List<ObjectNode> exampleConfigurations() {
                return List.of(JsonNodeFactory.instance.objectNode().put("endian", "little"),
                        JsonNodeFactory.instance.objectNode().put("endian", "big"),
                        JsonNodeFactory.instance.objectNode());
            }

            @Override
            public Codec create(ExtensionConfig config, ProviderContext context) {
                config.rejectUnknownFields("endian");
                return new BytesCodecFixture(config.optionalStringField("endian", "little", "big").orElse(null), defect);
            }
        };
    }

    @Override
    public String name() {
        return "bytes";
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (endian != null) {
            node.put("endian", endian);
        }
        return node;
    }

    @Override
    public void checkSupported(ChunkSpec decoded) {
        if (endian == null && decoded.dataType().byteOrderUnit() > 1) {
            if (defect == Defect.REFUSES_WITH_WRONG_EXCEPTION) {
                throw new IllegalArgumentException("endian required");
            }
            throw new InvalidMetadataException("/configuration/endian", "bytes: endian required");
        }
    }

    @Override
    public EncodedSize encodedSize(ChunkSpec decoded) {
        return EncodedSize.fixed(decoded.byteSize());
    }

    private boolean swaps(ChunkSpec spec) {
        if (defect == Defect.IGNORES_ENDIANNESS || spec.dataType().byteOrderUnit() <= 1) {
            return false;
        }
        ByteOrder order = endian.equals("big") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        return order != ByteOrder.nativeOrder();
    }

    private static byte[] swap(byte[] b, int unit) {
        byte[] out = new byte[b.length];
        for (int o = 0; o < b.length; o += unit) {
            for (int k = 0; k < unit; k++) {
                out[o + k] = b[o + unit - 1 - k];
            }
        }
        return out;
    }

    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded) {
        checkSupported(decoded);
        byte[] b = new byte[array.byteSize()];
        array.bytes().get(b);
        return ByteBuffer.wrap(swaps(decoded) ? swap(b, decoded.dataType().byteOrderUnit()) : b);
    }

    /** The copy that breaks AB14 and the control have one; the others do not, so that they break one rule each. */
    @Override
    public Optional<ArrayRegionEncoder> regionEncoder(ChunkSpec decoded) {
        if (defect != Defect.NONE && defect != Defect.ENCODE_REGION_IGNORES_OFFSET) {
            return Optional.empty();
        }
        return Optional.of((source, region, lender) -> encode(source.region(
                defect == Defect.ENCODE_REGION_IGNORES_OFFSET ? region.at(new long[region.rank()]) : region), decoded));
    }

    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded, BufferLender lender) {
        ByteBuffer e = encode(array, decoded);
        ByteBuffer out = lender.borrow(e.remaining());
        out.put(0, e, e.position(), e.remaining());
        if (defect == Defect.GIVES_BACK_ITS_RESULT) {
            lender.giveBack(out);
        }
        return defect == Defect.ENCODE_KEEPS_LENT_LIMIT ? out : out.slice(0, e.remaining());
    }

    @Override
    public boolean encodesAsInMemory(ChunkSpec decoded) {
        return defect == Defect.CLAIMS_IN_MEMORY_WRONGLY || (endian != null || decoded.dataType().byteOrderUnit() <= 1)
                && !swaps(decoded);
    }

    @Override
    public void decodeInto(ByteBuffer encoded, ChunkSpec decoded, Region region, NdArray destination,
                           long[] destinationOffset) {
        long[] at = defect == Defect.DECODE_INTO_IGNORES_OFFSET ? new long[region.rank()] : destinationOffset;
        ArrayToBytesCodec.super.decodeInto(encoded, decoded, region, destination, at);
    }

    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        checkSupported(decoded);
        long n = decoded.byteSize();
        boolean wrong = defect == Defect.ACCEPTS_LONGER_INPUT ? encoded.remaining() < n : encoded.remaining() != n;
        if (wrong) {
            throw new CorruptDataException("bytes: " + encoded.remaining() + " bytes, expected " + n);
        }
        byte[] b = new byte[(int) n];
        encoded.duplicate().get(b);
        byte[] out = swaps(decoded) ? swap(b, decoded.dataType().byteOrderUnit()) : b;
        if (defect == Defect.LOSSY_WITHOUT_FIXED_POINT) {
            for (int i = 0; i < out.length; i++) {
                out[i]++;
            }
        } else if (defect == Defect.LOSSY_WITH_FIXED_POINT) {
            for (int i = 0; i < out.length; i++) {
                out[i] &= ~1;
            }
        }
        return NdArray.wrap(decoded.dataType(), ByteBuffer.wrap(out), decoded.shape());
    }

    @Override
    public boolean lossless() {
        return defect != Defect.LOSSY_WITHOUT_FIXED_POINT && defect != Defect.LOSSY_WITH_FIXED_POINT;
    }

    /** The copies that break AB11 and AB17 and the control have one; the others do not. */
    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ByteSource input, ChunkSpec decoded) {
        if (defect != Defect.NONE && defect != Defect.BROKEN_PARTIAL_DECODE
                && defect != Defect.PARTIAL_DECODE_THROWS_ON_ABSENT && defect != Defect.INNER_CHUNK_SHAPE_NOT_DIVIDING) {
            return Optional.empty();
        }
        ArrayPartialDecoder regions = region -> {
            Optional<ByteBuffer> bytes = input.read(ByteRange.all());
            if (defect == Defect.PARTIAL_DECODE_THROWS_ON_ABSENT && bytes.isEmpty()) {
                throw new CorruptDataException("bytes: the value is missing");
            }
            return bytes.map(b -> {
                long[] o = region.offset();
                if (defect == Defect.BROKEN_PARTIAL_DECODE && o.length > 0 && o[o.length - 1] > 0) {
                    o[o.length - 1]--;
                }
                return decode(b, decoded).region(region.at(o));
            });
        };
        if (defect != Defect.NONE && defect != Defect.INNER_CHUNK_SHAPE_NOT_DIVIDING) {
            return Optional.of(regions);
        }
        // The control declares pieces of each dimension's smallest divisor above 1 (AB19).
        long[] inner = decoded.shape();
        for (int d = 0; d < inner.length; d++) {
            long s = inner[d];
            long p = 2;
            while (p < s && s % p != 0) {
                p++;
            }
            inner[d] = s <= 1 ? Math.max(s, 1) : p;
            if (defect == Defect.INNER_CHUNK_SHAPE_NOT_DIVIDING && s > 1) {
                inner[d] = s + 1;
            }
        }
        return Optional.of(new ArrayPartialDecoder() {
            @Override
            public Optional<NdArray> decode(Region region) {
                return regions.decode(region);
            }

            @Override
            public Optional<long[]> innerChunkShape() {
                return Optional.of(inner.clone());
            }
        });
    }
}
