/**
 * Metadata formats other than Zarr v3's {@code zarr.json}: {@link dev.zarrj.api.format.MetadataFormat}
 * translates a format's stored documents to and from the equivalent v3 document.
 */
package dev.zarrj.api.format;
