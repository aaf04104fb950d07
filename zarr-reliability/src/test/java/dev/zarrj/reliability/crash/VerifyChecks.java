package dev.zarrj.reliability.crash;

import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks of {@code zarr verify} (zarr-cli's {@code VerifyCommand}), reproduced here because
 * the CLI depends on every module and this one must not depend on it: every node of the
 * hierarchy opens, every stored chunk (shard) of every array decodes, and no folder stands where
 * a chunk should be. Also the check the crash tests add: every key the store lists is metadata or
 * a chunk of an array, never a temporary file.
 */
public final class VerifyChecks {
    /** What was checked, and each problem found (empty when the store passes). */
    public record Result(long nodes, long chunks, long keys, List<String> problems) {}

    private VerifyChecks() {}

    /** Runs every check on the hierarchy at the root of {@code store}. */
    public static Result verify(Zarr zarr, Store store) {
        List<String> problems = new ArrayList<>();
        List<ZarrArray> arrays = new ArrayList<>();
        long[] counts = new long[2];
        walk(zarr, store, "/", arrays, problems, counts);
        long keys = 0;
        for (StoreKey k : store.list()) {
            keys++;
            String key = k.value();
            boolean ok = key.equals("zarr.json");
            for (ZarrArray a : arrays) {
                String prefix = a.path().substring(1) + "/";
                if (key.equals(prefix + "zarr.json") || a.chunkCoords(key).isPresent()) {
                    ok = true;
                }
            }
            for (String segment : key.split("/")) {
                if (segment.startsWith(".")) {
                    ok = false; // a temporary file (.zarrj-*.tmp), a lock file, or any hidden name
                }
            }
            if (!ok) {
                problems.add("listed key '" + key + "' is neither metadata nor a chunk");
            }
        }
        return new Result(counts[0], counts[1], keys, List.copyOf(problems));
    }

    private static void walk(Zarr zarr, Store store, String path, List<ZarrArray> arrays, List<String> problems,
            long[] counts) {
        ZarrNode node;
        counts[0]++;
        try {
            node = zarr.open(store, path);
        } catch (ZarrException e) {
            problems.add("BAD node " + path + ": " + e.getMessage());
            return;
        }
        if (node instanceof ZarrGroup g) {
            for (String child : g.childNames()) {
                walk(zarr, store, (path.endsWith("/") ? path : path + "/") + child, arrays, problems, counts);
            }
            return;
        }
        ZarrArray a = (ZarrArray) node;
        arrays.add(a);
        Set<String> storedKeys = new HashSet<>();
        for (long[] c : a.storedChunks()) {
            counts[1]++;
            storedKeys.add(a.chunkKey(c));
            try {
                a.readChunk(c);
            } catch (ZarrException e) {
                problems.add("BAD " + a.chunkKey(c) + ": " + e.getMessage());
            }
        }
        ArrayDeque<String> todo = new ArrayDeque<>();
        todo.push(a.path().equals("/") ? "" : a.path().substring(1) + "/");
        while (!todo.isEmpty()) {
            for (String prefix : store.listDir(todo.pop()).prefixes()) {
                String key = prefix.substring(0, prefix.length() - 1);
                if (a.chunkCoords(key).isEmpty()) {
                    todo.push(prefix);
                } else if (!storedKeys.contains(key)) {
                    problems.add("BAD " + key + ": a folder where a chunk should be");
                }
            }
        }
    }
}
