package dev.zarrj.conformance.codec;

import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.ArrayToArrayCodecContract;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import dev.zarrj.conformance.BytesToBytesCodecContract;
import dev.zarrj.conformance.internal.codec.Samples;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The kit's self-test fixtures: contract subclasses over deliberately broken codecs, each breaking
 * one rule, and over their correct originals. {@link CodecContractSelfTest} runs them with the
 * JUnit Platform test kit; Surefire never runs them itself (nested classes are excluded).
 */
final class BrokenCodecs {
    private BrokenCodecs() {}

    /** Fewer data types than the default, to keep the self-test quick; still every element size. */
    static final List<DataType> SOME_TYPES = List.of(DataTypes.UINT8, DataTypes.INT16, DataTypes.FLOAT32,
            DataTypes.COMPLEX128, DataTypes.raw(24));

    abstract static class Xor extends BytesToBytesCodecContract {
        private final XorCodecFixture.Defect defect;

        Xor(XorCodecFixture.Defect defect) {
            this.defect = defect;
        }

        @Override
        protected CodecProvider provider() {
            return XorCodecFixture.provider(defect);
        }

        @Override
        protected List<DataType> dataTypes() {
            return SOME_TYPES;
        }
    }

    static class XorCorrect extends Xor {
        XorCorrect() {
            super(XorCodecFixture.Defect.NONE);
        }
    }

    static class XorDropsLastByte extends Xor {
        XorDropsLastByte() {
            super(XorCodecFixture.Defect.DROPS_LAST_BYTE);
        }
    }

    static class XorIgnoresBufferPosition extends Xor {
        XorIgnoresBufferPosition() {
            super(XorCodecFixture.Defect.IGNORES_BUFFER_POSITION);
        }
    }

    static class XorLiesAboutSize extends Xor {
        XorLiesAboutSize() {
            super(XorCodecFixture.Defect.LIES_ABOUT_SIZE);
        }
    }

    static class XorLosesConfigField extends Xor {
        XorLosesConfigField() {
            super(XorCodecFixture.Defect.LOSES_CONFIG_FIELD);
        }
    }

    static class XorNondeterministic extends Xor {
        XorNondeterministic() {
            super(XorCodecFixture.Defect.NONDETERMINISTIC);
        }
    }

    static class XorIgnoresDecodedSize extends Xor {
        XorIgnoresDecodedSize() {
            super(XorCodecFixture.Defect.IGNORES_DECODED_SIZE);
        }
    }

    static class XorThrowsOnShortInput extends Xor {
        XorThrowsOnShortInput() {
            super(XorCodecFixture.Defect.THROWS_ON_SHORT_INPUT);
        }
    }

    static class XorThrowsOnBadVersion extends Xor {
        XorThrowsOnBadVersion() {
            super(XorCodecFixture.Defect.THROWS_ON_BAD_VERSION);
        }
    }

    static class XorThreadUnsafe extends Xor {
        XorThreadUnsafe() {
            super(XorCodecFixture.Defect.THREAD_UNSAFE);
        }

        @Override
        protected List<long[]> shapes(DataType dataType) {
            return List.of(new long[] {1}, new long[] {17}, new long[] {3, 5}, new long[] {16, 33, 9});
        }
    }

    static class XorBrokenPartialDecode extends Xor {
        XorBrokenPartialDecode() {
            super(XorCodecFixture.Defect.BROKEN_PARTIAL_DECODE);
        }
    }

    static class XorPrefixFromSecondByte extends Xor {
        XorPrefixFromSecondByte() {
            super(XorCodecFixture.Defect.PREFIX_FROM_SECOND_BYTE);
        }
    }

    static class XorDecodeIntoIgnoresPosition extends Xor {
        XorDecodeIntoIgnoresPosition() {
            super(XorCodecFixture.Defect.DECODE_INTO_IGNORES_POSITION);
        }
    }

    static class XorEncodeKeepsLentLimit extends Xor {
        XorEncodeKeepsLentLimit() {
            super(XorCodecFixture.Defect.ENCODE_KEEPS_LENT_LIMIT);
        }
    }

    static class XorDecodedSizeOffByOne extends Xor {
        XorDecodedSizeOffByOne() {
            super(XorCodecFixture.Defect.DECODED_SIZE_OFF_BY_ONE);
        }
    }

    static class XorPartialDecodeThrowsOnAbsent extends Xor {
        XorPartialDecodeThrowsOnAbsent() {
            super(XorCodecFixture.Defect.PARTIAL_DECODE_THROWS_ON_ABSENT);
        }
    }

    /** A correct codec that claims a checksum it does not have. */
    static class XorClaimsCorruptionDetection extends Xor {
        XorClaimsCorruptionDetection() {
            super(XorCodecFixture.Defect.NONE);
        }

        @Override
        protected boolean detectsCorruption(BytesToBytesCodec codec) {
            return true;
        }
    }

