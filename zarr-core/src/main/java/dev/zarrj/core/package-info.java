/**
 * The zarrj user API: {@code Zarr} opens stores and nodes, {@code ZarrArray} reads and writes
 * regions of an array, {@code ZarrGroup} navigates a hierarchy.
 */
package dev.zarrj.core;
