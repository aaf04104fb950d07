package dev.zarrj.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.util.ArrayDeque;
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

/** {@code zarr copy}: a node or a whole hierarchy into another store, optionally re-encoded. */
@Command(name = "copy", mixinStandardHelpOptions = true,
        description = "Copy a node or hierarchy to another store, optionally with new codecs, chunks or sharding.")
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

    @Mixin
    WaitOption waitOption;

    private long copiedArrays;
    /** The larger of the two stores' {@link Store#ioConcurrency()} suggestions. */
    private int storeConcurrency;

    @Override
    public Integer call() throws Exception {
        Store src = root.openStore(source, true);
        Store dst = root.openStore(waitOption.apply(destination), false);
        storeConcurrency = Math.max(src.ioConcurrency(), dst.ioConcurrency());
        copy(root.zarr().open(src, path), dst);
        root.closeStore(dst);
        root.out().println("copied " + copiedArrays + " array(s) from " + src.describe() + " to " + dst.describe());
        return 0;
    }

    private void copy(ZarrNode node, Store dst) throws Exception {
        if (node instanceof ZarrGroup g) {
            root.zarr().createGroup(dst, g.path(), g.attributes());
            for (String child : g.childNames()) {
                copy(g.open(child), dst);
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
        ZarrArray out = root.zarr().createArray(dst, a.path(), doc, true);
        copyData(a, out);
        copiedArrays++;
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
    private void copyData(ZarrArray from, ZarrArray to) throws Exception {
        long[] shape = from.shape();
        long[] block = to.chunkShape();
        long[] grid = to.chunkGridShape();
        long count = 1;
        for (long g : grid) {
            count *= g;
        }
        if (count == 0) {
            return;
        }
        int tasks = blocksInFlight(to);
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        Progress progress = new Progress(root.err(), "copy " + from.path(), count);
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
            progress.finish();
        }
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
