/**
 * Example programs for zarrj: the demo that README.md runs and the interop writers (the
 * benchmarks are {@code zarr bench}, module zarr-bench, and the JMH ones in zarr-benchmarks).
 * Not published.
 */
module dev.zarrj.examples {
    requires dev.zarrj.core;
    requires dev.zarrj.store.fs;
    requires dev.zarrj.codec.gzip;
    requires dev.zarrj.ext.strings;
    requires dev.zarrj.conformance;
}
