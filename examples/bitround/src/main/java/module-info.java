/**
 * The {@code bitround} codec of zarr-extensions for zarrj: an example of a third-party plugin.
 *
 * @provides dev.zarrj.api.codec.CodecProvider {@code bitround} (zarrj's own zarr-codec-numcodecs provides
 *           {@code numcodecs.bitround})
 */
module com.example.zarr.bitround {
    requires dev.zarrj.api;
    requires static com.google.auto.service;

    provides dev.zarrj.api.codec.CodecProvider with com.example.zarr.bitround.internal.BitroundCodecProvider;
}
