package dev.zarrj.codec.blosc.internal;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;

/**
 * Run in a child JVM by {@link MissingLibraryTest}, where c-blosc cannot be found: reports, one
 * line each, which codecs zarrj discovered, whether an array without blosc works, and what
 * creating one with blosc does (twice).
 */
public final class MissingLibraryProbe {
    private MissingLibraryProbe() {}

    public static void main(String[] args) {
        Zarr zarr = Zarr.defaults();
        System.out.println("codecs: " + zarr.registry().names(ExtensionPoint.CODEC));
        Store store = zarr.openStore("memory:");
        var plain = zarr.array(DataTypes.INT32, 4).codecs("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]")
                .create(store, "/plain");
        plain.write(NdArray.copyOf(DataTypes.INT32, new int[] {1, 2, 3, 4}, 4));
        System.out.println("plain: " + zarr.openArray(store, "/plain").read().getLong(3));
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                zarr.array(DataTypes.INT32, 4).codecs("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
                        + "{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\",\"clevel\":5,"
                        + "\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}}]").overwrite(true).create(store, "/b");
                System.out.println("blosc: loaded");
            } catch (ZarrException e) {
                System.out.println("blosc: " + e.code() + " " + e.getMessage().replace('\n', ' '));
            }
        }
    }
}
