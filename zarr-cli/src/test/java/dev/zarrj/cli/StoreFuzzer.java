package dev.zarrj.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A seeded mutation fuzzer of whole stores, read through the entry points a user has: the
 * {@link Zarr} API (open, list children, attributes, whole and region reads, stored chunks, chunk
 * reads) and the {@code zarr} command ({@code info}, {@code cat}, {@code verify}).
 *
 * <p>Seeds are small stores as key-to-bytes maps with their node at the root. Each case applies one
 * to three mutations: structural changes to a {@code zarr.json} (types swapped, members deleted or
 * added, duplicate keys, deep nesting, huge or odd strings, codec lists changed, fill values of
 * every form, wrong dimension names, node type and format changed), invalid JSON bytes, or changed
 * chunk bytes. A case fails when anything but a {@link ZarrException} escapes, when a read takes
 * longer than the watchdog allows, when the CLI exits other than 0, 1 or 2 or prints more than one
 * error line, and when a chunk covered by a checksum decodes to other values without an error.
 */
final class StoreFuzzer {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final long READ_LIMIT = 1 << 22;

    /** A store to mutate: its keys and bytes, and whether every stored chunk byte is covered by a checksum. */
    record Seed(String name, Map<String, byte[]> keys, boolean checksummed) {}

    /** A failed case: a signature (the class of defect), the case, what went wrong. */
    record Failure(String signature, String description, String detail) {}

    private final Zarr zarr;
    private final List<Seed> seeds;
    private final Path scratch;
    private final int cliEvery;
    private final long watchdogMillis;
    private ExecutorService worker = newWorker();
    /** How cases ended: "read" or the ZarrException's class. */
    final Map<String, Integer> outcomes = new java.util.concurrent.ConcurrentSkipListMap<>();

