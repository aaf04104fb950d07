package dev.zarrj.examples;

import dev.zarrj.api.store.Store;
import dev.zarrj.conformance.vectors.VectorManifest;
import dev.zarrj.conformance.vectors.VectorResult;
import dev.zarrj.conformance.vectors.VectorVerifier;
import dev.zarrj.core.Zarr;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads with zarrj every array of a vector store written by another implementation (a directory
 * with {@code manifest.json}, as {@code zarr-conformance/vectors-gen/generate.mjs} writes it) and
 * compares each element with the manifest. Prints one line per array and a closing
 * {@code N passed, M failed} line.
 *
 * <p>Usage: {@code ZARRJ_MAIN=dev.zarrj.examples.VerifyVectors bin/zarr-demo DIR}. Exits with
 * status 1 when an array fails, is skipped (every plugin is installed here, so a skip is a
 * failure too), or none was verified; 2 on a usage error.
 */
public final class VerifyVectors {
    private VerifyVectors() {}

    public static void main(String[] args) {
        if (args.length != 1 || !Files.isRegularFile(Path.of(args[0], "manifest.json"))) {
            System.err.println("usage: VerifyVectors DIR (a store with manifest.json)");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Zarr zarr = Zarr.defaults();
        VectorManifest manifest = VectorManifest.read(dir);
        List<VectorResult> results;
        try (Store store = zarr.openStore(dir.toString(), true)) {
            results = VectorVerifier.verify(zarr, store, manifest);
        }
        results.forEach(r -> System.out.println(r.line()));
        System.out.println(VectorResult.summary(results));
        boolean ok = !results.isEmpty() && results.stream().allMatch(r -> r.status() == VectorResult.Status.PASS);
        System.exit(ok ? 0 : 1);
    }
}
