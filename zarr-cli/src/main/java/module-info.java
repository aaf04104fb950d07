/**
 * The {@code zarr} command: look inside a store, create arrays and groups, write and read raw
 * data, copy between codecs and stores, verify every chunk, list plugins.
 *
 * <p>Runs on the module path; the plugin modules next to it are found through service binding,
 * and jars named by {@code --plugin-path} are loaded into a layer of their own.
 *
 * @uses dev.zarrj.api.codec.CodecProvider
 */
module dev.zarrj.cli {
    requires dev.zarrj.core;
    requires info.picocli;
    requires dev.zarrj.conformance;

    opens dev.zarrj.cli to info.picocli;
}
