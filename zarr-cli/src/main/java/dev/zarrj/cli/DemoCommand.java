package dev.zarrj.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.BytesConfiguration;
import dev.zarrj.core.Crc32cConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.TransposeConfiguration;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code zarr demo}: writes a small hierarchy that shows the main features — groups with
 * attributes, several data types, gzip, blosc, zstd and sharding (each when installed) — checks
 * that it reads back, and prints its {@code info}.
 */
@Command(name = "demo",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr demo /tmp/demo.zarr",
                "  zarr demo /tmp/demo.zip"}, mixinStandardHelpOptions = true,
        description = "Write a demo hierarchy (groups, attributes, several data types and codecs), check it, show its info.")
final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "DIR", description = "Where to write the demo store (replaced if present).")
    String dir;

    private Progress progress;

    @Override
    public Integer call() throws Exception {
        Zarr zarr = root.zarr();
        Store store = root.openStore(dir, false);
        zarr.erase(store, "/");
        ObjectNode attrs = JsonNodeFactory.instance.objectNode().put("title", "zarrj demo").put("created_by", "zarr demo");
        zarr.createGroup(store, "/", attrs);
        zarr.createGroup(store, "/weather", JsonNodeFactory.instance.objectNode().put("source", "synthetic"));

        long[] shape = {24, 180, 360};
        NdArray field = NdArray.allocate(DataTypes.FLOAT32, shape);
        for (long i = 0; i < field.elementCount(); i++) {
            long t = i / (180 * 360);
            long y = (i / 360) % 180;
            long x = i % 360;
            field.setDouble(i, 15 + 10 * Math.sin(y / 30.0) * Math.cos(x / 45.0) + t * 0.1);
        }
        progress = root.progress("demo " + dir, 7, "arrays", true);
        try {
            return writeAll(zarr, store, shape, field);
        } finally {
            progress.close();
        }
    }

    private Integer writeAll(Zarr zarr, Store store, long[] shape, NdArray field) throws Exception {
        write(zarr.array(DataTypes.FLOAT32, shape).chunks(6, 90, 90).fillValue("NaN")
                .dimensionNames("time", "lat", "lon").attributes(Map.of("units", "degC"))
                .codec("gzip", Map.of("level", 1)), store, "/weather/temperature_gzip", field);
        if (installed("zstd")) {
            write(zarr.array(DataTypes.FLOAT32, shape).chunks(6, 90, 90).fillValue("NaN")
                    .dimensionNames("time", "lat", "lon").codec("zstd", Map.of("level", 3, "checksum", false)),
                    store, "/weather/temperature_zstd", field);
        }
        if (installed("blosc")) {
            String blosc = "/weather/temperature_blosc";
            try {
                write(zarr.array(DataTypes.FLOAT32, shape).chunks(6, 90, 90).fillValue("NaN")
                        .codec("blosc", Map.of("cname", "zstd", "clevel", 5, "shuffle", "shuffle", "typesize", 4, "blocksize", 0)),
                        store, blosc, field);
            } catch (dev.zarrj.api.ZarrException e) {
                // The blosc plugin is there but the system's c-blosc may not be: show the rest. The
                // array was created (c-blosc is loaded by the first chunk written), so it goes again.
                zarr.erase(store, blosc);
                root.err().println("zarr demo: no blosc array: " + e.getMessage());
            }
        }
        if (installed("sharding_indexed")) {
            write(zarr.array(DataTypes.FLOAT32, shape).chunks(6, 45, 45).shards(12, 180, 180).fillValue("NaN"),
                    store, "/weather/temperature_sharded", field);
        }
        NdArray counts = NdArray.allocate(DataTypes.UINT16, 100, 100);
        for (long i = 0; i < counts.elementCount(); i++) {
            counts.setLong(i, (i * 7) % 1000);
        }
        ZarrArray c = zarr.array(DataTypes.UINT16, 200, 200).chunks(64, 64).fillValue(0)
                .codecs(TransposeConfiguration.of(1, 0), BytesConfiguration.BIG_ENDIAN, Crc32cConfiguration.of())
                .create(store, "/counts");
        c.write(new long[] {50, 50}, counts);
        check(c.read(new long[] {50, 50}, new long[] {100, 100}), counts, "/counts");
        progress.step(counts.byteSize());
        zarr.array(DataTypes.BOOL, 16).chunks(8).create(store, "/flags")
                .write(new long[] {0}, new long[] {4}, new boolean[] {true, false, true, true});
        progress.step(0);
        progress.close(); // cleared before the info below is printed

        root.closeStore(store); // written (a zip archive: moved into place) before it is shown
        InfoCommand info = new InfoCommand();
        info.root = root;
        info.store = dir;
        info.path = "/";
        info.longForm = true; // the demo shows off every detail
        return info.call();
    }

    private boolean installed(String codec) {
        return root.zarr().registry().names(ExtensionPoint.CODEC).contains(codec);
    }

    private void write(dev.zarrj.core.ArrayBuilder builder, Store store, String path, NdArray data) {
        ZarrArray a = builder.create(store, path);
        a.write(data);
        check(a.read(), data, path);
        progress.step(data.byteSize());
    }

    private static void check(NdArray got, NdArray want, String path) {
        if (!got.contentEquals(want)) {
            throw new ZarrCli.CheckFailed("demo array " + path + " did not read back as written "
                    + Arrays.toString(got.shape()));
        }
    }
}
