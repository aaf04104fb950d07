package dev.zarrj.core.internal.codec.bytes;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Decodes a region of a {@code bytes}-encoded chunk by reading only byte ranges of the stored
 * value.
 *
 * <p>A region is a set of contiguous runs: the innermost region dimension together with every
 * trailing dimension the region covers whole. A region contiguous in C order is one run and costs
 * one read of exactly its bytes. Otherwise the runs are requested with one
 * {@link ByteSource#readAll} call, unless there are more than {@value #MAX_RANGES} of them or they
 * cover at least half of the span from the first to the last: then the span is read in one request
 * and the runs are copied out of it. Nothing outside that span is read.
 */
final class BytesPartialDecoder implements ArrayPartialDecoder {
    /** Above this many runs, one read of the span beats a list of tiny requests. */
    static final int MAX_RANGES = 1024;

    private final BytesCodec codec;
    private final ByteSource input;
    private final ChunkSpec spec;

    BytesPartialDecoder(BytesCodec codec, ByteSource input, ChunkSpec spec) {
        this.codec = codec;
        this.input = input;
        this.spec = spec;
    }

    @Override
    public Optional<NdArray> decode(Region region) {
        long[] chunk = spec.shape();
        int rank = chunk.length;
        region.checkWithin(chunk, "the chunk");
        long[] offset = region.offset();
        long[] shape = region.shape();
        checkStoredSize();
        ChunkSpec regionSpec = spec.withShape(shape);
        int es = spec.dataType().size();
        long needed = regionSpec.byteSize();
        if (needed == 0 || needed > Integer.MAX_VALUE - 8) {
            // empty, or the 2 GiB IllegalArgumentException
            return Optional.of(NdArray.allocate(spec.dataType(), shape));
        }

        // Runs: the innermost dimension merged with each trailing dimension that the region holds whole.
        int inner = Math.max(rank - 1, 0);
        long runElements = rank == 0 ? 1 : shape[inner];
        while (inner > 0 && shape[inner] == chunk[inner]) {
            inner--;
            runElements *= shape[inner];
        }
        int runBytes = (int) (runElements * es); // at most the region's bytes, below 2 GiB
        long[] stride = new long[rank];
        long acc = es;
        for (int d = rank - 1; d >= 0; d--) {
            stride[d] = acc;
            acc *= chunk[d];
        }
        long first = 0;
        long last = 0;
        long runCount = 1;
        for (int d = 0; d < rank; d++) {
            first += offset[d] * stride[d];
            if (d < inner) {
                last += (shape[d] - 1) * stride[d];
                runCount *= shape[d];
            }
        }
        long span = last + runBytes;

        ByteBuffer raw;
        if (runCount == 1) {
            Optional<ByteBuffer> run = readExactly(ByteRange.of(first, runBytes));
            if (run.isEmpty()) {
                return Optional.empty();
            }
            raw = run.get();
        } else if (runCount > MAX_RANGES || span <= 2 * needed) {
            Optional<ByteBuffer> read = readExactly(ByteRange.of(first, span));
            if (read.isEmpty()) {
                return Optional.empty();
            }
            ByteBuffer whole = read.get();
            ByteBuffer out = ByteBuffer.allocate((int) needed);
            int base = whole.position();
            long spanStart = first;
            forEachRun(offset, shape, inner, stride, runBytes, (start, at) ->
                    out.put(at, whole, base + (int) (start - spanStart), runBytes));
            raw = out;
        } else {
            List<ByteRange> ranges = new ArrayList<>((int) runCount);
            forEachRun(offset, shape, inner, stride, runBytes,
                    (start, at) -> ranges.add(ByteRange.of(start, runBytes)));
            Optional<List<ByteBuffer>> read = input.readAll(ranges);
            if (read.isEmpty()) {
                return Optional.empty();
            }
            List<ByteBuffer> parts = read.get();
            raw = ByteBuffer.allocate((int) needed);
            int at = 0;
            for (int i = 0; i < parts.size(); i++) {
                ByteBuffer part = parts.get(i);
                checkLength(ranges.get(i), part);
                raw.put(at, part, part.position(), runBytes);
                at += runBytes;
            }
        }
        return Optional.of(codec.decode(raw, regionSpec));
    }

    /** A stored value of the wrong size is refused even when the region itself could be read. */
    private void checkStoredSize() {
        OptionalLong size = input.size();
        long expected = spec.byteSize();
        if (size.isPresent() && size.getAsLong() != expected) {
            throw new CorruptDataException("bytes: the encoded chunk has " + size.getAsLong() + " bytes, but a "
                    + spec.dataType().name() + " chunk of shape " + Arrays.toString(spec.shape()) + " needs "
                    + expected);
        }
    }

    private Optional<ByteBuffer> readExactly(ByteRange range) {
        Optional<ByteBuffer> b = input.read(range);
        b.ifPresent(bytes -> checkLength(range, bytes));
        return b;
    }

    private static void checkLength(ByteRange range, ByteBuffer b) {
        long want = ((ByteRange.Bounded) range).length();
        if (b.remaining() != want) {
            throw new CorruptDataException("bytes: reading " + range + " of the encoded chunk returned "
                    + b.remaining() + " bytes, expected " + want);
        }
    }

    private interface RunVisitor {
        /** @param start byte offset of the run in the stored value; @param at its offset in the region */
        void run(long start, int at);
    }

    /** Visits the runs in C order of the region, which is also their order in the output. */
    private static void forEachRun(long[] offset, long[] shape, int inner, long[] stride, int runBytes,
                                   RunVisitor visitor) {
        long pos = 0;
        for (int d = 0; d < offset.length; d++) {
            pos += offset[d] * stride[d];
        }
        long[] idx = new long[inner];
        int at = 0;
        while (true) {
            visitor.run(pos, at);
            at += runBytes;
            int d = inner - 1;
            while (d >= 0) {
                idx[d]++;
                pos += stride[d];
                if (idx[d] < shape[d]) {
                    break;
                }
                pos -= shape[d] * stride[d];
                idx[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }
}
