package dev.zarrj.cli;

import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code zarr verify}: decodes every stored chunk and reports each one that fails, by key. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Decode every stored chunk; report every corrupt or undecodable chunk by key. "
                + "Exit status 0 only when all are good.")
final class VerifyCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "STORE")
    String store;

    @Option(names = "--path", defaultValue = "/", description = "The node to verify (default: the whole hierarchy).")
    String path;

    private long chunks;
    private long bad;

    @Override
    public Integer call() {
        Store s = root.openStore(store, true);
        verify(s, path);
        root.out().printf("%d chunk(s) checked, %d bad%n", chunks, bad);
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
        Progress progress = new Progress(root.err(), "verify " + a.path(), stored.size());
        for (long[] c : stored) {
            chunks++;
            try {
                a.readChunk(c);
            } catch (ZarrException e) {
                bad++;
                root.out().println("BAD " + a.chunkKey(c) + ": " + e.getMessage());
            }
            progress.step(a.chunkByteSize(c));
        }
        progress.finish();
    }
}
