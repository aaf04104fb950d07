/**
 * Example programs for zarrj: the demo that README.md runs, the interop writers, and the codec
 * micro-benchmark {@code CodecBench} (the file-store benchmark is {@code zarr bench}).
 * Not published.
 */
module dev.zarrj.examples {
    requires dev.zarrj.core;
    requires dev.zarrj.store.fs;
    requires dev.zarrj.codec.gzip;
    requires dev.zarrj.conformance;
    requires com.github.luben.zstd_jni;
    requires jblosc;
    requires com.sun.jna;
}
