package dev.zarrj.ext.strings.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import dev.zarrj.conformance.CodecSamples;
import dev.zarrj.conformance.ConformanceKit;
import dev.zarrj.conformance.DataTypeContract;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
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
    class NullTerminatedBytes extends DataTypeContract {
        @Override
        protected DataTypeProvider provider() {
            return new NullTerminatedBytesProvider();
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

    /**
     * sharding_indexed over vlen inner chunks, as zarr-python shards text: index at the end and
     * at the start, inner chains with crc32c (which claims corruption detection, AB12) and with
     * transpose, vlen-bytes for byte strings, and one large shard.
     */
    @Nested
    class ShardedVlen extends ArrayToBytesCodecContract {
        private static final String INDEX = "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}},"
                + " {\"name\": \"crc32c\"}]";

        @Override
        protected CodecProvider provider() {
            return Zarr.defaults().registry().find(ExtensionPoint.CODEC, "sharding_indexed", CodecProvider.class)
                    .orElseThrow();
        }

        @Override
        protected List<ObjectNode> configurations() {
            return List.of(config("[5]", "[{\"name\": \"vlen-utf8\"}]", "end"),
                    config("[2, 4]", "[{\"name\": \"vlen-utf8\"}, {\"name\": \"crc32c\"}]", "start"),
                    config("[1, 2, 3]", "[{\"name\": \"transpose\", \"configuration\": {\"order\": [2, 0, 1]}},"
                            + " {\"name\": \"vlen-utf8\"}]", "end"),
                    config("[5]", "[{\"name\": \"vlen-bytes\"}]", "end"),
                    config("[2, 4]", "[{\"name\": \"vlen-bytes\"}, {\"name\": \"crc32c\"}]", "end"),
                    config("[205, 64]", "[{\"name\": \"vlen-utf8\"}]", "end"));
        }

        private static ObjectNode config(String chunkShape, String codecs, String indexLocation) {
            try {
                return (ObjectNode) new ObjectMapper().readTree("{\"chunk_shape\": " + chunkShape + ", \"codecs\": "
                        + codecs + ", \"index_codecs\": " + INDEX + ", \"index_location\": \"" + indexLocation + "\"}");
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(e);
            }
        }

        @Override
        protected List<DataType> dataTypes() {
            return List.of(DataTypes.INT32, StringTypes.STRING, StringTypes.BYTES);
        }

        @Override
        protected List<long[]> shapes(DataType dataType) {
            return List.of(new long[] {5}, new long[] {15}, new long[] {35}, new long[] {2, 4}, new long[] {8, 16},
                    new long[] {12, 24}, new long[] {1, 2, 3}, new long[] {2, 4, 9}, new long[] {3, 6, 9},
                    CodecSamples.largeShape(dataType, 1025, 64));
        }

        @Override
        protected boolean detectsCorruption(ArrayToBytesCodec codec) {
            return codec.configuration().path("codecs").toString().contains("\"crc32c\"");
        }
    }
}
