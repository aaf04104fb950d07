package dev.zarrj.spark;

import java.io.Serializable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The options of the {@code zarr} data source, read from what {@code spark.read.option(...)} and
 * {@code df.write.option(...)} pass (names are case-insensitive, as Spark's are).
 *
 * <p>Where the data are:
 * <ul>
 *   <li>{@value #PATH} (the argument of {@code load}/{@code save}): the store, as any store zarrj
 *       has names it ({@code file:} URIs and plain paths, {@code zip:}, {@code s3://},
 *       {@code http(s)://}); {@value #STORE} is a synonym.</li>
 *   <li>{@value #ARRAY}: the array's path in the store (default: the store's root);
 *       {@value #ARRAYS}: several arrays of one shape, comma-separated, read as one value column
 *       each.</li>
 *   <li>{@code store.NAME}: a store option, added to the store URI's query ({@code store.endpoint},
 *       {@code store.region}... as the store's README lists them).</li>
 * </ul>
 *
 * <p>Reading: {@value #ROWS} ({@code elements}, the default: one row per element; {@code chunks}:
 * one row per chunk), {@value #SKIP_FILL} (omit elements equal to the fill value, and read no
 * chunk that is not stored), {@value #MAX_PARTITIONS}, {@value #PARTITION_BYTES},
 * {@value #REGION_BYTES}, {@value #BATCH_ROWS}, {@value #AGGREGATE_PUSH_DOWN}.
 *
 * <p>Writing: {@value #SHAPE}, {@value #CHUNKS}, {@value #SHARDS}, {@value #CODECS} or
 * {@value #COMPRESSOR}, {@value #FILL_VALUE}, {@value #DATA_TYPE}, {@value #DIMENSIONS},
 * {@value #VALUE}, {@value #ZARR_FORMAT}, {@value #ATTRIBUTES}.
 *
 * <p>Immutable and serializable: the driver sends it to the executors.
 *
 * @since 0.17
 */
public final class ZarrOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The store location (what {@code load(path)} and {@code save(path)} pass). */
    public static final String PATH = "path";
    /** A synonym of {@link #PATH}. */
    public static final String STORE = "store";
    /** The array's path in the store; default the root. */
    public static final String ARRAY = "array";
    /** Several arrays of one shape, comma-separated: one value column each. */
    public static final String ARRAYS = "arrays";
    /** The prefix of store options, which become query parameters of the store URI. */
    public static final String STORE_OPTION_PREFIX = "store.";
    /** {@code elements} (one row per element, the default) or {@code chunks} (one row per chunk). */
    public static final String ROWS = "rows";
    /** Omit elements equal to the fill value (all arrays' when several), and chunks not stored. */
    public static final String SKIP_FILL = "skipFill";
    /** The most input partitions a read plans (default 100,000): runs of chunks are merged to stay under it. */
    public static final String MAX_PARTITIONS = "maxPartitions";
    /** The decoded bytes of one input partition of an unsharded array (default 128 MiB; a shard is one partition). */
    public static final String PARTITION_BYTES = "partitionBytes";
    /**
     * The most decoded bytes of one region read (default 128 MiB, all arrays together): a larger
     * chunk or shard is read in slabs, cut at inner-chunk boundaries. Bounds an executor's memory.
     */
    public static final String REGION_BYTES = "regionBytes";
    /**
     * Whether aggregations Spark offers ({@code COUNT}, {@code SUM}, {@code AVG}, {@code MIN},
     * {@code MAX} of numbers, grouped by dimensions) are computed by the scan on the decoded chunks
     * (default true); false leaves them to Spark, which aggregates one row per element.
     */
    public static final String AGGREGATE_PUSH_DOWN = "aggregatePushDown";
    /** The most rows of one columnar batch (default 1,048,576). */
    public static final String BATCH_ROWS = "batchRows";

    /** The shape of an array a write creates, comma-separated. */
    public static final String SHAPE = "shape";
    /** Its chunk shape (the inner chunks when {@link #SHARDS} is set). */
    public static final String CHUNKS = "chunks";
    /** Its shard shape, to create a sharded array. */
    public static final String SHARDS = "shards";
    /** Its codecs, as the JSON array of the metadata's {@code codecs}. */
    public static final String CODECS = "codecs";
    /** Its compressor instead of {@link #CODECS}: {@code zstd}, {@code zstd:5}, {@code gzip:1}, {@code blosc}, {@code none}. */
    public static final String COMPRESSOR = "compressor";
    /** Its fill value, as the metadata's JSON {@code fill_value}. */
    public static final String FILL_VALUE = "fillValue";
    /** Its data type's name; default from the value column's Spark type. */
    public static final String DATA_TYPE = "dataType";
    /** The dimension columns of a written table, comma-separated; default every column but the value. */
    public static final String DIMENSIONS = "dimensions";
    /** The value column of a written table; default the last column. */
    public static final String VALUE = "value";
    /** 3 (default) or 2: the metadata format of an array a write creates. */
    public static final String ZARR_FORMAT = "zarrFormat";
    /** Attributes of an array a write creates, as a JSON object. */
    public static final String ATTRIBUTES = "attributes";

    private final TreeMap<String, String> options;

    private ZarrOptions(Map<String, String> options) {
        TreeMap<String, String> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        m.putAll(options);
        this.options = m;
    }

    /** The options Spark passed (any map; names are compared ignoring case). */
    public static ZarrOptions of(Map<String, String> options) {
        return new ZarrOptions(options);
    }

    /** Every option as given, names compared ignoring case. */
    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(options);
    }

    /** An option's value. */
    public Optional<String> get(String name) {
        return Optional.ofNullable(options.get(name)).map(String::trim);
    }

    /**
     * The store location with the {@code store.*} options added to its query.
     *
     * @throws IllegalArgumentException when neither {@value #PATH} nor {@value #STORE} is given
     */
    public String storeLocation() {
        String base = get(PATH).or(() -> get(STORE)).filter(s -> !s.isEmpty()).orElseThrow(() ->
                new IllegalArgumentException("the zarr data source needs a store: load(\"s3://bucket/data.zarr\") or "
                        + "option(\"path\", ...)"));
        StringBuilder query = new StringBuilder();
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().regionMatches(true, 0, STORE_OPTION_PREFIX, 0, STORE_OPTION_PREFIX.length())) {
                String name = e.getKey().substring(STORE_OPTION_PREFIX.length());
                query.append(query.length() == 0 ? "" : "&").append(encode(name)).append('=').append(encode(e.getValue()));
            }
        }
        if (query.length() == 0) {
            return base;
        }
        return base + (base.contains("?") ? "&" : "?") + query;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The array paths: {@value #ARRAYS}, else {@value #ARRAY}, else the root. */
    public List<String> arrayPaths() {
        Optional<String> several = get(ARRAYS).filter(s -> !s.isEmpty());
        if (several.isPresent()) {
            List<String> paths = new ArrayList<>();
            for (String p : several.get().split(",")) {
                if (!p.trim().isEmpty()) {
                    paths.add(p.trim());
                }
            }
            if (get(ARRAY).isPresent()) {
                throw new IllegalArgumentException("give either option '" + ARRAY + "' or '" + ARRAYS + "', not both");
            }
            if (paths.isEmpty()) {
                throw new IllegalArgumentException("option '" + ARRAYS + "' names no array: '" + several.get() + "'");
            }
            return List.copyOf(paths);
        }
        return List.of(get(ARRAY).orElse(""));
    }

    /** Whether rows are chunks ({@value #ROWS}{@code =chunks}) rather than elements. */
    public boolean chunkRows() {
        String v = get(ROWS).orElse("elements").toLowerCase(Locale.ROOT);
        switch (v) {
            case "elements":
                return false;
            case "chunks":
                return true;
            default:
                throw new IllegalArgumentException("option '" + ROWS + "' is 'elements' or 'chunks', not '" + v + "'");
        }
    }

    /** {@value #SKIP_FILL}, default false. */
    public boolean skipFill() {
        return bool(SKIP_FILL, false);
    }

    /** {@value #MAX_PARTITIONS}, default 100,000. */
    public int maxPartitions() {
        return (int) positive(MAX_PARTITIONS, 100_000, Integer.MAX_VALUE);
    }

    /** {@value #PARTITION_BYTES}, default 128 MiB. */
    public long partitionBytes() {
        return positive(PARTITION_BYTES, 128L << 20, Long.MAX_VALUE);
    }

    /** {@value #REGION_BYTES}, default 128 MiB, at most 1 GiB. */
    public long regionBytes() {
        return positive(REGION_BYTES, 128L << 20, 1L << 30);
    }

    /** {@value #BATCH_ROWS}, default 1,048,576. */
    public int batchRows() {
        return (int) positive(BATCH_ROWS, 1 << 20, Integer.MAX_VALUE - 16);
    }

    /** A boolean option. */
    public boolean bool(String name, boolean defaultValue) {
        Optional<String> v = get(name);
        if (v.isEmpty()) {
            return defaultValue;
        }
        switch (v.get().toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException("option '" + name + "' is true or false, not '" + v.get() + "'");
        }
    }

    /** A whole-number option of at least 1 and at most {@code max}; sizes may end in k, m or g (powers of 1024). */
    public long positive(String name, long defaultValue, long max) {
        Optional<String> v = get(name);
        if (v.isEmpty()) {
            return defaultValue;
        }
        String s = v.get().toLowerCase(Locale.ROOT).replace("_", "");
        long unit = 1;
        if (s.endsWith("k") || s.endsWith("m") || s.endsWith("g")) {
            unit = 1L << (s.endsWith("k") ? 10 : s.endsWith("m") ? 20 : 30);
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Math.multiplyExact(Long.parseLong(s), unit);
            if (n < 1 || n > max) {
                throw new IllegalArgumentException("option '" + name + "' must be between 1 and " + max + ", not '"
                        + v.get() + "'");
            }
            return n;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("option '" + name + "' is not a whole number: '" + v.get() + "'");
        }
    }

    /** A comma-separated list of whole numbers ({@value #SHAPE}, {@value #CHUNKS}, {@value #SHARDS}). */
    public Optional<long[]> longs(String name) {
        Optional<String> v = get(name).filter(s -> !s.isEmpty());
        if (v.isEmpty()) {
            return Optional.empty();
        }
        String[] parts = v.get().replace("[", "").replace("]", "").replace("(", "").replace(")", "").split(",");
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Long.parseLong(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("option '" + name + "' is a comma-separated list of whole numbers, "
                        + "not '" + v.get() + "'");
            }
        }
        return Optional.of(out);
    }

    /** A comma-separated list of names ({@value #DIMENSIONS}). */
    public Optional<List<String>> names(String name) {
        return get(name).filter(s -> !s.isEmpty())
                .map(s -> Arrays.stream(s.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ZarrOptions other && options.equals(other.options);
    }

    @Override
    public int hashCode() {
        return options.hashCode();
    }

    @Override
    public String toString() {
        return "ZarrOptions" + options;
    }
}
