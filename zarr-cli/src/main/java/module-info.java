/**
 * The {@code zarr} command: look inside a store, create arrays and groups, write and read raw
 * data, copy between codecs and stores, verify every chunk, list plugins, measure throughput.
 *
 * <p>Runs on the module path; the plugin modules next to it are found through service binding,
 * and jars named by {@code --plugin-path} are loaded into a layer of their own. {@code zarr bench}
 * runs the harness of the {@code zarr-bench} module, found at run time as the JDK tool
 * {@code zarr-bench}.
 *
 * @uses dev.zarrj.api.codec.CodecProvider
 * @uses java.util.spi.ToolProvider
 */
module dev.zarrj.cli {
    requires dev.zarrj.core;
    requires dev.zarrj.ext.datetime;
    requires dev.zarrj.ext.strings;
    requires dev.zarrj.ext.optional;
    requires info.picocli;
    requires dev.zarrj.conformance;
    requires com.fasterxml.jackson.databind;
    // zarr plugins: which library the gzip codec runs on, when the gzip plugin is there.
    requires static dev.zarrj.codec.gzip;

    opens dev.zarrj.cli to info.picocli;

    // zarr bench: the zarr-bench module's tool, when it is there.
    uses java.util.spi.ToolProvider;
}