    /** A {@code crc32c} that stores its checksum big-endian: consistent with itself, wrong by the spec. */
    static class Crc32cBigEndian extends BytesToBytesCodecContract {
        @Override
        protected CodecProvider provider() {
            return new CodecProvider() {
                @Override
                public String name() {
                    return "crc32c";
                }

                @Override
                public dev.zarrj.api.codec.Codec create(dev.zarrj.api.ExtensionConfig config,
                                                        dev.zarrj.api.ProviderContext context) {
                    config.rejectUnknownFields();
                    return new BigEndianCrc32c();
                }
            };
        }

        @Override
        protected List<DataType> dataTypes() {
            return SOME_TYPES;
        }

        @Override
        protected boolean detectsCorruption(BytesToBytesCodec codec) {
            return true;
        }
    }

    static final class BigEndianCrc32c implements BytesToBytesCodec {
        @Override
        public String name() {
            return "crc32c";
        }

        @Override
        public com.fasterxml.jackson.databind.node.ObjectNode configuration() {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }

        @Override
        public dev.zarrj.api.EncodedSize encodedSize(dev.zarrj.api.EncodedSize decoded) {
            if (decoded instanceof dev.zarrj.api.EncodedSize.Fixed f) {
                return dev.zarrj.api.EncodedSize.fixed(f.bytes() + 4);
            }
            return decoded instanceof dev.zarrj.api.EncodedSize.Bounded b
                    ? dev.zarrj.api.EncodedSize.bounded(b.maxBytes() + 4) : dev.zarrj.api.EncodedSize.unbounded();
        }

        private static int crc(ByteBuffer b) {
            CRC32C c = new CRC32C();
            c.update(b.duplicate());
            return (int) c.getValue();
        }

        @Override
        public ByteBuffer encode(ByteBuffer decoded) {
            ByteBuffer out = ByteBuffer.allocate(decoded.remaining() + 4).order(ByteOrder.BIG_ENDIAN);
            out.put(decoded.duplicate()).putInt(crc(decoded));
            return out.flip();
        }

        @Override
        public ByteBuffer decode(ByteBuffer encoded, dev.zarrj.api.EncodedSize decodedSize) {
            int n = encoded.remaining() - 4;
            if (n < 0) {
                throw new dev.zarrj.api.CorruptDataException("crc32c: too short");
            }
            BytesToBytesCodec.checkDecodedSize("crc32c", n, decodedSize);
            ByteBuffer payload = encoded.slice(encoded.position(), n);
            if (encoded.duplicate().order(ByteOrder.BIG_ENDIAN).getInt(encoded.position() + n) != crc(payload)) {
                throw new dev.zarrj.api.ChecksumMismatchException("crc32c: mismatch");
            }
            return payload;
        }
    }

    abstract static class Bytes extends ArrayToBytesCodecContract {
        private final BytesCodecFixture.Defect defect;

        Bytes(BytesCodecFixture.Defect defect) {
            this.defect = defect;
        }

        @Override
        protected CodecProvider provider() {
            return BytesCodecFixture.provider(defect);
        }

        @Override
        protected List<DataType> dataTypes() {
            return SOME_TYPES;
        }
    }

    static class BytesCorrect extends Bytes {
        BytesCorrect() {
            super(BytesCodecFixture.Defect.NONE);
        }
    }

    static class BytesRefusesWithWrongException extends Bytes {
        BytesRefusesWithWrongException() {
            super(BytesCodecFixture.Defect.REFUSES_WITH_WRONG_EXCEPTION);
        }
    }

    /** Correct: a lossy array→bytes codec is checked on the fixed point of its samples. */
    static class BytesLossyWithFixedPoint extends Bytes {
        BytesLossyWithFixedPoint() {
            super(BytesCodecFixture.Defect.LOSSY_WITH_FIXED_POINT);
        }
    }

    static class BytesLossyWithoutFixedPoint extends Bytes {
        BytesLossyWithoutFixedPoint() {
            super(BytesCodecFixture.Defect.LOSSY_WITHOUT_FIXED_POINT);
        }
    }

    static class BytesAcceptsLongerInput extends Bytes {
        BytesAcceptsLongerInput() {
            super(BytesCodecFixture.Defect.ACCEPTS_LONGER_INPUT);
        }
    }

    static class BytesIgnoresEndianness extends Bytes {
        BytesIgnoresEndianness() {
            super(BytesCodecFixture.Defect.IGNORES_ENDIANNESS);
        }
    }

    static class BytesBrokenPartialDecode extends Bytes {
        BytesBrokenPartialDecode() {
            super(BytesCodecFixture.Defect.BROKEN_PARTIAL_DECODE);
        }
    }

    static class BytesDecodeIntoIgnoresOffset extends Bytes {
        BytesDecodeIntoIgnoresOffset() {
            super(BytesCodecFixture.Defect.DECODE_INTO_IGNORES_OFFSET);
        }
    }

    static class BytesEncodeRegionIgnoresOffset extends Bytes {
        BytesEncodeRegionIgnoresOffset() {
            super(BytesCodecFixture.Defect.ENCODE_REGION_IGNORES_OFFSET);
        }
    }

