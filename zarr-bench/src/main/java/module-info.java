/**
 * The benchmark harness behind {@code zarr bench}: zarrj's throughput and latency on the file
 * system store, each figure next to a ceiling measured in the same run (docs/benchmarks.md), and
 * the raw-codec baselines those ceilings use ({@code dev.zarrj.bench.raw}, also used by the JMH
 * benchmarks).
 *
 * <p>Provides the tool {@code zarr-bench}, which {@code zarr bench} runs; runs alone with
 * {@code java -m dev.zarrj.bench/dev.zarrj.bench.ZarrBench}.
 */
module dev.zarrj.bench {
    requires dev.zarrj.core;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;
    // The raw baselines call these directly. Optional: they are resolved whenever the zstd and
    // blosc plugins are (which require them), and bench skips a ceiling whose library is absent.
    requires static com.github.luben.zstd_jni;
    requires static jblosc;
    requires static com.sun.jna;
    // The gzip ceiling runs on the gzip module's libdeflate binding when libdeflate loads.
    requires static dev.zarrj.codec.gzip;

    exports dev.zarrj.bench.raw;
    exports dev.zarrj.bench.data;
    opens dev.zarrj.bench to info.picocli;

    provides java.util.spi.ToolProvider with dev.zarrj.bench.BenchTool;
}
