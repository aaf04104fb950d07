/**
 * The {@code zarr} command: look inside a store, create arrays and groups, write and read raw
 * data, copy between codecs and stores, verify every chunk, list plugins, measure throughput.
 *
 * <p>Runs on the module path; the plugin modules next to it are found through service binding,
 * and jars named by {@code --plugin-path} are loaded into a layer of their own. {@code zarr bench}
 * calls zstd-jni and jblosc directly for the ceilings it compares zarrj with.
 *
 * @uses dev.zarrj.api.codec.CodecProvider
 */
module dev.zarrj.cli {
    requires dev.zarrj.core;
    requires info.picocli;
    requires dev.zarrj.conformance;
    requires com.fasterxml.jackson.databind;
    // zarr bench's ceilings call these directly. Optional: they are resolved whenever the zstd and
    // blosc plugins are (which require them), and bench skips a ceiling whose library is absent.
    requires static com.github.luben.zstd_jni;
    requires static jblosc;
    requires static com.sun.jna;

    opens dev.zarrj.cli to info.picocli;
    opens dev.zarrj.cli.bench to info.picocli;
}
