package dev.zarrj.examples;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.codec.gzip.GzipConfiguration;
import dev.zarrj.core.BytesConfiguration;
import dev.zarrj.core.Crc32cConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.TransposeConfiguration;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.util.Arrays;
import java.util.Map;

/**
 * The demo README.md runs: writes a small hierarchy with the core codecs and gzip into a file
 * system store, reads it back, checks every value, and prints the hierarchy.
 *
 * <p>Usage: {@code bin/zarr-demo [STORE_PATH]}. Exits with status 1 when a value read back
 * differs from what was written.
 */
public final class Demo {
    private Demo() {}

    public static void main(String[] args) {
        String location = args.length > 0 ? args[0] : "demo.zarr";
        Zarr zarr = Zarr.defaults();
        Store store = zarr.openStore(location);
        zarr.erase(store, "/");

        ObjectNode rootAttrs = JsonNodeFactory.instance.objectNode().put("title", "zarrj demo");
        ZarrGroup root = zarr.createGroup(store, "/", rootAttrs);

        // A 3-d float32 field, gzip-compressed, with NaN as fill value and named dimensions.
        long[] shape = {24, 180, 360};
        ZarrArray temperature = zarr.array(DataTypes.FLOAT32, shape)
                .chunks(6, 90, 90)
                .codec(GzipConfiguration.level(1))
                .fillValue("NaN")
                .dimensionNames("time", "lat", "lon")
                .attributes(Map.of("units", "degC"))
                .create(store, "/weather/temperature");
        float[] values = new float[(int) (shape[0] * shape[1] * shape[2])];
        for (int t = 0, i = 0; t < shape[0]; t++) {
            for (int y = 0; y < shape[1]; y++) {
                for (int x = 0; x < shape[2]; x++, i++) {
                    values[i] = (float) (15 + 10 * Math.sin(y / 30.0) * Math.cos(x / 45.0) + t * 0.1);
                }
            }
        }
        temperature.write(new long[3], NdArray.copyOf(DataTypes.FLOAT32, values, shape));

        // A 2-d int32 array stored transposed, with a crc32c checksum, only partly written.
        ZarrArray counts = zarr.array(DataTypes.INT32, 100, 100)
                .chunks(32, 32)
                .codecs(TransposeConfiguration.of(1, 0), BytesConfiguration.BIG_ENDIAN, Crc32cConfiguration.of())
                .fillValue(-1)
                .create(store, "/counts");
        int[] block = new int[40 * 50];
        Arrays.setAll(block, i -> i);
        counts.write(new long[] {10, 20}, new long[] {40, 50}, block);

        int failures = 0;
        float[] back = zarr.openArray(store, "/weather/temperature").read().toFloatArray();
        if (!Arrays.equals(back, values)) {
            System.out.println("MISMATCH: /weather/temperature read back differs");
            failures++;
        }
        NdArray region = zarr.openArray(store, "/counts").read(new long[] {0, 0}, new long[] {60, 80});
        for (int y = 0; y < 60; y++) {
            for (int x = 0; x < 80; x++) {
                long expected = (y >= 10 && y < 50 && x >= 20 && x < 70) ? (y - 10) * 50 + (x - 20) : -1;
                if (region.getLong(y * 80L + x) != expected) {
                    failures++;
                }
            }
        }

        System.out.println("store: " + store.describe());
        print(zarr.openGroup(store, "/"), store, "");
        System.out.println(failures == 0 ? "all values read back correctly" : failures + " values differ");
        System.exit(failures == 0 ? 0 : 1);
    }

    private static void print(ZarrNode node, Store store, String indent) {
        if (node instanceof ZarrArray a) {
            String prefix = a.path().substring(1) + "/";
            long stored = store.listPrefix(prefix).stream().filter(k -> !k.value().endsWith("zarr.json")).count();
            long bytes = store.listPrefix(prefix).stream().mapToLong(k -> store.size(k).orElse(0)).sum();
            System.out.printf("%s%s  array %s %s chunks %s codecs %s  stored chunks %d (%d bytes)%n", indent,
                    a.path(), a.dataType().name(), Arrays.toString(a.shape()), Arrays.toString(a.chunkShape()),
                    a.codecs(), stored, bytes);
        } else if (node instanceof ZarrGroup g) {
            System.out.printf("%s%s  group %s%n", indent, g.path(), g.attributes());
            for (ZarrNode child : g.children()) {
                print(child, store, indent + "  ");
            }
        }
    }
}
