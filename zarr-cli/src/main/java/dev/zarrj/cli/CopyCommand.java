package dev.zarrj.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code zarr copy}: a node or a whole hierarchy into another store, optionally re-encoded or in
 * another metadata format (Zarr v2 ⇄ v3 migration). Each array's metadata is the source's Zarr v3
 * document (for a v2 source its v3 equivalent), stored in the destination's format. Where the
 * destination's data type, chunk grid, codecs and fill value are the source's (and neither has
 * storage transformers), the stored chunks are copied byte for byte, under keys in the
 * destination's chunk key encoding; otherwise every chunk is decoded and encoded again.
 */
@Command(name = "copy",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr copy data.zarr backup.zip",
                "  zarr copy data.zarr v2.zarr --zarr-format 2",
                "  zarr copy data.zarr sharded.zarr --shard 1000,1000 --chunks 100,100"}, mixinStandardHelpOptions = true,
        description = {"Copy a node or hierarchy to another store, optionally with new codecs, chunks or sharding, "
                + "or in another Zarr format (--zarr-format 2|3: migration between Zarr v2 and v3).",
                "Each array's stored chunks are copied byte for byte when its data type, chunk grid, codecs and fill "
                + "value stay the same (only the chunk keys change with the key encoding), else decoded and encoded "
                + "again; the output says which, per array. Every array's metadata is checked against the "
                + "destination format before anything is written."})
