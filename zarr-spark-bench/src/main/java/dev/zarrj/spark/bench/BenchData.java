package dev.zarrj.spark.bench;

import dev.zarrj.api.NdArray;
import dev.zarrj.bench.data.Fields;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The benchmark's data, written once and kept in {@code DIR/<scale>/}: the float32 array as Zarr
 * ({@code float32-zstd-1.zarr/}, an array at the store's root, so that Spark names its value
 * column {@code value}: bytes + zstd level 1, no checksum, as {@code zarr bench}'s
 * {@code float32/zstd-1}) and the same values as Parquet written by Spark with zstd
 * ({@code float32-zstd.parquet/}: columns {@code dim_0}, {@code dim_1}, {@code dim_2} long and {@code value}
 * float). A marker file beside each, written last, says it is complete and what it holds, so that
 * an interrupted or different-sized run is redone rather than measured.
 */
final class BenchData {
    private final Scale scale;
    private final Path root;

    BenchData(Path dir, Scale scale) {
        this.scale = scale;
        this.root = dir.resolve(scale.name());
    }

    Path zarrStore() {
        return root.resolve("float32-zstd-1.zarr");
    }

    Path parquet() {
        return root.resolve("float32-zstd.parquet");
    }

    /** What the markers hold: a cached copy is reused only when it was made for the same data. */
    private String description(String what) {
        return what + " float32 " + scale + " v2\n";
    }

    /** Writes the Zarr array unless a complete copy is there; returns whether it wrote. */
    boolean ensureZarr(Zarr zarr) {
        Path marker = root.resolve("zarr.complete");
        if (holds(marker, description("zarr zstd-1"))) {
            return false;
        }
        deleteTree(zarrStore());
        deleteTree(marker);
        try (Store store = zarr.openStore(zarrStore().toString())) {
            ZarrArray array = zarr.array(DataTypes.FLOAT32, scale.shape()).chunks(scale.chunks())
                    .codec("zstd", Map.of("level", 1, "checksum", false)).create(store, "/");
            array.write(smoothField(scale.shape()));
        } catch (Exception e) {
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
        mark(marker, description("zarr zstd-1"));
        return true;
    }

    /**
     * Writes the Parquet copy with Spark unless a complete one is there; returns whether it wrote.
     * The values are the same expression as {@link #smoothField}, computed by Spark in double as
     * Java computes it, then cast to float.
     */
    boolean ensureParquet(SparkSession spark) {
        Path marker = root.resolve("parquet.complete");
        if (holds(marker, description("parquet zstd"))) {
            return false;
        }
        deleteTree(parquet());
        deleteTree(marker);
        long[] s = scale.shape();
        long plane = s[1] * s[2];
        spark.range(0, scale.elements())
                .selectExpr(String.format(Locale.ROOT, "id DIV %d AS dim_0", plane),
                        String.format(Locale.ROOT, "(id DIV %d) %% %d AS dim_1", s[2], s[1]),
                        String.format(Locale.ROOT, "id %% %d AS dim_2", s[2]))
                .selectExpr("dim_0", "dim_1", "dim_2",
                        "CAST(sin(dim_0 * 0.05D) * cos(dim_1 * 0.02D) + dim_2 * 0.001D AS FLOAT) AS value")
                .write().mode(SaveMode.ErrorIfExists).option("compression", "zstd").parquet(parquet().toString());
        mark(marker, description("parquet zstd"));
        return true;
    }

    /** {@code zarr bench}'s float32 field ({@link Fields#smoothFloat32}): the same values. */
    static NdArray smoothField(long[] shape) {
        return Fields.smoothFloat32(shape);
    }

    /** Bytes on disk under a folder (what each format stores the same values in). */
    static long sizeOnDisk(Path folder) {
        try (Stream<Path> s = Files.walk(folder)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean holds(Path marker, String content) {
        try {
            return Files.isRegularFile(marker) && Files.readString(marker).equals(content);
        } catch (IOException e) {
            return false;
        }
    }

    private static void mark(Path marker, String content) {
        try {
            Files.createDirectories(marker.getParent());
            Files.writeString(marker, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(q -> {
                try {
                    Files.delete(q);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
