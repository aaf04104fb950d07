import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.format.v2.ZarrV2Format;

/**
 * Zarr v2 as a metadata format: a node's {@code .zarray} or {@code .zgroup}, its {@code .zattrs}
 * and a group's consolidated {@code .zmetadata}, translated to and from the equivalent Zarr v3
 * document (the v2 chunk key encoding, {@code bytes} with the dtype's byte order, the filters and
 * compressor as v3 codecs), so that core reads and writes v2 arrays with its v3 machinery.
 *
 * @provides MetadataFormat {@code v2}
 */
module dev.zarrj.format.v2 {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.format.v2;

    provides MetadataFormat with ZarrV2Format;
}
