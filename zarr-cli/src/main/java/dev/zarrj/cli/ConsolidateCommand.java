package dev.zarrj.cli;

import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code zarr consolidate}: writes consolidated metadata into a group's zarr.json. */
@Command(name = "consolidate",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr consolidate data.zarr",
                "  zarr consolidate data.zarr --path /weather"}, mixinStandardHelpOptions = true,
        description = "Write consolidated metadata into a group's zarr.json: the metadata document of every array "
                + "and group below it, as zarr-python 3 writes them (consolidated_metadata, kind inline), so that "
                + "readers open the whole hierarchy with one request. The store must be listable and writable; "
                + "zarrj keeps the consolidated metadata current when it writes below the group afterwards.")
final class ConsolidateCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "STORE", description = "A directory, file:/zip:/memory: URI, or .zip path.")
    String store;

    @Option(names = "--path", defaultValue = "/", description = "The group to consolidate (default: the root).")
    String path;

    @Override
    public Integer call() {
        Store s = root.openStore(store, false);
        ZarrGroup g;
        try (Progress progress = root.progress("consolidate " + path, -1, "nodes", true)) {
            g = root.zarr().consolidate(s, path);
        }
        List<String> nodes = g.consolidatedPaths().orElse(List.of());
        String key = (g.path().equals("/") ? "" : g.path().substring(1) + "/") + consolidatedDocument(g);
        String where = s.describe();
        root.closeStore(s);
        root.out().println("consolidated the metadata of " + nodes.size() + " node(s) below " + g.path() + " into '"
                + key + "' of " + where);
        return 0;
    }

    /** The name of the document a group keeps its consolidated metadata in, by its Zarr format. */
    static String consolidatedDocument(ZarrNode group) {
        return switch (group.zarrFormat()) {
            case 3 -> "zarr.json";
            case 2 -> ".zmetadata";
            default -> "consolidated metadata document";
        };
    }
}
