package dev.zarrj.bench.data;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import java.nio.FloatBuffer;
import org.apiguardian.api.API;

/**
 * The values zarrj's benchmarks measure with, defined once so that every benchmark (`zarr bench`,
 * `bench/spark-bench`) reads and writes the same data.
 */
@API(status = INTERNAL, since = "0.17")
public final class Fields {
    private Fields() {}

    /**
     * A float32 array of rank 3 holding {@code sin(z * 0.05) * cos(y * 0.02) + x * 0.001}: smooth, as
     * real fields are, and so compressible.
     */
    public static NdArray smoothFloat32(long[] shape) {
        NdArray a = NdArray.allocate(DataTypes.FLOAT32, shape);
        FloatBuffer f = a.bytes().asFloatBuffer();
        double[] sz = new double[(int) shape[0]];
        double[] cy = new double[(int) shape[1]];
        for (int z = 0; z < sz.length; z++) {
            sz[z] = Math.sin(z * 0.05);
        }
        for (int y = 0; y < cy.length; y++) {
            cy[y] = Math.cos(y * 0.02);
        }
        int i = 0;
        for (int z = 0; z < shape[0]; z++) {
            for (int y = 0; y < shape[1]; y++) {
                double base = sz[z] * cy[y];
                for (int x = 0; x < shape[2]; x++) {
                    f.put(i++, (float) (base + x * 0.001));
                }
            }
        }
        return a;
    }
}
