/**
 * The zarrj SPI: the extension points of the Zarr v3 format, the abstract store interface,
 * {@link dev.zarrj.api.NdArray} and the exception hierarchy.
 *
 * <p>Plugins depend on this module only. Each extension point has a provider interface that is a
 * {@link java.util.ServiceLoader} service; a plugin declares {@code provides} in its module
 * descriptor and carries a {@code META-INF/services} entry for class-path users.
 */
module dev.zarrj.api {
    requires static transitive org.apiguardian.api;
    requires transitive com.fasterxml.jackson.databind;

    exports dev.zarrj.api;
    exports dev.zarrj.api.codec;
    exports dev.zarrj.api.datatype;
    exports dev.zarrj.api.format;
    exports dev.zarrj.api.grid;
    exports dev.zarrj.api.keyencoding;
    exports dev.zarrj.api.store;
    exports dev.zarrj.api.transformer;
}
