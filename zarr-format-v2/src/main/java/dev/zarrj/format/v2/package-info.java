/**
 * Zarr v2 as a {@link dev.zarrj.api.format.MetadataFormat}: {@link dev.zarrj.format.v2.ZarrV2Format}.
 */
package dev.zarrj.format.v2;
