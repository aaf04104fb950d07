package dev.zarrj.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.Zstd;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.blosc.JBlosc;

/**
 * Codec throughput inside zarrj against the raw binding on the same 2 MiB chunks in the same run:
 * blosc (zstd, clevel 5, shuffle) against c-blosc through jblosc's context calls, and zstd at
 * levels 1 and 3 against zstd-jni, each single- and multi-threaded.
 *
 * <p>zarrj's figure includes what a read or write really pays: encoding takes a heap buffer and
 * returns a new one; decoding takes the heap buffer a store returns and writes into reused direct
 * memory, as the read pipeline does. The raw figures are each binding's best case: reused output
 * buffers, and for c-blosc direct input prepared outside the timed loop.
 *
 * <p>Usage: {@code ZARRJ_MAIN=dev.zarrj.examples.CodecBench bin/zarr-demo [--quick]}.
 */
public final class CodecBench {
    private static final int CHUNK = 2 << 20;

    private CodecBench() {}

    interface Op {
        void run(int chunk) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        boolean quick = Arrays.asList(args).contains("--quick");
        int chunks = quick ? 16 : 64;
        int runs = quick ? 3 : 5;
        byte[][] data = new byte[chunks][];
        for (int c = 0; c < chunks; c++) {
            data[c] = smoothChunk(c);
        }
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(Locale.ROOT, "%d chunks of %d MiB float32, %d runs (median), %d cores%n", chunks, CHUNK >> 20, runs, cores);
        System.out.printf(Locale.ROOT, "%-28s %-7s %-8s %10s %10s %7s%n", "codec", "threads", "op", "zarrj MB/s", "raw MB/s", "ratio");
        StringBuilder json = new StringBuilder("{\"workloads\":[");
        ObjectMapper m = new ObjectMapper();
        for (String spec : List.of("blosc zstd 5 shuffle", "zstd 1", "zstd 3")) {
            BytesToBytesCodec codec = codec(spec, m);
            // Encoded once for the decode measurements, by each side.
            ByteBuffer[] zarrjEncoded = new ByteBuffer[chunks];
            byte[][] rawEncoded = new byte[chunks][];
            ByteBuffer[] rawEncodedDirect = new ByteBuffer[chunks];
            ByteBuffer[] directIn = new ByteBuffer[chunks];
            for (int c = 0; c < chunks; c++) {
                zarrjEncoded[c] = codec.encode(ByteBuffer.wrap(data[c]));
                directIn[c] = ByteBuffer.allocateDirect(CHUNK).put(ByteBuffer.wrap(data[c])).flip();
                if (spec.startsWith("zstd")) {
                    rawEncoded[c] = Zstd.compress(data[c], level(spec));
                } else {
                    ByteBuffer out = ByteBuffer.allocateDirect(CHUNK + JBlosc.OVERHEAD);
                    int n = JBlosc.compressCtx(5, 1, 4, directIn[c], CHUNK, out, out.capacity(), "zstd", 0, 1);
                    rawEncodedDirect[c] = out.limit(n);
                }
            }
            for (int threads : new int[] {1, cores}) {
                Op zEnc = c -> codec.encode(ByteBuffer.wrap(data[c]));
                // As a read decodes: into reused direct memory (the pipeline's pooled chunk buffers).
                ThreadLocal<ByteBuffer> decoded = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(CHUNK));
                Op zDec = c -> codec.decodeInto(zarrjEncoded[c].duplicate(), decoded.get().clear());
                Op rEnc;
                Op rDec;
                if (spec.startsWith("zstd")) {
                    int level = level(spec);
                    rEnc = c -> Zstd.compress(data[c], level);
                    ThreadLocal<byte[]> out = ThreadLocal.withInitial(() -> new byte[CHUNK]);
                    rDec = c -> Zstd.decompressByteArray(out.get(), 0, CHUNK, rawEncoded[c], 0, rawEncoded[c].length);
                } else {
                    ThreadLocal<ByteBuffer> out = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(CHUNK + JBlosc.OVERHEAD));
                    rEnc = c -> JBlosc.compressCtx(5, 1, 4, directIn[c].duplicate(), CHUNK, out.get().clear(), CHUNK + JBlosc.OVERHEAD, "zstd", 0, 1);
                    rDec = c -> JBlosc.decompressCtx(rawEncodedDirect[c].duplicate(), out.get().clear(), CHUNK, 1);
                }
                for (String op : List.of("encode", "decode")) {
                    double zarrj = measure(op.equals("encode") ? zEnc : zDec, chunks, threads, runs);
                    double raw = measure(op.equals("encode") ? rEnc : rDec, chunks, threads, runs);
                    double mb = (double) chunks * CHUNK / 1e6;
                    System.out.printf(Locale.ROOT, "%-28s %-7d %-8s %10.1f %10.1f %7.2f%n", spec, threads, op,
                            mb / zarrj, mb / raw, raw / zarrj);
                    json.append(String.format(Locale.ROOT,
                            "{\"name\":\"%s\",\"threads\":%d,\"op\":\"%s\",\"mb_per_s\":%.1f,\"ceiling_mb_per_s\":%.1f,"
                                    + "\"ratio_to_ceiling\":%.3f},", spec, threads, op, mb / zarrj, mb / raw, raw / zarrj));
                }
            }
        }
        json.setLength(json.length() - 1);
        System.out.println(json.append("]}"));
    }

    private static int level(String spec) {
        return Integer.parseInt(spec.substring(5));
    }

    private static BytesToBytesCodec codec(String spec, ObjectMapper m) throws Exception {
        String name = spec.startsWith("zstd") ? "zstd" : "blosc";
        String config = name.equals("zstd") ? "{\"level\":" + level(spec) + ",\"checksum\":false}"
                : "{\"cname\":\"zstd\",\"clevel\":5,\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}";
        CodecProvider p = Zarr.defaults().registry().find(ExtensionPoint.CODEC, name, CodecProvider.class)
                .orElseThrow(() -> new IllegalStateException(name + " is not installed"));
        ProviderContext none = (codecs, pointer) -> {
            throw new UnsupportedOperationException();
        };
        return (BytesToBytesCodec) p.create(ExtensionConfig.of(name, m.readTree(config), "/codecs/1/configuration"), none);
    }

    /** Median seconds to run {@code op} over every chunk with {@code threads} threads. */
    private static double measure(Op op, int chunks, int threads, int runs) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            double[] t = new double[runs + 1];
            for (int r = 0; r <= runs; r++) {
                long start = System.nanoTime();
                List<Future<?>> fs = new ArrayList<>();
                for (int c = 0; c < chunks; c++) {
                    int k = c;
                    fs.add(pool.submit(() -> {
                        op.run(k);
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
                t[r] = (System.nanoTime() - start) / 1e9;
            }
            double[] measured = Arrays.copyOfRange(t, 1, t.length); // the first run warms up
            Arrays.sort(measured);
            return measured[runs / 2];
        } finally {
            pool.shutdown();
        }
    }

    /** 2 MiB of float32 from a smooth function, as real fields compress. */
    private static byte[] smoothChunk(int c) {
        NdArray a = NdArray.allocate(DataTypes.FLOAT32, CHUNK / 4);
        var f = a.bytes().asFloatBuffer();
        for (int i = 0; i < CHUNK / 4; i++) {
            f.put(i, (float) (Math.sin((c * 1024 + i / 512) * 0.01) * 100 + Math.cos(i % 512 * 0.05)));
        }
        return a.toByteArray();
    }
}
