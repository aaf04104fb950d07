package dev.zarrj.core.internal.codec.bytes;

import dev.zarrj.api.Region;
import static dev.zarrj.core.internal.testing.TestDataTypes.FLOAT64;
import static dev.zarrj.core.internal.testing.TestDataTypes.INT16;
import static dev.zarrj.core.internal.testing.TestDataTypes.INT32;
import static dev.zarrj.core.internal.testing.TestDataTypes.UINT8;
import static dev.zarrj.core.internal.testing.TestDataTypes.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.datatype.DataType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BytesPartialDecoderTest {
    /** A source over bytes in memory that records every request. */
    static final class RecordingSource implements ByteSource {
        final ByteSource delegate;
        final boolean reportSize;
        final List<ByteRange> reads = Collections.synchronizedList(new ArrayList<>());
        final List<List<ByteRange>> batches = Collections.synchronizedList(new ArrayList<>());

        RecordingSource(ByteBuffer bytes, boolean reportSize) {
            this.delegate = ByteSource.of(bytes);
            this.reportSize = reportSize;
        }

        @Override
        public Optional<ByteBuffer> read(ByteRange range) {
            reads.add(range);
            return delegate.read(range);
        }

        @Override
        public Optional<List<ByteBuffer>> readAll(List<ByteRange> ranges) {
            batches.add(List.copyOf(ranges));
            List<ByteBuffer> out = new ArrayList<>();
            for (ByteRange r : ranges) {
                out.add(delegate.read(r).orElseThrow());
            }
            return Optional.of(out);
        }

        @Override
        public OptionalLong size() {
            return reportSize ? delegate.size() : OptionalLong.empty();
        }

        long bytesRead() {
            long n = 0;
            for (ByteRange r : reads) {
                n += ((ByteRange.Bounded) r).length();
            }
            for (List<ByteRange> b : batches) {
                for (ByteRange r : b) {
                    n += ((ByteRange.Bounded) r).length();
                }
            }
            return n;
        }
    }

    private static NdArray sequence(DataType type, long... shape) {
        NdArray a = NdArray.allocate(type, shape);
        long n = a.elementCount();
        for (long i = 0; i < n; i++) {
            a.setLong(i, i * 7 + 3);
        }
        return a;
    }

    @Test
    void declaresPartialDecoding() {
        assertTrue(BytesCodecTest.little().partialDecoder(ByteSource.of(ByteBuffer.allocate(4)), spec(INT32, 1))
                .isPresent());
    }

    @Test
    void anAbsentValueIsEmptyWithoutAnError() {
        ChunkSpec spec = spec(INT16, 4, 100);
        ArrayPartialDecoder d = BytesCodecTest.big().partialDecoder(range -> Optional.empty(), spec).orElseThrow();
        // one run, a span, and a batch of ranges: each way of reading passes absence on
        assertTrue(d.decode(Region.of(new long[] {1, 0}, new long[] {1, 100})).isEmpty());
        assertTrue(d.decode(Region.of(new long[] {0, 0}, new long[] {4, 90})).isEmpty());
        assertTrue(d.decode(Region.of(new long[] {1, 10}, new long[] {3, 5})).isEmpty());
    }

    @Test
    void regionContiguousInCOrderIsOneExactRead() {
        ChunkSpec spec = spec(INT32, 6, 5);
        NdArray whole = sequence(INT32, 6, 5);
        ArrayToBytesCodec codec = BytesCodecTest.big();
        RecordingSource source = new RecordingSource(codec.encode(whole, spec), true);
        NdArray region = codec.partialDecoder(source, spec).orElseThrow().decode(Region.of(new long[] {2, 0}, new long[] {3, 5})).orElseThrow();
        assertTrue(whole.region(Region.of(new long[] {2, 0}, new long[] {3, 5})).contentEquals(region));
        assertEquals(List.of(ByteRange.of(2 * 5 * 4, 3 * 5 * 4)), source.reads);
        assertTrue(source.batches.isEmpty());
    }

    @Test
    void partOfOneRowIsOneExactRead() {
        ChunkSpec spec = spec(INT16, 4, 10);
        NdArray whole = sequence(INT16, 4, 10);
        ArrayToBytesCodec codec = BytesCodecTest.little();
        RecordingSource source = new RecordingSource(codec.encode(whole, spec), true);
        NdArray region = codec.partialDecoder(source, spec).orElseThrow().decode(Region.of(new long[] {1, 3}, new long[] {1, 4})).orElseThrow();
        assertTrue(whole.region(Region.of(new long[] {1, 3}, new long[] {1, 4})).contentEquals(region));
        assertEquals(List.of(ByteRange.of((10 + 3) * 2, 4 * 2)), source.reads);
    }

    @Test
    void sparseRegionReadsOnlyItsRuns() {
        ChunkSpec spec = spec(INT16, 4, 100);
        NdArray whole = sequence(INT16, 4, 100);
        ArrayToBytesCodec codec = BytesCodecTest.big();
        RecordingSource source = new RecordingSource(codec.encode(whole, spec), true);
        NdArray region = codec.partialDecoder(source, spec).orElseThrow().decode(Region.of(new long[] {1, 10}, new long[] {3, 5})).orElseThrow();
        assertTrue(whole.region(Region.of(new long[] {1, 10}, new long[] {3, 5})).contentEquals(region));
        assertTrue(source.reads.isEmpty(), "one batch, no single reads: " + source.reads);
        assertEquals(List.of(List.of(ByteRange.of(220, 10), ByteRange.of(420, 10), ByteRange.of(620, 10))),
                source.batches);
    }

    @Test
    void denseRegionReadsItsSpanOnce() {
        ChunkSpec spec = spec(UINT8, 8, 8);
        NdArray whole = sequence(UINT8, 8, 8);
        ArrayToBytesCodec codec = BytesCodecTest.little();
        RecordingSource source = new RecordingSource(codec.encode(whole, spec), true);
        // Rows 2..5, columns 1..6: 4 runs of 6 bytes inside a 30-byte span.
        NdArray region = codec.partialDecoder(source, spec).orElseThrow().decode(Region.of(new long[] {2, 1}, new long[] {4, 6})).orElseThrow();
        assertTrue(whole.region(Region.of(new long[] {2, 1}, new long[] {4, 6})).contentEquals(region));
        assertEquals(List.of(ByteRange.of(17, 30)), source.reads);
    }

    @Test
    void manyTinyRunsReadTheSpanOnce() {
        int rows = BytesPartialDecoder.MAX_RANGES + 1;
        ChunkSpec spec = spec(INT16, rows, 3);
        NdArray whole = sequence(INT16, rows, 3);
        ArrayToBytesCodec codec = BytesCodecTest.big();
        RecordingSource source = new RecordingSource(codec.encode(whole, spec), false);
        NdArray region = codec.partialDecoder(source, spec).orElseThrow().decode(Region.of(new long[] {0, 1}, new long[] {rows, 1})).orElseThrow();
        assertTrue(whole.region(Region.of(new long[] {0, 1}, new long[] {rows, 1})).contentEquals(region));
        assertEquals(1, source.reads.size());
        assertTrue(source.batches.isEmpty());
    }

    @Test
    void randomRegionsMatchTheFullDecode() {
        Random random = new Random(20240601);
        long[] shape = {5, 7, 6};
        for (DataType type : new DataType[] {UINT8, INT16, INT32, FLOAT64}) {
            ChunkSpec spec = spec(type, shape);
            NdArray whole = sequence(type, shape);
            for (ArrayToBytesCodec codec : new ArrayToBytesCodec[] {BytesCodecTest.little(), BytesCodecTest.big()}) {
                ByteBuffer encoded = codec.encode(whole, spec);
                RecordingSource source = new RecordingSource(encoded, random.nextBoolean());
                ArrayPartialDecoder decoder = codec.partialDecoder(source, spec).orElseThrow();
                for (int trial = 0; trial < 50; trial++) {
                    long[] offset = new long[3];
                    long[] size = new long[3];
                    for (int d = 0; d < 3; d++) {
                        offset[d] = random.nextInt((int) shape[d] + 1);
                        size[d] = random.nextInt((int) (shape[d] - offset[d]) + 1);
                    }
                    source.reads.clear();
                    source.batches.clear();
                    NdArray region = decoder.decode(Region.of(offset, size)).orElseThrow();
                    assertTrue(whole.region(Region.of(offset, size)).contentEquals(region),
                            type.name() + " " + Arrays.toString(offset) + " " + Arrays.toString(size));
                    long needed = spec.withShape(size).byteSize();
                    if (source.batches.isEmpty()) {
                        assertTrue(source.reads.size() <= 1, "at most one span read: " + source.reads);
                    } else {
                        assertEquals(needed, source.bytesRead(), "ranged reads fetch exactly the region");
                    }
                    assertTrue(source.bytesRead() <= spec.byteSize());
                }
            }
        }
    }

    @Test
    void zeroDimensionalChunk() {
        ChunkSpec spec = spec(FLOAT64);
        NdArray whole = NdArray.allocate(FLOAT64);
        whole.setDouble(0, -3.25);
        ArrayToBytesCodec codec = BytesCodecTest.big();
        RecordingSource source = new RecordingSource(codec.encode(whole, spec), true);
        NdArray region = codec.partialDecoder(source, spec).orElseThrow().decode(Region.of(new long[0], new long[0])).orElseThrow();
        assertEquals(-3.25, region.getDouble(0));
        assertEquals(List.of(ByteRange.of(0, 8)), source.reads);
    }

    @Test
    void emptyRegionReadsNothing() {
        ChunkSpec spec = spec(INT16, 4, 4);
        RecordingSource source = new RecordingSource(ByteBuffer.allocate(32), true);
        NdArray region = BytesCodecTest.big().partialDecoder(source, spec).orElseThrow().decode(Region.of(new long[] {1, 1}, new long[] {0, 2})).orElseThrow();
        assertEquals(0, region.elementCount());
        assertTrue(source.reads.isEmpty() && source.batches.isEmpty());
    }

    @Test
    void storedValueOfTheWrongSizeIsRefused() {
        ChunkSpec spec = spec(INT16, 4, 4);
        RecordingSource tooLong = new RecordingSource(ByteBuffer.allocate(34), true);
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> BytesCodecTest.big()
                .partialDecoder(tooLong, spec).orElseThrow().decode(Region.of(new long[] {0, 0}, new long[] {1, 1})).orElseThrow());
        assertTrue(e.getMessage().contains("34") && e.getMessage().contains("32"), e.getMessage());
        // Without a known size, a range past the end of a truncated value fails as corrupt.
        RecordingSource truncated = new RecordingSource(ByteBuffer.allocate(20), false);
        assertThrows(CorruptDataException.class, () -> BytesCodecTest.big()
                .partialDecoder(truncated, spec).orElseThrow().decode(Region.of(new long[] {3, 0}, new long[] {1, 4})).orElseThrow());
    }

    @Test
    void regionOutsideTheChunkIsAProgrammingError() {
        ChunkSpec spec = spec(INT16, 4, 4);
        ArrayPartialDecoder d = BytesCodecTest.big().partialDecoder(new RecordingSource(ByteBuffer.allocate(32), true), spec).orElseThrow();
        assertThrows(IllegalArgumentException.class, () -> d.decode(Region.of(new long[] {3, 0}, new long[] {2, 1})).orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> d.decode(Region.of(new long[] {0}, new long[] {1})).orElseThrow());
    }
}