    StoreFuzzer(Zarr zarr, List<Seed> seeds, Path scratch, int cliEvery, long watchdogMillis) {
        this.zarr = zarr;
        this.seeds = seeds;
        this.scratch = scratch;
        this.cliEvery = cliEvery;
        this.watchdogMillis = watchdogMillis;
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(null, r, "fuzz-case", 1 << 20);
            t.setDaemon(true);
            return t;
        });
    }

    void shutdown() {
        worker.shutdownNow();
    }

    // ---------------------------------------------------------------- seeds

    /** Reads a store folder into a seed (null when it holds more than {@code maxBytes}). */
    static Seed folder(String name, Path dir, long maxBytes, boolean checksummed) throws IOException {
        Map<String, byte[]> keys = new TreeMap<>();
        long total = 0;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                total += Files.size(p);
                if (total > maxBytes) {
                    return null;
                }
                keys.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        }
        return keys.containsKey("zarr.json") ? new Seed(name, keys, checksummed) : null;
    }

    /** A seed written by zarrj: an array of {@code metadata} filled with compressible random values. */
    static Seed written(Zarr zarr, String name, String metadata, boolean checksummed) {
        try {
            Store s = zarr.openStore("memory:");
            ZarrArray a = zarr.createArray(s, "/", (ObjectNode) JSON.readTree(metadata), false);
            long n = 1;
            for (long d : a.shape()) {
                n *= d;
            }
            byte[] values = new byte[(int) n * a.dataType().size()];
            new SplittableRandom(n).nextBytes(values);
            for (int i = 0; i < values.length; i += 3) {
                values[i] = 0;
            }
            if (a.dataType().name().equals("bool")) {
                for (int i = 0; i < values.length; i++) {
                    values[i] &= 1;
                }
            }
            a.write(NdArray.wrap(a.dataType(), ByteBuffer.wrap(values), a.shape()));
            return new Seed(name, toMap(s), checksummed);
        } catch (ZarrException e) {
            return null; // a codec that is not installed here (blosc without c-blosc)
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, byte[]> toMap(Store s) {
        Map<String, byte[]> out = new TreeMap<>();
        for (StoreKey k : s.listPrefix("")) {
            ByteBuffer b = s.get(k).orElseThrow();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            out.put(k.value(), bytes);
        }
        return out;
    }

    // ---------------------------------------------------------------- running

    /** Runs cases {@code first} to {@code first + count - 1}; each case's mutations depend only on the seed and its number. */
    List<Failure> run(long seed, int first, int count, int stopAfter) {
        List<Failure> failures = new ArrayList<>();
        for (int i = first; i < first + count && failures.size() < stopAfter; i++) {
            Failure f = runCase(seed, i);
            if (f != null) {
                failures.add(f);
            }
        }
        return failures;
    }

    Failure runCase(long seed, int i) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + i);
        Seed base = seeds.get(r.nextInt(seeds.size()));
        Map<String, byte[]> keys = new TreeMap<>(base.keys());
        List<String> done = new ArrayList<>();
        int mutations = 1 + (r.nextInt(3) == 0 ? r.nextInt(4) : 0);
        boolean onlyChunks = true;
        for (int m = 0; m < mutations; m++) {
            String what = mutate(keys, r);
            done.add(what);
            onlyChunks &= what.startsWith("chunk ");
        }
        boolean checkValues = onlyChunks && base.checksummed();
        boolean cli = cliEvery > 0 && i % cliEvery == 0;
        String description = "case " + i + " seed " + base.name() + ": " + String.join("; ", done);
        Future<Failure> f = worker.submit(() -> check(base, keys, checkValues, cli, description));
        try {
            return f.get(watchdogMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            StringBuilder where = new StringBuilder();
            for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
                if (t.getKey().getName().equals("fuzz-case")) {
                    for (StackTraceElement el : t.getValue()) {
                        where.append("\tat ").append(el).append('\n');
                    }
                }
            }
            f.cancel(true);
            worker.shutdownNow();
            worker = newWorker();
            return new Failure("hang", description, where.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Failure("interrupted", description, "");
        } catch (ExecutionException e) {
            return failure(description, e.getCause());
        }
    }

    private static Failure failure(String description, Throwable t) {
        StringWriter trace = new StringWriter();
        t.printStackTrace(new PrintWriter(trace));
        String top = "";
        for (StackTraceElement el : t.getStackTrace()) {
            if (el.getClassName().startsWith("dev.zarrj")) {
                top = el.getClassName() + "." + el.getMethodName() + ":" + el.getLineNumber();
                break;
            }
        }
        return new Failure(t.getClass().getName() + " @ " + top, description, trace.toString());
    }

    private Failure check(Seed base, Map<String, byte[]> keys, boolean checkValues, boolean cli, String description) {
        Store s = zarr.openStore("memory:");
        keys.forEach((k, v) -> s.set(StoreKey.of(k), ByteBuffer.wrap(v)));
        try {
            ZarrNode node = zarr.open(s, "/");
            walk(node, 0);
            outcomes.merge("read", 1, Integer::sum);
            if (checkValues && node instanceof ZarrArray a && small(a)) {
                Store o = zarr.openStore("memory:");
                base.keys().forEach((k, v) -> o.set(StoreKey.of(k), ByteBuffer.wrap(v)));
                NdArray expected = zarr.openArray(o, "/").read();
                NdArray got = a.read();
                outcomes.merge("values checked", 1, Integer::sum);
                if (!got.contentEquals(expected)) {
                    return new Failure("wrong values under a checksum", description, "");
                }
            }
        } catch (ZarrException e) {
            outcomes.merge(e.getClass().getSimpleName(), 1, Integer::sum);
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                return failure(description, new AssertionError("a ZarrException without a message", e));
            }
        } catch (Throwable t) {
            return failure(description, t);
        }
        if (cli) {
            return checkCli(keys, description);
        }
        return null;
    }

    private static boolean small(ZarrArray a) {
        long n = a.dataType().size();
        for (long d : a.shape()) {
            if (d == 0) {
                return true;
            }
            n = Math.multiplyHigh(n, d) != 0 ? Long.MAX_VALUE : n * d;
            if (n > READ_LIMIT || n < 0) {
                return false;
            }
        }
        return true;
    }

    private void walk(ZarrNode node, int depth) {
        node.attributes();
        if (node instanceof ZarrGroup g) {
            if (depth > 3) {
                return;
            }
            g.childNames();
            for (ZarrNode child : g.children()) {
                walk(child, depth + 1);
            }
            return;
        }
        ZarrArray a = (ZarrArray) node;
        a.dimensionNames();
        a.fillValue();
        a.codecs();
        long[] shape = a.shape();
        List<long[]> stored = a.storedChunks();
        boolean empty = false;
        long[] one = new long[shape.length];
        long[] corner = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            one[d] = Math.min(shape[d], 3);
            corner[d] = shape[d] - one[d];
            empty |= shape[d] == 0;
        }
        if (small(a)) {
            a.read();
        }
        if (!empty) {
            a.read(new long[shape.length], one);
            a.read(corner, one);
        }
        for (int c = 0; c < Math.min(stored.size(), 3); c++) {
            long[] coords = stored.get(c);
            a.chunkKey(coords);
            if (a.chunkByteSize(coords) <= READ_LIMIT) {
                a.readChunk(coords);
            }
        }
    }

    private Failure checkCli(Map<String, byte[]> keys, String description) {
        Path dir = scratch.resolve("s");
        try {
            deleteTree(dir);
            try {
                for (Map.Entry<String, byte[]> e : keys.entrySet()) {
                    Path p = dir.resolve(e.getKey());
                    Files.createDirectories(p.getParent());
                    Files.write(p, e.getValue());
                }
            } catch (java.nio.file.FileSystemException e) {
                return null; // a key that is also another key's folder: not a directory store
            }
            for (String[] args : List.of(new String[] {"info", dir.toString()},
                    new String[] {"cat", dir.toString(), "--format", "json"},
                    new String[] {"verify", dir.toString()})) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int code = ZarrCli.run(args, out, err);
                String e = err.toString(StandardCharsets.UTF_8);
                long lines = e.chars().filter(c -> c == '\n').count();
                boolean bad = code < 0 || code > 2 || (code == 2 && lines != 1) || lines > 1
                        || e.contains("\tat ") || e.contains("Exception:") || e.contains("Error:");
                if (bad) {
                    return new Failure("cli " + args[0] + " exit " + code, description, e);
                }
            }
            return null;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } finally {
            try {
                deleteTree(dir);
            } catch (IOException ignored) {
                // the next case clears it again
            }
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    // ---------------------------------------------------------------- mutations

    private static String mutate(Map<String, byte[]> keys, SplittableRandom r) {
        List<String> metas = new ArrayList<>();
        List<String> chunks = new ArrayList<>();
        for (String k : keys.keySet()) {
            (k.equals("zarr.json") || k.endsWith("/zarr.json") ? metas : chunks).add(k);
        }
        int kind = r.nextInt(11);
        if (kind == 10) {
            return "key " + mutateKey(keys, chunks, metas, r);
        }
        if (kind < 4 && !chunks.isEmpty()) {
            String k = chunks.get(r.nextInt(chunks.size()));
            return "chunk " + k + " " + mutateChunk(keys, k, r);
        }
        if (metas.isEmpty()) {
            return "none";
        }
        String k = metas.get(r.nextInt(metas.size()));
        if (kind == 4) {
            return "bytes of " + k + " " + mutateBytes(keys, k, r);
        }
        try {
            JsonNode doc = JSON.readTree(keys.get(k));
            if (!(doc instanceof ObjectNode o)) {
                return "not an object";
            }
            Mutated m = mutateJson(o, r);
            keys.put(k, m.text().getBytes(StandardCharsets.UTF_8));
            return "json of " + k + " " + m.what();
        } catch (IOException e) {
            return "unparsable " + k;
        }
    }

    /** A value moved to, or copied to, an odd key: chunk keys out of range, of other ranks, not numbers. */
    private static String mutateKey(Map<String, byte[]> keys, List<String> chunks, List<String> metas, SplittableRandom r) {
        List<String> all = new ArrayList<>(keys.keySet());
        String from = all.get(r.nextInt(all.size()));
        String dir = from.contains("/") ? from.substring(0, from.lastIndexOf('/') + 1) : "";
        String[] odd = {"c/0/0/0/0", "c/-1/0", "c/99999999999999999999/0", "c/a/b", "c/0/", "c", "c/0.0",
            "0.0", "0", "c/9223372036854775807/0", "c/0/9223372036854775807", "c/1e3/0", "c/+1/0", "c/00/0",
            "c/١/0", "zarr.json/zarr.json", "x/zarr.json", "g2/zarr.json", "c/0/zarr.json", ".zattrs", "zarr.json.bak"};
        String to = (r.nextBoolean() ? dir : "") + odd[r.nextInt(odd.length)];
        if (to.endsWith("/")) {
            to = to + "0";
        }
        byte[] v = keys.get(from);
        if (r.nextBoolean() && !from.equals("zarr.json")) {
            keys.remove(from);
        }
        keys.put(to, v);
        return from + " -> " + to;
    }

    private static String mutateChunk(Map<String, byte[]> keys, String k, SplittableRandom r) {
        byte[] b = keys.get(k);
        switch (r.nextInt(8)) {
            case 6, 7 -> {
                if (b.length < 8) {
                    return "too short for a field";
                }
                // a size or offset field in a header (blosc, zstd, gzip) or a shard index at either end
                byte[] c = b.clone();
                int width = r.nextBoolean() ? 4 : 8;
                int span = Math.min(b.length - width, 24);
                int pos = r.nextBoolean() ? r.nextInt(span + 1) : b.length - width - r.nextInt(span + 1);
                long[] values = {0, 1, -1, 0x7fffffffL, 0x80000000L, 0xffffffffL, Long.MAX_VALUE, Long.MIN_VALUE,
                    b.length, b.length + 1, b.length - 1, 1L << 31, 1L << 32, 16, 15, 17, r.nextLong()};
                long v = values[r.nextInt(values.length)];
                ByteBuffer.wrap(c, pos, width).order(java.nio.ByteOrder.LITTLE_ENDIAN).put(
                        width == 4 ? ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0, (int) v)
                                : ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(0, v));
                keys.put(k, c);
                return "field at " + pos + " (" + width + " bytes) = " + v;
            }
            case 0 -> {
                if (b.length == 0) {
                    return "empty already";
                }
                int flips = 1 + r.nextInt(3);
                byte[] c = b.clone();
                StringBuilder at = new StringBuilder("flip");
                for (int i = 0; i < flips; i++) {
                    int pos = r.nextInt(c.length);
                    int bit = r.nextInt(8);
                    c[pos] ^= (byte) (1 << bit);
                    at.append(' ').append(pos).append('.').append(bit);
                }
                keys.put(k, c);
                return at.toString();
            }
            case 1 -> {
                int n = b.length == 0 ? 0 : r.nextInt(b.length);
                keys.put(k, java.util.Arrays.copyOf(b, n));
                return "truncate to " + n;
            }
            case 2 -> {
                int extra = 1 + r.nextInt(r.nextBoolean() ? 8 : 4096);
                byte[] c = java.util.Arrays.copyOf(b, b.length + extra);
                if (r.nextBoolean()) {
                    byte[] tail = new byte[extra];
                    r.nextBytes(tail);
                    System.arraycopy(tail, 0, c, b.length, extra);
                }
                keys.put(k, c);
                return "extend by " + extra;
            }
            case 3 -> {
                keys.put(k, new byte[0]);
                return "zero length";
            }
            case 4 -> {
                byte[] c = new byte[r.nextBoolean() ? b.length : r.nextInt(64)];
                r.nextBytes(c);
                keys.put(k, c);
                return "random " + c.length + " bytes";
            }
            default -> {
                if (b.length < 2) {
                    return "short";
                }
                // a run of bytes overwritten: a torn write
                int from = r.nextInt(b.length);
                int len = 1 + r.nextInt(Math.min(16, b.length - from));
                byte[] c = b.clone();
                byte v = (byte) (r.nextBoolean() ? 0 : 0xff);
                java.util.Arrays.fill(c, from, from + len, v);
                keys.put(k, c);
                return "overwrite " + from + "+" + len + " with " + v;
            }
        }
    }

    private static String mutateBytes(Map<String, byte[]> keys, String k, SplittableRandom r) {
        byte[] b = keys.get(k);
        byte[] c;
        String what;
        switch (b.length == 0 ? 6 : r.nextInt(7)) {
            case 0 -> {
                int n = r.nextInt(Math.max(1, b.length));
                c = java.util.Arrays.copyOf(b, n);
                what = "truncate to " + n;
            }
            case 1 -> {
                c = b.clone();
                int pos = r.nextInt(c.length);
                c[pos] ^= (byte) (1 << r.nextInt(8));
                what = "flip at " + pos;
            }
            case 2 -> {
                c = new byte[b.length + 3];
                c[0] = (byte) 0xef;
                c[1] = (byte) 0xbb;
                c[2] = (byte) 0xbf;
                System.arraycopy(b, 0, c, 3, b.length);
                what = "BOM";
            }
            case 3 -> {
                int pos = r.nextInt(b.length + 1);
                c = new byte[b.length + 1];
                System.arraycopy(b, 0, c, 0, pos);
                System.arraycopy(b, pos, c, pos + 1, b.length - pos);
                what = "NUL at " + pos;
            }
            case 4 -> {
                c = new byte[0];
                what = "empty";
            }
            case 5 -> {
                c = b.clone();
                int pos = r.nextInt(c.length);
                c[pos] = (byte) (0x80 | r.nextInt(0x80)); // invalid UTF-8
                what = "high byte at " + pos;
            }
            default -> {
                String[] texts = {"null", "[]", "3", "\"x\"", "true", "{}", "{\"zarr_format\": 3}",
                    "{\"zarr_format\": 3, \"node_type\": \"array\"}", "{\"zarr_format\": 3, \"node_type\": \"group\"}",
                    "{\"zarr_format\": 3, \"node_type\": \"group\"} {}", "{\"a\": 1}xyz"};
                String t = texts[r.nextInt(texts.length)];
                c = t.getBytes(StandardCharsets.UTF_8);
                what = "replaced by " + t;
            }
        }
        keys.put(k, c);
        return what;
    }

    private record Mutated(String text, String what) {}

    /** A place in the document: a parent and the member name or index that holds the value. */
    private record Slot(JsonNode parent, String field, int index, String path) {
        JsonNode get() {
            return parent instanceof ObjectNode o ? o.get(field) : parent.get(index);
        }

        void set(JsonNode value) {
            if (parent instanceof ObjectNode o) {
                o.set(field, value);
            } else {
                ((ArrayNode) parent).set(index, value);
            }
        }

        void remove() {
            if (parent instanceof ObjectNode o) {
                o.remove(field);
            } else {
                ((ArrayNode) parent).remove(index);
            }
        }
    }

    private static void slots(JsonNode node, String path, List<Slot> out) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = path + "." + e.getKey();
                out.add(new Slot(o, e.getKey(), -1, p));
                slots(e.getValue(), p, out);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                String p = path + "[" + i + "]";
                out.add(new Slot(a, null, i, p));
                slots(a.get(i), p, out);
            }
        }
    }

    private static final String[] DATA_TYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64", "float16", "float32", "float64", "complex64", "complex128", "r8", "r16", "r0", "r7",
        "string", "bytes", "datetime64", "", "Int32", "float", "r9223372036854775807"};

    private static JsonNode fillValue(SplittableRandom r) {
        return fillValue(r.nextInt(24));
    }

    private static JsonNode fillValue(int i) {
        return switch (i) {
            case 0 -> F.numberNode(0);
            case 1 -> F.numberNode(-1);
            case 2 -> F.numberNode(1.5);
            case 3 -> F.numberNode(new BigInteger("18446744073709551616"));
            case 4 -> F.numberNode(1e308);
            case 5 -> F.textNode("NaN");
            case 6 -> F.textNode("Infinity");
            case 7 -> F.textNode("-Infinity");
            case 8 -> F.textNode("0x7fc00000");
            case 9 -> F.textNode("0x7ff8000000000001");
            case 10 -> F.textNode("0x");
            case 11 -> F.textNode("0xZZ");
            case 12 -> F.booleanNode(true);
            case 13 -> F.nullNode();
            case 14 -> F.textNode("");
            case 15 -> F.arrayNode().add(1.0).add("NaN");
            case 16 -> F.arrayNode().add(1);
            case 17 -> F.arrayNode().add(1).add(2).add(3);
            case 18 -> F.arrayNode().add(F.arrayNode()).add(F.objectNode());
            case 19 -> F.textNode("AAAA");
            case 20 -> F.objectNode().put("a", 1);
            case 21 -> F.numberNode(Long.MIN_VALUE);
            case 22 -> F.textNode("0x" + "f".repeat(40));
            default -> F.textNode("\u00e9\ud83d\ude00");
        };
    }

    private static final int VALUES = 14;

    private static JsonNode anyValue(SplittableRandom r) {
        return anyValue(r.nextInt(VALUES));
    }

    private static JsonNode anyValue(int i) {
        return switch (i) {
            case 0 -> F.textNode("x");
            case 1 -> F.numberNode(-1);
            case 2 -> F.booleanNode(false);
            case 3 -> F.nullNode();
            case 4 -> F.arrayNode();
            case 5 -> F.objectNode();
            case 6 -> F.arrayNode().add(1).add(2);
            case 7 -> F.objectNode().put("name", "bytes");
            case 8 -> F.textNode("");
            case 9 -> F.numberNode(2.5);
            case 10 -> F.arrayNode().add("a").add(F.nullNode());
            case 11 -> F.textNode("\ud800\u0000\u202e");
            case 12 -> F.objectNode().set("configuration", F.nullNode());
            default -> F.numberNode(new BigInteger("99999999999999999999999"));
        };
    }

    private static Mutated mutateJson(ObjectNode doc, SplittableRandom r) throws IOException {
        List<Slot> all = new ArrayList<>();
        slots(doc, "", all);
        if (all.isEmpty()) {
            return new Mutated("{}", "empty");
        }
        Slot s = all.get(r.nextInt(all.size()));
        String what;
        String dupe = null;
        String deep = null;
        switch (r.nextInt(16)) {
            case 0, 1 -> {
                JsonNode v = anyValue(r);
                s.set(v);
                what = s.path() + " = " + v;
            }
            case 2 -> {
                s.remove();
                what = "delete " + s.path();
            }
            case 3 -> {
                ObjectNode o = objectIn(all, doc, r);
                String name = r.nextBoolean() ? "unknown_" + r.nextInt(3) : "";
                if (r.nextBoolean()) {
                    o.set(name, F.objectNode().put("must_understand", r.nextBoolean()).put("name", "x"));
                } else {
                    o.set(name, anyValue(r));
                }
                what = "add member '" + name + "' " + o.get(name);
            }
            case 4 -> {
                ObjectNode o = objectIn(all, doc, r);
                if (o.isEmpty()) {
                    what = "no member to duplicate";
                } else {
                    List<String> names = new ArrayList<>();
                    o.fieldNames().forEachRemaining(names::add);
                    dupe = names.get(r.nextInt(names.size()));
                    o.set("__dup__", anyValue(r));
                    what = "duplicate key " + dupe;
                }
            }
            case 5 -> {
                int depth = r.nextBoolean() ? 100 + r.nextInt(900) : 5000 + r.nextInt(20000);
                deep = "[".repeat(depth) + "]".repeat(depth);
                s.set(F.textNode("__deep__"));
                what = s.path() + " = nested arrays of depth " + depth;
            }
            case 6 -> {
                int n = r.nextBoolean() ? 1 << 16 : 1 << 22;
                s.set(F.textNode("\u00e9".repeat(n)));
                what = s.path() + " = a string of " + n + " characters";
            }
            case 7 -> {
                String[] odd = {"\ud800", "\u0000", "a/b", "..", "/", "\u202e", "\ud83d\ude00", " ", "c", "zarr.json", "%2F"};
                String v = odd[r.nextInt(odd.length)];
                if (s.parent() instanceof ObjectNode o && r.nextBoolean()) {
                    JsonNode old = s.get();
                    o.remove(s.field());
                    o.set(v, old);
                    what = "rename " + s.path() + " to " + JSON.writeValueAsString(v);
                } else {
                    s.set(F.textNode(v));
                    what = s.path() + " = " + JSON.writeValueAsString(v);
                }
            }
            case 8, 9 -> what = codecs(doc, r);
            case 10 -> {
                doc.set("fill_value", fillValue(r));
                if (r.nextBoolean()) {
                    doc.put("data_type", DATA_TYPES[r.nextInt(DATA_TYPES.length)]);
                }
                what = "data_type " + doc.get("data_type") + " fill_value " + doc.get("fill_value");
            }
            case 11 -> {
                JsonNode shape = doc.get("shape");
                int rank = shape instanceof ArrayNode a ? a.size() : 1;
                ArrayNode names = F.arrayNode();
                int n = switch (r.nextInt(3)) {
                    case 0 -> rank + 1;
                    case 1 -> Math.max(0, rank - 1);
                    default -> rank;
                };
                for (int i = 0; i < n; i++) {
                    names.add(r.nextInt(3) == 0 ? anyValue(r) : F.textNode("d" + i));
                }
                JsonNode v = r.nextInt(4) == 0 ? anyValue(r) : names;
                doc.set("dimension_names", v);
                what = "dimension_names " + v;
            }
            case 12 -> {
                JsonNode[] nt = {F.textNode("group"), F.textNode("array"), F.textNode("foo"), F.nullNode(),
                    F.numberNode(3), F.textNode("")};
                JsonNode[] zf = {F.numberNode(2), F.textNode("3"), F.numberNode(3.0), F.numberNode(4), F.nullNode(),
                    F.numberNode(-3)};
                if (r.nextBoolean()) {
                    doc.set("node_type", nt[r.nextInt(nt.length)]);
                } else {
                    doc.set("zarr_format", zf[r.nextInt(zf.length)]);
                }
                what = "node_type " + doc.get("node_type") + " zarr_format " + doc.get("zarr_format");
            }
            case 13 -> {
                JsonNode attrs = doc.get("attributes");
                ObjectNode a = attrs instanceof ObjectNode o ? o : doc.putObject("attributes");
                a.set(r.nextBoolean() ? "" : "k", r.nextBoolean() ? anyValue(r) : F.textNode("\ud800"));
                what = "attributes " + a;
            }
            default -> {
                JsonNode v = s.get();
                if (v != null && v.isNumber()) {
                    JsonNode[] extremes = {F.numberNode(0), F.numberNode(-1), F.numberNode(Long.MAX_VALUE),
                        F.numberNode(Integer.MAX_VALUE + 1L), F.numberNode(1e300), F.numberNode(0.5),
                        F.numberNode(new BigInteger("18446744073709551616")), F.numberNode(65536)};
                    s.set(extremes[r.nextInt(extremes.length)]);
                } else {
                    s.set(F.numberNode(r.nextInt(3) - 1));
                }
                what = s.path() + " = " + s.get();
            }
        }
        String text = JSON.writeValueAsString(doc);
        if (dupe != null) {
            text = text.replace("\"__dup__\"", JSON.writeValueAsString(dupe));
        }
        if (deep != null) {
            text = text.replace("\"__deep__\"", deep);
        }
        return new Mutated(text, what);
    }

    private static ObjectNode objectIn(List<Slot> all, ObjectNode doc, SplittableRandom r) {
        List<ObjectNode> objects = new ArrayList<>();
        objects.add(doc);
        for (Slot s : all) {
            if (s.get() instanceof ObjectNode o) {
                objects.add(o);
            }
        }
        return objects.get(r.nextInt(objects.size()));
    }

    /** Emptied, reordered, duplicated or truncated codec lists, anywhere (also inside sharding). */
    private static String codecs(ObjectNode doc, SplittableRandom r) {
        List<ArrayNode> lists = new ArrayList<>();
        collectCodecLists(doc, lists);
        if (lists.isEmpty()) {
            return "no codec list";
        }
        ArrayNode l = lists.get(r.nextInt(lists.size()));
        switch (r.nextInt(6)) {
            case 0 -> {
                l.removeAll();
                return "codecs emptied";
            }
            case 1 -> {
                if (l.size() > 1) {
                    int a = r.nextInt(l.size());
                    int b = r.nextInt(l.size());
                    JsonNode x = l.get(a);
                    l.set(a, l.get(b));
                    l.set(b, x);
                }
                return "codecs reordered " + l;
            }
            case 2 -> {
                JsonNode c = l.get(r.nextInt(Math.max(1, l.size())));
                if (c != null) {
                    l.insert(r.nextInt(l.size() + 1), c.deepCopy());
                }
                return "codec duplicated " + l;
            }
            case 3 -> {
                String[] names = {"bytes", "gzip", "zstd", "blosc", "crc32c", "transpose", "sharding_indexed", "x"};
                ObjectNode c = F.objectNode().put("name", names[r.nextInt(names.length)]);
                if (r.nextBoolean()) {
                    c.set("configuration", r.nextBoolean() ? F.objectNode() : anyValue(r));
                }
                l.insert(r.nextInt(l.size() + 1), c);
                return "codec inserted " + l;
            }
            case 4 -> {
                if (!l.isEmpty()) {
                    l.remove(r.nextInt(l.size()));
                }
                return "codec removed " + l;
            }
            default -> {
                if (!l.isEmpty()) {
                    JsonNode c = l.get(r.nextInt(l.size()));
                    if (c instanceof ObjectNode o) {
                        JsonNode conf = o.get("configuration");
                        if (conf instanceof ObjectNode co && !co.isEmpty()) {
                            List<String> fields = new ArrayList<>();
                            co.fieldNames().forEachRemaining(fields::add);
                            String f = fields.get(r.nextInt(fields.size()));
                            co.set(f, anyValue(r));
                            return "codec config " + f + " = " + co.get(f);
                        }
                        o.set("configuration", anyValue(r));
                        return "codec configuration = " + o.get("configuration");
                    }
                }
                return "codec config unchanged";
            }
        }
    }

    private static void collectCodecLists(JsonNode node, List<ArrayNode> out) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if ((e.getKey().equals("codecs") || e.getKey().equals("index_codecs")) && e.getValue() instanceof ArrayNode a) {
                    out.add(a);
                }
                collectCodecLists(e.getValue(), out);
            }
        } else if (node instanceof ArrayNode a) {
            for (JsonNode n : a) {
                collectCodecLists(n, out);
            }
        }
    }

    /**
     * Every single structural change of every seed's metadata: each member or element replaced by
     * each kind of value, or deleted; and each fill value form with each data type.
     */
    List<Failure> sweep() throws IOException {
        List<Failure> failures = new ArrayList<>();
        int n = 0;
        for (Seed seed : seeds) {
            for (String key : seed.keys().keySet()) {
                if (!key.endsWith("zarr.json")) {
                    continue;
                }
                int slots;
                {
                    List<Slot> all = new ArrayList<>();
                    slots(JSON.readTree(seed.keys().get(key)), "", all);
                    slots = Math.min(all.size(), 200);
                }
                for (int i = 0; i < slots; i++) {
                    for (int v = -1; v < VALUES; v++) {
                        JsonNode doc = JSON.readTree(seed.keys().get(key));
                        List<Slot> all = new ArrayList<>();
                        slots(doc, "", all);
                        Slot s = all.get(i);
                        String what;
                        if (v < 0) {
                            s.remove();
                            what = "delete " + s.path();
                        } else {
                            s.set(anyValue(v));
                            what = s.path() + " = " + anyValue(v);
                        }
                        Failure f = one(seed, key, doc, "sweep " + (n++) + " seed " + seed.name() + ": " + key + " " + what);
                        if (f != null) {
                            failures.add(f);
                        }
                    }
                }
                JsonNode base = JSON.readTree(seed.keys().get(key));
                if (key.equals("zarr.json") && base.has("fill_value")) {
                    for (String dt : DATA_TYPES) {
                        for (int fv = 0; fv < 24; fv++) {
                            ObjectNode doc = (ObjectNode) JSON.readTree(seed.keys().get(key));
                            doc.put("data_type", dt);
                            doc.set("fill_value", fillValue(fv));
                            Failure f = one(seed, key, doc, "sweep " + (n++) + " seed " + seed.name()
                                    + ": data_type " + dt + " fill_value " + fillValue(fv));
                            if (f != null) {
                                failures.add(f);
                            }
                        }
                    }
                }
            }
        }
        outcomes.merge("sweep cases", n, Integer::sum);
        return failures;
    }

    private Failure one(Seed seed, String key, JsonNode doc, String description) throws IOException {
        Map<String, byte[]> keys = new TreeMap<>(seed.keys());
        keys.put(key, JSON.writeValueAsBytes(doc));
        Future<Failure> f = worker.submit(() -> check(seed, keys, false, cliEvery > 0 && description.hashCode() % cliEvery == 0, description));
        try {
            return f.get(watchdogMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            worker.shutdownNow();
            worker = newWorker();
            return new Failure("hang", description, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Failure("interrupted", description, "");
        } catch (ExecutionException e) {
            return failure(description, e.getCause());
        }
    }

    /** Failures grouped by signature, with the first example of each, and their counts. */
    static String report(List<Failure> failures) {
        Map<String, List<Failure>> by = new LinkedHashMap<>();
        for (Failure f : failures) {
            by.computeIfAbsent(f.signature(), x -> new ArrayList<>()).add(f);
        }
        StringBuilder b = new StringBuilder();
        by.forEach((sig, list) -> {
            Failure f = list.get(0);
            String desc = f.description().length() > 600 ? f.description().substring(0, 600) + "…" : f.description();
            String detail = f.detail().length() > 3000 ? f.detail().substring(0, 3000) + "…" : f.detail();
            b.append("== ").append(list.size()).append(" × ").append(sig).append('\n')
                    .append(desc).append('\n').append(detail).append('\n');
        });
        return b.toString();
    }
}
