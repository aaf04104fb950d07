package dev.zarrj.cli;

import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code zarr verify}: decodes every stored chunk and reports each one that fails, by key, and
 * anything at a chunk's place that is not a value; lists (and with {@code --clean} removes) what
 * crashed writers left beside the values.
 */
@Command(name = "verify",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr verify data.zarr",
                "  zarr verify data.zarr --path /temp",
                "  zarr verify data.zarr --clean --min-age 10m"}, mixinStandardHelpOptions = true,
        description = {"Decode every stored chunk; report by key every chunk that is corrupt or undecodable, and "
                + "anything at a chunk's place that is not a value (a folder, a fifo). Exit status 0 only when all "
                + "are good.",
                "Then list the store's leftovers (of the whole store, whatever --path says): temporary files of writes "
                + "that a crash interrupted, with their size, marked live when a running writer still owns them. They "
                + "are not an error of the data and do not change the exit status; --clean removes them."})
final class VerifyCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "STORE")
    String store;

    @Option(names = "--path", defaultValue = "/", description = "The node to verify (default: the whole hierarchy).")
    String path;

    @Option(names = "--clean", description = "Remove the leftovers that no running writer owns and that are at least "
            + "--min-age old, and print what was removed. Values are never touched; works on a store in use.")
    boolean clean;

    @Option(names = "--min-age", paramLabel = "DURATION", defaultValue = "1s", converter = Durations.Converter.class,
            description = "With --clean, keep leftovers written less than this long ago (default: ${DEFAULT-VALUE}; "
                    + "e.g. 500ms, 30s, 10m, 2h, 1d). It guards a writer that has created its temporary file but not "
                    + "yet locked it, and writers on another machine, whose locks may not be visible here.")
    Duration minAge;

    /** One bar for the whole verification, each array a phase of it. */
    private Progress progress;
    private long chunks;
    private long bad;

    @Override
    public Integer call() {
        Store s = root.openStore(store, true);
        try (Progress p = root.progress("verify", -1, "chunks")) {
            progress = p;
            verify(s, path);
        }
        root.out().printf("%d chunk(s) checked, %d bad%n", chunks, bad);
        leftovers(s);
        if (bad > 0) {
            throw new ZarrCli.CheckFailed(bad + " bad chunk(s) or node(s) in " + s.describe());
        }
        return 0;
    }

    private void verify(Store s, String nodePath) {
        ZarrNode node;
        try {
            node = root.zarr().open(s, nodePath);
        } catch (ZarrException e) {
            bad++;
            progress.clear();
            root.out().println("BAD node " + nodePath + ": " + e.getMessage());
            return;
        }
        if (node instanceof ZarrGroup g) {
            for (String child : g.childNames()) {
                verify(s, (nodePath.endsWith("/") ? nodePath : nodePath + "/") + child);
            }
            return;
        }
        ZarrArray a = (ZarrArray) node;
        var stored = a.storedChunks();
        Set<String> storedKeys = new HashSet<>();
        progress.phase("verify " + a.path(), stored.size(), "chunks");
        for (long[] c : stored) {
            chunks++;
            storedKeys.add(a.chunkKey(c));
            try {
                a.readChunk(c);
            } catch (ZarrException e) {
                bad++;
                progress.clear();
                root.out().println("BAD " + a.chunkKey(c) + ": " + e.getMessage());
            }
            progress.step(a.chunkByteSize(c));
        }
        checkFolders(s, a, storedKeys);
    }

    /**
     * Reports the chunk keys at which the store lists a prefix (a folder where a chunk file should
     * be): a listing of keys does not show them, and a read reports them as errors.
     */
    private void checkFolders(Store s, ZarrArray a, Set<String> storedKeys) {
        ArrayDeque<String> todo = new ArrayDeque<>();
        todo.push(a.path().equals("/") ? "" : a.path().substring(1) + "/");
        while (!todo.isEmpty()) {
            for (String prefix : s.listDir(todo.pop()).prefixes()) {
                String key = prefix.substring(0, prefix.length() - 1);
                if (a.chunkCoords(key).isEmpty()) {
                    todo.push(prefix);
                    continue;
                }
                if (storedKeys.contains(key)) {
                    continue; // a value, read above, with keys below it: the chunk itself is fine
                }
                chunks++;
                bad++;
                String what = "a folder where a chunk should be";
                try {
                    OptionalLong size = s.size(StoreKey.of(key));
                    if (size.isPresent()) {
                        what += " (and a value of " + size.getAsLong() + " bytes)";
                    }
                } catch (ZarrException e) {
                    what = e.getMessage();
                }
                progress.clear();
                root.out().println("BAD " + key + ": " + what);
            }
        }
    }

    private void leftovers(Store s) {
        if (clean) {
            List<Leftover> removed = s.removeLeftovers(minAge);
            long bytes = 0;
            for (Leftover l : removed) {
                root.out().println("removed leftover " + l.location() + " " + l.size() + " bytes");
                bytes += l.size();
            }
            root.out().printf("%d leftover(s) removed, %d bytes%n", removed.size(), bytes);
        }
        List<Leftover> left = s.leftovers();
        long bytes = 0;
        long live = 0;
        for (Leftover l : left) {
            root.out().println("leftover " + l.location() + " " + l.size() + " bytes"
                    + (l.live() ? " (live: a writer is still running)" : ""));
            bytes += l.size();
            live += l.live() ? 1 : 0;
        }
        if (left.isEmpty()) {
            root.out().println(clean ? "no leftovers remain" : "no leftovers");
        } else if (live == left.size()) {
            root.out().printf("%d leftover(s), %d bytes, all live%n", left.size(), bytes);
        } else if (clean) {
            root.out().printf("%d leftover(s), %d bytes, %d live; the others are younger than --min-age %s%n",
                    left.size(), bytes, live, Durations.format(minAge));
        } else {
            root.out().printf("%d leftover(s), %d bytes, %d live; zarr verify --clean removes the others%n",
                    left.size(), bytes, live);
        }
    }
}
