package dev.zarrj.ext.strings.internal;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import dev.zarrj.conformance.ConformanceKit;
import dev.zarrj.conformance.DataTypeContract;
import dev.zarrj.ext.strings.StringTypes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;

/**
 * Every data type and codec of this module against the conformance kit. The kit knows the fill
 * value forms of {@code string}, {@code bytes} and {@code fixed_length_utf32} and the format of
 * {@code vlen-utf8} and {@code vlen-bytes} (AB10, AB18); the codecs are sampled on every core type,
 * which they must refuse, and on both variable-length types.
 */
class StringsConformanceTest {
    /** The core types and this module's variable-length ones, whatever else is installed. */
    static List<DataType> codecTypes() {
        List<DataType> out = new ArrayList<>(ConformanceKit.coreDataTypes());
        out.add(StringTypes.STRING);
        out.add(StringTypes.BYTES);
        return out;
    }

    @Nested
    class StringType extends DataTypeContract {
        @Override
        protected DataTypeProvider provider() {
            return new StringTypeProvider();
        }
    }

    @Nested
    class BytesType extends DataTypeContract {
        @Override
        protected DataTypeProvider provider() {
            return new BytesTypeProvider();
        }
    }

    @Nested
    class FixedLengthUtf32 extends DataTypeContract {
        @Override
        protected DataTypeProvider provider() {
            return new FixedLengthUtf32Provider();
        }
    }

    @Nested
    class VlenUtf8 extends ArrayToBytesCodecContract {
        @Override
        protected CodecProvider provider() {
            return new VlenUtf8CodecProvider();
        }

        @Override
        protected List<DataType> dataTypes() {
            return codecTypes();
        }
    }

    @Nested
    class VlenBytes extends ArrayToBytesCodecContract {
        @Override
        protected CodecProvider provider() {
            return new VlenBytesCodecProvider();
        }

        @Override
        protected List<DataType> dataTypes() {
            return codecTypes();
        }
    }
}