    static class BytesEncodeKeepsLentLimit extends Bytes {
        BytesEncodeKeepsLentLimit() {
            super(BytesCodecFixture.Defect.ENCODE_KEEPS_LENT_LIMIT);
        }
    }

    static class BytesGivesBackItsResult extends Bytes {
        BytesGivesBackItsResult() {
            super(BytesCodecFixture.Defect.GIVES_BACK_ITS_RESULT);
        }
    }

    static class BytesClaimsInMemoryWrongly extends Bytes {
        BytesClaimsInMemoryWrongly() {
            super(BytesCodecFixture.Defect.CLAIMS_IN_MEMORY_WRONGLY);
        }
    }

    static class BytesInnerChunkShapeNotDividing extends Bytes {
        BytesInnerChunkShapeNotDividing() {
            super(BytesCodecFixture.Defect.INNER_CHUNK_SHAPE_NOT_DIVIDING);
        }
    }

    static class BytesPartialDecodeThrowsOnAbsent extends Bytes {
        BytesPartialDecodeThrowsOnAbsent() {
            super(BytesCodecFixture.Defect.PARTIAL_DECODE_THROWS_ON_ABSENT);
        }
    }

    /** A correct {@code bytes} that claims to detect corruption, which no checksum-free format can. */
    static class BytesClaimsCorruptionDetection extends Bytes {
        BytesClaimsCorruptionDetection() {
            super(BytesCodecFixture.Defect.NONE);
        }

        @Override
        protected boolean detectsCorruption(ArrayToBytesCodec codec) {
            return true;
        }
    }

    abstract static class Transpose extends ArrayToArrayCodecContract {
        private final TransposeCodecFixture.Defect defect;

        Transpose(TransposeCodecFixture.Defect defect) {
            this.defect = defect;
        }

        @Override
        protected CodecProvider provider() {
            return TransposeCodecFixture.provider(defect);
        }

        @Override
        protected List<DataType> dataTypes() {
            return SOME_TYPES;
        }

        /** The default shapes without the large one: this fixture moves one element at a time. */
        @Override
        protected List<long[]> shapes(DataType dataType) {
            return Samples.defaultShapes(dataType).stream().filter(s -> s.length != 2 || s[0] < 1024).toList();
        }
    }

    static class TransposeCorrect extends Transpose {
        TransposeCorrect() {
            super(TransposeCodecFixture.Defect.NONE);
        }
    }

    static class TransposeSpecLies extends Transpose {
        TransposeSpecLies() {
            super(TransposeCodecFixture.Defect.SPEC_LIES);
        }
    }

    static class TransposeNoShapeCheck extends Transpose {
        TransposeNoShapeCheck() {
            super(TransposeCodecFixture.Defect.NO_SHAPE_CHECK);
        }
    }

    static class TransposeInverseOrder extends Transpose {
        TransposeInverseOrder() {
            super(TransposeCodecFixture.Defect.INVERSE_ORDER);
        }
    }

    static class TransposePartialDecodeUnpermuted extends Transpose {
        TransposePartialDecodeUnpermuted() {
            super(TransposeCodecFixture.Defect.PARTIAL_DECODE_UNPERMUTED);
        }
    }

    static class TransposePartialDecodeThrowsOnAbsent extends Transpose {
        TransposePartialDecodeThrowsOnAbsent() {
            super(TransposeCodecFixture.Defect.PARTIAL_DECODE_THROWS_ON_ABSENT);
        }
    }

    /** The test-only vlen-utf8 / vlen-bytes: refuses the fixed-size types, checked on the variable-length ones. */
    abstract static class Vlen extends ArrayToBytesCodecContract {
        private final boolean text;
        private final VariableLengthFixture.Defect defect;

        Vlen(boolean text, VariableLengthFixture.Defect defect) {
            this.text = text;
            this.defect = defect;
        }

        @Override
        protected CodecProvider provider() {
            return VariableLengthFixture.provider(text, defect);
        }

        @Override
        protected List<DataType> dataTypes() {
            List<DataType> out = new java.util.ArrayList<>(SOME_TYPES);
            out.add(VariableLengthFixture.STRING);
            out.add(VariableLengthFixture.BYTES);
            return out;
        }
    }

    static class VlenUtf8Correct extends Vlen {
        VlenUtf8Correct() {
            super(true, VariableLengthFixture.Defect.NONE);
        }
    }

    static class VlenBytesCorrect extends Vlen {
        VlenBytesCorrect() {
            super(false, VariableLengthFixture.Defect.NONE);
        }
    }

    static class VlenUtf8Lenient extends Vlen {
        VlenUtf8Lenient() {
            super(true, VariableLengthFixture.Defect.LENIENT_UTF8);
        }
    }

    static class VlenBytesIgnoresTrailingBytes extends Vlen {
        VlenBytesIgnoresTrailingBytes() {
            super(false, VariableLengthFixture.Defect.IGNORES_TRAILING_BYTES);
        }
    }
}