final class CopyCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "SRC")
    String source;

    @Parameters(index = "1", paramLabel = "DST")
    String destination;

    @Option(names = "--path", defaultValue = "/", description = "The node to copy (default: the whole hierarchy).")
    String path;

    @Option(names = "--codecs", paramLabel = "JSON", description = "New codec chain (inner chain with --shard).")
    String codecs;

    @Option(names = "--chunks", description = "New chunk shape (inner chunk shape with --shard).")
    String chunks;

    @Option(names = "--shard", description = "New shard shape.")
    String shard;

    @Option(names = "--zarr-format", paramLabel = "N", description = "Store the copy as Zarr v3 (3) or Zarr v2 (2: "
            + ".zarray/.zgroup/.zattrs). Default: each node in its own format.")
    Integer zarrFormat;

    @Option(names = "--chunk-key-encoding", paramLabel = "NAME[:SEP]", description = "The copy's chunk key encoding: "
            + "default (keys c/0/0; separator '/' unless given, e.g. default:.) or v2 (keys 0.0; separator '.' unless "
            + "given or the source's is v2, e.g. v2:/). Default: the source's; copying a v3 array with default keys "
            + "to Zarr v2 uses v2 '.' (Zarr v2 has only the v2 encoding). The chunks are still copied byte for byte.")
    String keyEncoding;

    @Mixin
    WaitOption waitOption;

    /** What was copied, per array, printed once the destination is closed. */
    private final List<String> report = new ArrayList<>();
    private long copiedArrays;
    private long rawArrays;
    private long rawChunks;
    private long reencodedArrays;
    private long reencodedChunks;
    private long groups;
    private Progress progress;
    /** The larger of the two stores' {@link Store#ioConcurrency()} suggestions. */
    private int storeConcurrency;

    /**
     * One node to copy: a group (doc null; {@code consolidate} when it holds consolidated metadata)
     * or an array with the v3 document its copy gets.
     */
    private record Step(ZarrNode node, int format, ObjectNode doc, String keyChange, boolean consolidate) {}

    @Override
    public Integer call() throws Exception {
        if (zarrFormat != null && zarrFormat != 2 && zarrFormat != 3) {
            throw new UserError("--zarr-format must be 2 or 3, not " + zarrFormat);
        }
        if (keyEncoding != null) {
            keyEncoding(keyEncoding, null); // a mistake there is said before anything is read
        }
        Store src = root.openStore(source, true);
        List<Step> steps = new ArrayList<>();
        plan(root.zarr().open(src, path), steps, false);
        check(steps);
        Store dst = root.openStore(waitOption.apply(destination), false);
        storeConcurrency = Math.max(src.ioConcurrency(), dst.ioConcurrency());
        // One bar for the whole copy, each array a phase of it: shown once the copy has taken a
        // second, however quick each array is.
        try (Progress p = root.progress("copy", -1, "chunks")) {
            progress = p;
            for (Step step : steps) {
                copy(step, dst);
            }
        }
        // The groups that kept consolidated metadata keep them, of the copy, deepest first.
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step step = steps.get(i);
            if (step.consolidate()) {
                ZarrGroup g = root.zarr().consolidate(dst, step.node().path());
                report.add(g.path() + ": consolidated metadata of " + g.consolidatedPaths().orElse(List.of()).size()
                        + " node(s) in " + ConsolidateCommand.consolidatedDocument(g));
            }
        }
        root.closeStore(dst);
        // Said only now: a store that fails to close (a zip archive not written) has copied nothing.
        report.forEach(root.out()::println);
        StringBuilder summary = new StringBuilder("copied " + copiedArrays + " array(s)");
        if (groups > 0) {
            summary.append(" and ").append(groups).append(" group(s)");
        }
        summary.append(" from ").append(src.describe()).append(" to ").append(dst.describe());
        if (zarrFormat != null) {
            summary.append(" as Zarr v").append(zarrFormat);
        }
        summary.append(": ").append(rawArrays).append(" byte for byte (").append(rawChunks).append(" chunk(s)), ")
                .append(reencodedArrays).append(" re-encoded (").append(reencodedChunks).append(" chunk(s))");
        root.out().println(summary);
        return 0;
    }

    /**
     * Every node below (and including) {@code node}, parents first, with the documents of the
     * arrays' copies. {@code inView}: the node was opened through an ancestor's consolidated
     * metadata, whose entries for groups may not say whether they have consolidated metadata of their own.
     */
    private void plan(ZarrNode node, List<Step> steps, boolean inView) {
        int format = zarrFormat != null ? zarrFormat : node.zarrFormat();
        if (node instanceof ZarrGroup g) {
            boolean view = g.consolidatedPaths().isPresent();
            // Opened through an ancestor's view, a group's own consolidated metadata (a second
            // .zmetadata below the root's, say) show only in its own document.
            boolean own = view && (!inView || root.zarr().open(g.store(), g.path()) instanceof ZarrGroup self
                    && self.metadata().has("consolidated_metadata"));
            steps.add(new Step(g, format, null, null, own));
            for (String child : g.childNames()) {
                plan(g.open(child), steps, inView || view);
            }
            return;
        }
        ZarrArray a = (ZarrArray) node;
        ObjectNode doc = a.metadata();
        long[] c = ZarrCli.longs(chunks, "--chunks");
        long[] s = ZarrCli.longs(shard, "--shard");
        ArrayNode chain = codecs == null ? null : CreateCommand.array(codecs, "--codecs");
        if (s != null) {
            doc.set("chunk_grid", grid(s));
            ArrayNode inner = chain != null ? chain : (ArrayNode) a.codecs();
            doc.set("codecs", CreateCommand.shardingChain(c != null ? c : a.chunkShape(), inner, a.dataType()));
        } else {
            if (c != null) {
                doc.set("chunk_grid", grid(c));
            }
            if (chain != null) {
                doc.set("codecs", chain);
            }
        }
        JsonNode before = doc.get("chunk_key_encoding");
        if (keyEncoding != null) {
            doc.set("chunk_key_encoding", keyEncoding(keyEncoding, before));
        } else if (format == 2 && "default".equals(before.path("name").asText())) {
            // Zarr v2 names chunks by their coordinates alone, as v3's v2 encoding does.
            doc.set("chunk_key_encoding", keyEncoding("v2", before));
        }
        JsonNode after = doc.get("chunk_key_encoding");
        String change = sameJson(before, after) ? null
                : "chunk keys " + describeEncoding(before) + " -> " + describeEncoding(after);
        steps.add(new Step(a, format, doc, change, false));
    }

    /**
     * Creates every array's copy in memory first, so that what the destination format cannot
     * express (sharding in Zarr v2, say) or an invalid new chain stops the copy before anything is written.
     */
    private void check(List<Step> steps) {
        try (Store probe = root.zarr().openStore("memory:", false)) {
            for (Step step : steps) {
                if (step.doc() != null) {
                    try {
                        root.zarr().createArray(probe, step.node().path(), step.doc(), true, step.format());
                    } catch (InvalidMetadataException e) {
                        throw cannotCopy(step, e);
                    }
                }
            }
        }
    }

    /** The error, said of the array it concerns and the format it was to be copied to. */
    private static InvalidMetadataException cannotCopy(Step step, InvalidMetadataException e) {
        String m = "cannot copy array " + step.node().path() + " as Zarr v" + step.format() + ": " + e.detail();
        return e instanceof UnsupportedFormatException ? new UnsupportedFormatException("", m, e)
                : new InvalidMetadataException("", m, e);
    }

    private void copy(Step step, Store dst) throws Exception {
        if (step.doc() == null) {
            ZarrGroup g = (ZarrGroup) step.node();
            root.zarr().createGroup(dst, g.path(), g.attributes(), step.format());
            groups++;
            return;
        }
        ZarrArray a = (ZarrArray) step.node();
        ZarrArray out;
        try {
            out = root.zarr().createArray(dst, a.path(), step.doc(), true, step.format());
        } catch (InvalidMetadataException e) {
            throw cannotCopy(step, e);
        }
        String different = difference(a.metadata(), out.metadata());
        if (different == null && !a.store().capabilities().listable()) {
            different = "the source cannot be listed"; // its stored chunks cannot be found, so every chunk is read
        }
        String line;
        if (different == null) {
            long n = copyStoredChunks(a, out);
            rawArrays++;
            rawChunks += n;
            line = "copied byte for byte: " + n + " chunk(s)";
        } else {
            long n = copyData(a, out);
            reencodedArrays++;
            reencodedChunks += n;
            line = "re-encoded (" + different + "): " + n + " chunk(s)";
        }
        if (step.keyChange() != null) {
            line += ", " + step.keyChange();
        }
        report.add(a.path() + " -> Zarr v" + step.format() + ": " + line);
        copiedArrays++;
    }

    /**
     * Why stored chunks of {@code from} cannot serve as those of {@code to} (the fields that
     * differ), or null when they can: same data type, chunk grid, codecs and fill value, and no
     * storage transformers.
     */
    static String difference(ObjectNode from, ObjectNode to) {
        List<String> d = new ArrayList<>();
        for (String field : List.of("data_type", "chunk_grid", "codecs", "fill_value")) {
            if (!sameJson(from.get(field), to.get(field))) {
                d.add(field.replace('_', ' ') + (field.endsWith("s") ? " differ" : " differs"));
            }
        }
        if (hasTransformers(from) || hasTransformers(to)) {
            d.add("storage transformers");
        }
        return d.isEmpty() ? null : String.join(", ", d);
    }

    private static boolean hasTransformers(ObjectNode doc) {
        JsonNode t = doc.get("storage_transformers");
        return t != null && !t.isNull() && !(t.isArray() && t.isEmpty());
    }

    /** JSON equality where numbers compare by value (a translation may write 1 as 1.0). */
    static boolean sameJson(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals((x, y) -> {
            if (x.isNumber() && y.isNumber()) {
                return x.decimalValue().compareTo(y.decimalValue());
            }
            return x.equals(y) ? 0 : 1;
        }, b);
    }

    /**
     * The chunk key encoding {@code --chunk-key-encoding} names: {@code default} or {@code v2},
     * with {@code :SEP}; without, the source's separator when it has the same encoding, else the
     * encoding's usual one.
     */
    static ObjectNode keyEncoding(String text, JsonNode source) {
        int colon = text.indexOf(':');
        String name = colon < 0 ? text : text.substring(0, colon);
        if (!name.equals("default") && !name.equals("v2")) {
            throw new UserError("--chunk-key-encoding must be default or v2 (optionally :/ or :.), not '" + text + "'");
        }
        String separator;
        if (colon >= 0) {
            separator = text.substring(colon + 1);
            if (!separator.equals("/") && !separator.equals(".")) {
                throw new UserError("--chunk-key-encoding '" + text + "': the separator must be / or .");
            }
        } else if (source != null && name.equals(source.path("name").asText())
                && source.path("configuration").path("separator").isTextual()) {
            separator = source.path("configuration").path("separator").asText();
        } else {
            separator = name.equals("default") ? "/" : ".";
        }
        ObjectNode n = JsonNodeFactory.instance.objectNode().put("name", name);
        n.putObject("configuration").put("separator", separator);
        return n;
    }

    private static String describeEncoding(JsonNode encoding) {
        String name = encoding.path("name").asText();
        JsonNode sep = encoding.path("configuration").path("separator");
        return name + " '" + (sep.isTextual() ? sep.asText() : name.equals("v2") ? "." : "/") + "'";
    }

    /**
     * Copies the stored chunk values of {@code from} unchanged to {@code to}, each under its key
     * in {@code to}'s key encoding, several at once. Returns how many.
     */
    private long copyStoredChunks(ZarrArray from, ZarrArray to) throws Exception {
        List<long[]> stored = from.storedChunks();
        if (stored.isEmpty()) {
            return 0;
        }
        Store in = from.store();
        Store out = to.store();
        int tasks = blocksInFlight(to);
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        progress.phase("copy " + from.path(), stored.size(), "chunks");
        ArrayDeque<Future<?>> inFlight = new ArrayDeque<>();
        try {
            for (long[] coords : stored) {
                if (inFlight.size() >= tasks) {
                    await(inFlight.poll());
                }
                inFlight.add(pool.submit(() -> {
                    StoreKey key = StoreKey.of(from.chunkKey(coords));
                    ByteBuffer bytes = in.get(key).orElseThrow(() -> new StoreException(
                            "chunk " + key + " of " + from.path() + " was listed but is gone", null));
                    int size = bytes.remaining();
                    out.set(StoreKey.of(to.chunkKey(coords)), bytes);
                    progress.step(size);
                }));
            }
            while (!inFlight.isEmpty()) {
                await(inFlight.poll());
            }
        } finally {
            pool.shutdownNow();
        }
        return stored.size();
    }

    private static ObjectNode grid(long[] shape) {
        ObjectNode g = JsonNodeFactory.instance.objectNode().put("name", "regular");
        ArrayNode cs = g.putObject("configuration").putArray("chunk_shape");
        for (long d : shape) {
            cs.add(d);
        }
        return g;
    }

    /** Copies block by block, one destination chunk (or shard) per block, several blocks at once. */
    private long copyData(ZarrArray from, ZarrArray to) throws Exception {
        long[] shape = from.shape();
        long[] block = to.chunkShape();
        long[] grid = to.chunkGridShape();
        long count = 1;
        for (long g : grid) {
            count *= g;
        }
        if (count == 0) {
            return 0;
        }
        int tasks = blocksInFlight(to);
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        progress.phase("copy " + from.path(), count, "chunks");
        ArrayDeque<Future<?>> inFlight = new ArrayDeque<>();
        try {
            long[] idx = new long[grid.length];
            for (long i = 0; i < count; i++) {
                long[] off = new long[idx.length];
                long[] ext = new long[idx.length];
                for (int d = 0; d < idx.length; d++) {
                    off[d] = idx[d] * block[d];
                    ext[d] = Math.min(block[d], shape[d] - off[d]);
                }
                if (inFlight.size() >= tasks) {
                    await(inFlight.poll());
                }
                inFlight.add(pool.submit(() -> {
                    NdArray data = from.read(off, ext);
                    to.write(off, data);
                    progress.step((long) data.byteSize());
                }));
                for (int d = idx.length - 1; d >= 0; d--) {
                    if (++idx[d] < grid[d]) {
                        break;
                    }
                    idx[d] = 0;
                }
            }
            while (!inFlight.isEmpty()) {
                await(inFlight.poll());
            }
        } finally {
            pool.shutdownNow();
        }
        return count;
    }

    /**
     * How many blocks to copy at once: the cores, or as many as the stores suggest keeping
     * requests in flight when that is more (a block waits on one read and one write, which on an
     * object store is mostly latency), within a quarter of the heap for the blocks held.
     */
    private int blocksInFlight(ZarrArray to) {
        int threads = Runtime.getRuntime().availableProcessors();
        long blockBytes = Math.max(1, to.chunkByteSize(new long[to.rank()]));
        long fit = Math.max(1, Runtime.getRuntime().maxMemory() / 4 / blockBytes);
        return (int) Math.max(threads, Math.min(storeConcurrency, fit));
    }

    private static void await(Future<?> f) throws Exception {
        try {
            f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw e;
        }
    }
}
