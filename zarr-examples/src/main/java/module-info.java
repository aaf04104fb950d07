/**
 * Example programs for zarrj: the demo that README.md runs, and the file-store benchmark.
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
