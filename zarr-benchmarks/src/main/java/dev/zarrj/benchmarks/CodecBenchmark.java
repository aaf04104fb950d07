package dev.zarrj.benchmarks;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One 2 MiB float32 chunk ({@code [8, 256, 256]} of the smooth test field) encoded and decoded
 * three ways: by the zarrj codec alone ({@code zarrj*}), by the whole codec chain
 * {@code [bytes, codec]} that an array with that codec runs ({@code chain*}), and by the raw
 * binding with the same output format ({@code raw*}, see {@link RawBaseline}).
 *
 * <p>Every operation handles one chunk: MB/s = ops/s × 2.097152. The ratio zarrj / raw of ops/s
 * is the share of the binding's speed that zarrj keeps.
 *
 * <p>For {@code bytes} the codec is the array→bytes {@code bytes} codec (little endian, the native
 * order here, so both directions are views and the figures measure per-call overhead only); for
 * the others it is the bytes→bytes codec, fed the chunk's bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class CodecBenchmark {
    static final long[] SHAPE = {8, 256, 256};

    /** The codec: its name, then its settings. */
    @Param({"bytes", "gzip-1", "zstd-1", "zstd-3", "blosc-zstd-5-shuffle", "crc32c"})
    public String codec;

    ChunkSpec spec;
    NdArray chunk;
    /** The chunk's bytes (position 0, limit at the size), the input of bytes→bytes encoding. */
    ByteBuffer decoded;
    int decodedSize;
    EncodedSize expectedSize;

    /** Null for {@code bytes}. */
    BytesToBytesCodec bytesToBytes;
    ArrayToBytesCodec arrayToBytes;
    CodecChain chain;
    RawBaseline raw;

    ByteBuffer zarrjEncoded;
    ByteBuffer chainEncoded;

    @Setup
    public void setup() {
        spec = Fixtures.float32Spec(SHAPE);
        chunk = Fixtures.smooth(SHAPE);
        decoded = chunk.bytes();
        decodedSize = chunk.byteSize();
        expectedSize = EncodedSize.fixed(decodedSize);
        String metadata = metadata(codec);
        Codec c = Fixtures.codec(metadata);
        if (c instanceof ArrayToBytesCodec a) {
            arrayToBytes = a;
            chain = Fixtures.chain(metadata);
            zarrjEncoded = arrayToBytes.encode(chunk, spec);
        } else {
            bytesToBytes = (BytesToBytesCodec) c;
            chain = Fixtures.chain(Fixtures.BYTES, metadata);
            zarrjEncoded = bytesToBytes.encode(decoded.duplicate());
        }
        chainEncoded = chain.encode(chunk, spec);
        raw = RawBaseline.of(codec, decoded);
    }

    @TearDown
    public void tearDown() {
        if (raw != null) {
            raw.close();
        }
    }

    /** The metadata entry of a {@code codec} parameter value. */
    static String metadata(String codec) {
        return switch (codec) {
            case "bytes" -> Fixtures.BYTES;
            case "gzip-1" -> "{\"name\":\"gzip\",\"configuration\":{\"level\":1}}";
            case "zstd-1" -> "{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":false}}";
            case "zstd-3" -> "{\"name\":\"zstd\",\"configuration\":{\"level\":3,\"checksum\":false}}";
            case "blosc-zstd-5-shuffle" -> "{\"name\":\"blosc\",\"configuration\":{\"cname\":\"zstd\",\"clevel\":5,"
                    + "\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}}";
            case "crc32c" -> "{\"name\":\"crc32c\"}";
            default -> throw new IllegalArgumentException("unknown codec parameter '" + codec + "'");
        };
    }

    @Benchmark
    public ByteBuffer zarrjEncode() {
        if (bytesToBytes == null) {
            return arrayToBytes.encode(chunk, spec);
        }
        return bytesToBytes.encode(decoded.duplicate());
    }

    @Benchmark
    public Object zarrjDecode() {
        if (bytesToBytes == null) {
            return arrayToBytes.decode(zarrjEncoded.duplicate(), spec);
        }
        return bytesToBytes.decode(zarrjEncoded.duplicate(), expectedSize);
    }

    @Benchmark
    public ByteBuffer chainEncode() {
        return chain.encode(chunk, spec);
    }

    @Benchmark
    public NdArray chainDecode() {
        return chain.decode(chainEncoded.duplicate(), spec);
    }

    @Benchmark
    public ByteBuffer rawEncode() {
        return raw.encode();
    }

    @Benchmark
    public ByteBuffer rawDecode() {
        return raw.decode();
    }
}
