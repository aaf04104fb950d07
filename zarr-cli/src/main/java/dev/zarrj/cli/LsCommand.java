package dev.zarrj.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code zarr ls}: a group's children, one line each, sorted by name: what {@code ls} is to a
 * directory. Columns are separated by two spaces or more and never empty ({@code -} where a
 * value does not apply), so that {@code awk} and {@code cut} can read them; the long form puts the
 * name last, as {@code ls -l} does.
 */
@Command(name = "ls",
        description = {"List a group's children, sorted by name: name, kind (array or group), shape, data type. "
                + "Naming an array lists the array itself.",
                "With -l: kind, shape, data type, chunk shape, stored chunks of the grid, stored bytes, then the name "
                + "(groups: - for what does not apply). -r lists every node below, by path relative to the group."},
        footerHeading = "%nExamples:%n",
        footer = {"  zarr ls data.zarr",
                "  zarr ls -l data.zarr --path /weather",
                "  zarr ls -lrh s3://bucket/data.zarr"})
final class LsCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", arity = "0..1", paramLabel = "STORE", defaultValue = ".",
            description = "A directory, file:/zip:/memory:/http(s):/s3: URI, or .zip path (default: the current directory).")
    String store;

    @Option(names = "--path", defaultValue = "/", description = "The group to list (default: the root).")
    String path;

    @Option(names = {"-l", "--long"}, description = "Long form: also chunk shape, stored chunks and stored bytes.")
    boolean longForm;

    @Option(names = {"-r", "--recursive"}, description = "List every node below the group, not only its children.")
    boolean recursive;

    @Option(names = {"-h", "--human-readable"}, description = "With -l, sizes as 1.5 KiB, 3.2 MiB rather than bytes.")
    boolean human;

    @Option(names = "--help", usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Override
    public Integer call() throws Exception {
        Store s = root.openStore(store, true);
        ZarrNode node = root.zarr().open(s, path);
        List<String[]> rows = new ArrayList<>();
        if (node instanceof ZarrGroup g) {
            if (!s.capabilities().listable() && g.consolidatedPaths().isEmpty()) {
                throw new UserError("cannot list " + g.path() + " of " + s.describe()
                        + ": the store is not listable and the group has no consolidated metadata");
            }
            list(g, "", s, rows);
        } else {
            rows.add(row(node, node.path().substring(node.path().lastIndexOf('/') + 1), s));
        }
        printColumns(root.out(), rows, !longForm);
        return 0;
    }

    private void list(ZarrGroup g, String prefix, Store s, List<String[]> rows) throws Exception {
        for (ZarrNode child : g.children()) {
            String name = prefix + child.path().substring(child.path().lastIndexOf('/') + 1);
            rows.add(row(child, name, s));
            if (recursive && child instanceof ZarrGroup cg) {
                list(cg, name + "/", s, rows);
            }
        }
    }

    private String[] row(ZarrNode node, String name, Store s) throws Exception {
        boolean array = node instanceof ZarrArray;
        String kind = array ? "array" : "group";
        String shape = "-";
        String type = "-";
        String chunkShape = "-";
        String chunks = "-";
        String bytes = "-";
        if (node instanceof ZarrArray a) {
            shape = shape(a.shape());
            type = ElementFormats.typeText(a.dataType());
            chunkShape = shape(a.chunkShape());
            if (longForm && s.capabilities().listable()) {
                StoredChunks stored = StoredChunks.of(s, a);
                long grid = 1;
                for (long d : a.chunkGridShape()) {
                    grid *= d;
                }
                chunks = stored.count() + "/" + grid;
                long total = stored.bytes();
                bytes = human ? InfoCommand.humanBytes(total).replace(" ", "") : Long.toString(total);
            }
        }
        if (!longForm) {
            return new String[] {name, kind, shape, type};
        }
        return new String[] {kind, shape, type, chunkShape, chunks, bytes, name};
    }

    /** A shape as {@code 200x200} (a scalar: {@code ()}). */
    static String shape(long[] shape) {
        if (shape.length == 0) {
            return "()";
        }
        StringBuilder b = new StringBuilder();
        for (long d : shape) {
            b.append(b.length() == 0 ? "" : "x").append(d);
        }
        return b.toString();
    }

    static String shape(JsonNode shape) {
        long[] s = new long[shape.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = shape.get(i).asLong();
        }
        return shape(s);
    }

    /**
     * Prints rows as columns two spaces apart, padded to the widest cell (widths by code points, so
     * tree lines align); {@code nameFirst}: the first column is left-aligned text, the others too
     * but for trailing sizes; the last column is never padded.
     */
    static void printColumns(PrintWriter out, List<String[]> rows, boolean nameFirst) {
        if (rows.isEmpty()) {
            return;
        }
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row[c].codePointCount(0, row[c].length()));
            }
        }
        for (String[] row : rows) {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                if (c > 0) {
                    b.append("  ");
                }
                String cell = row[c];
                int pad = width[c] - cell.codePointCount(0, cell.length());
                boolean number = !nameFirst && c == columns - 2; // the size column, right-aligned
                if (number) {
                    b.append(" ".repeat(pad)).append(cell);
                } else {
                    b.append(cell);
                    if (c < columns - 1) {
                        b.append(" ".repeat(pad));
                    }
                }
            }
            out.println(b.toString().stripTrailing());
        }
    }
}
