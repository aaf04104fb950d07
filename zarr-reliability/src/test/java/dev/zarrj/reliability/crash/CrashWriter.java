package dev.zarrj.reliability.crash;

import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link CrashTest}, started while the parent checks the previous round: opens
 * both arrays at the location given (unless told to open late: a zip store takes the archive's
 * write lock when it opens, so it opens only when told to write), prints {@code @@READY}, reads
 * one order on standard input, {@code GO <array> <generation> <n> <r0> <c0> <r1> <c1>}, prints
 * {@code @@WRITING}, writes the region with that generation's values, closes the array (a zip
 * archive is written then), and prints {@code @@DONE <ms>}. The parent kills it with SIGKILL at a
 * random moment in between.
 */
public final class CrashWriter {
    private CrashWriter() {}

    public static void main(String[] args) throws Exception {
        String location = args[0];
        boolean openLate = args[1].equals("late");
        Zarr zarr = Zarr.defaults();
        Map<String, ZarrArray> open = new HashMap<>();
        if (!openLate) {
            for (String path : new String[] {CrashArrays.UNSHARDED, CrashArrays.SHARDED}) {
                open.put(path, zarr.openArray(location, path));
            }
        }
        System.out.println("@@READY");
        System.out.flush();
        String order = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (order == null || !order.startsWith("GO ")) {
            System.exit(0);
        }
        String[] f = order.split(" ");
        String path = f[1];
        int generation = Integer.parseInt(f[2]);
        int n = Integer.parseInt(f[3]);
        int r0 = Integer.parseInt(f[4]);
        int c0 = Integer.parseInt(f[5]);
        int r1 = Integer.parseInt(f[6]);
        int c1 = Integer.parseInt(f[7]);
        int[] values = CrashArrays.region(generation, n, r0, c0, r1, c1);
        long start;
        try (ZarrArray a = openLate ? zarr.openArray(location, path) : open.get(path)) {
            System.out.println("@@WRITING");
            System.out.flush();
            start = System.nanoTime();
            a.write(new long[] {r0, c0}, new long[] {r1 - r0, c1 - c0}, values);
        }
        System.out.println("@@DONE " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        System.out.flush();
        System.exit(0);
    }
}
