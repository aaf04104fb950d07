/**
 * The {@code bitround} codec of zarr-extensions for zarrj: an example of a third-party plugin.
 *
 * <p>zarrj's zarr-codec-registry ships a {@code bitround} of its own; this provider replaces it by
 * declaring a higher {@code priority()} (see the README).
 *
 * @provides dev.zarrj.api.codec.CodecProvider {@code bitround}, replacing zarrj's (zarrj's
 *           zarr-codec-numcodecs provides {@code numcodecs.bitround}, another name)
 */
module com.example.zarr.bitround {
    requires dev.zarrj.api;
    requires static com.google.auto.service;

    provides dev.zarrj.api.codec.CodecProvider with com.example.zarr.bitround.internal.BitroundCodecProvider;
}
