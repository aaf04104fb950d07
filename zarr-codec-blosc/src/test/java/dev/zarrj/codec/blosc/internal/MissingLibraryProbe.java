package dev.zarrj.codec.blosc.internal;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Run in a child JVM by {@link MissingLibraryTest}, where c-blosc cannot be found: reports, one
 * line each, which codecs zarrj discovered, whether an array without blosc works, whether an array
 * with blosc can be created and opened, and what writing it (twice) and reading a stored chunk of it do.
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

        // One element per chunk: writes run in parallel, each task failing on its own.
        var blosc = zarr.array(DataTypes.INT32, 4).chunks(1).fillValue(7).codecs("[{\"name\":\"bytes\",\"configuration\":"
                + "{\"endian\":\"little\"}},{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\",\"clevel\":5,"
                + "\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}}]").create(store, "/b");
        // No chunk is stored: the fill value, without decoding anything.
        System.out.println("opened: " + zarr.openArray(store, "/b").read().getLong(3));
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                blosc.write(NdArray.copyOf(DataTypes.INT32, new int[] {1, 2, 3, 4}, 4));
                System.out.println("blosc: loaded");
            } catch (ZarrException e) {
                System.out.println("write: " + e.code() + " " + e.getMessage().replace('\n', ' '));
            }
        }
        store.set(StoreKey.of("b/c/0"), storedFrame(new int[] {1}));
        try {
            zarr.openArray(store, "/b").read();
            System.out.println("blosc: loaded");
        } catch (ZarrException e) {
            String cause = e.getCause() instanceof ZarrException z ? z.code() : String.valueOf(e.getCause());
            System.out.println("read: " + e.code() + " " + cause + " " + e.getMessage().replace('\n', ' '));
        }
    }

    /** A blosc 1.x frame holding {@code values} uncompressed (the memcpyed flag), as c-blosc writes it. */
    private static ByteBuffer storedFrame(int[] values) {
        int n = values.length * 4;
        ByteBuffer b = ByteBuffer.allocate(BloscHeader.SIZE + n).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 2).put((byte) 1).put((byte) 0x03).put((byte) 4); // version, versionlz, shuffle|memcpyed, typesize
        b.putInt(n).putInt(n).putInt(BloscHeader.SIZE + n); // nbytes, blocksize, cbytes
        for (int v : values) {
            b.putInt(v);
        }
        return b.flip();
    }
}
