/**
 * The codecs of the zarr-extensions registry whose specification is final, and
 * {@link dev.zarrj.codec.registry.RegistryCodecs} to name them in new arrays.
 */
package dev.zarrj.codec.registry;
