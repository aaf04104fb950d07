package dev.zarrj.spark.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.store.Store;
import dev.zarrj.codec.blosc.BloscConfiguration;
import dev.zarrj.codec.gzip.GzipConfiguration;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import dev.zarrj.core.ArrayBuilder;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrNode;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.spark.ZarrOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Decides a write on the driver: reads the options, the written table's schema and the array
 * that exists at the path (if any), and gives the {@link WritePlan}, or an error naming the
 * option, column or value that does not fit.
 */
final class WritePlanner {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The options that describe a new array; they apply only when a write creates one. */
    static final List<String> CREATION_OPTIONS = List.of(ZarrOptions.SHAPE, ZarrOptions.CHUNKS, ZarrOptions.SHARDS,
            ZarrOptions.CODECS, ZarrOptions.COMPRESSOR, ZarrOptions.FILL_VALUE, ZarrOptions.DATA_TYPE,
            ZarrOptions.ZARR_FORMAT, ZarrOptions.ATTRIBUTES);
    /** The most bytes of a default chunk: the shape is halved along its longest side until below. */
    static final long DEFAULT_CHUNK_BYTES = 1 << 20;

    private WritePlanner() {}

    static WritePlan plan(ZarrOptions options, StructType schema, boolean truncate) {
        Zarr zarr = Zarr.defaults();
        String location = options.storeLocation();
        if (options.get(ZarrOptions.ARRAYS).isPresent()) {
            throw new ZarrWriteException("a write creates or fills one array: give option '" + ZarrOptions.ARRAY
                    + "', not '" + ZarrOptions.ARRAYS + "'");
        }
        String path = options.get(ZarrOptions.ARRAY).orElse("");
        String bare = location.toLowerCase(Locale.ROOT).replaceAll("[?#].*$", "").replaceAll("/+$", "");
        if (bare.startsWith("zip:") || bare.endsWith(".zip")) {
            throw new ZarrWriteException("cannot write into the zip archive " + location + ": its tasks would each "
                    + "rewrite the archive; write to a directory (or object store) and zip it afterwards");
        }
        Columns columns = Columns.of(options, schema);
        try (Store store = zarr.openStore(location)) {
            ZarrArray existing = existing(zarr, store, path, location);
            ObjectNode doc;
            int zarrFormat;
            boolean createsArray;
            if (existing != null && !truncate) {
                checkSame(options, existing, path);
                doc = existing.metadata();
                zarrFormat = existing.zarrFormat();
                createsArray = false;
            } else if (existing != null && CREATION_OPTIONS.stream().noneMatch(o -> options.get(o).isPresent())) {
                doc = existing.metadata();
                zarrFormat = existing.zarrFormat();
                createsArray = true;
            } else {
                long[] shape = options.longs(ZarrOptions.SHAPE).or(() -> Optional.ofNullable(existing).map(ZarrArray::shape))
                        .orElseThrow(() -> new ZarrWriteException("there is no array at '" + display(path) + "' in "
                                + location + ": option '" + ZarrOptions.SHAPE + "' is needed to create it "
                                + "(comma-separated, one size per dimension column: " + columns.dimensionNames() + ")"));
                Optional<Integer> hierarchy = hierarchyFormat(zarr, store, path, location);
                zarrFormat = (int) options.positive(ZarrOptions.ZARR_FORMAT, hierarchy.orElse(3), 3);
                if (hierarchy.isPresent() && hierarchy.get() != zarrFormat) {
                    throw new ZarrWriteException("option '" + ZarrOptions.ZARR_FORMAT + "' is " + zarrFormat
                            + " but the groups above '" + display(path) + "' in " + location + " are stored with zarr_format "
                            + hierarchy.get() + ", and a hierarchy has one format");
                }
                doc = newDocument(zarr, options, columns, shape, zarrFormat);
                createsArray = true;
            }
            ZarrArray target = zarr.unstoredArray(store, path, doc, zarrFormat);
            int[] order = columns.mapTo(target, path);
            int rank = target.rank();
            int[] ordinals = new int[rank];
            String[] names = new String[rank];
            org.apache.spark.sql.types.DataType[] types = new org.apache.spark.sql.types.DataType[rank];
            for (int d = 0; d < rank; d++) {
                StructField f = columns.dimensions.get(order[d]);
                ordinals[d] = schema.fieldIndex(f.name());
                names[d] = f.name();
                types[d] = f.dataType();
            }
            StructField value = columns.value;
            ValueConversion conversion = ValueConversion.of(value.name(), value.dataType(), target.dataType());
            String tableStore = new dev.zarrj.spark.internal.ZarrTable(options, new StructType()).name();
            tableStore = tableStore.substring(0, tableStore.lastIndexOf(" ["));
            long[] stored = target.chunkShape();
            return new WritePlan(location, path, tableStore, doc, zarrFormat, createsArray, existing != null && truncate, ordinals,
                    names, types, schema.fieldIndex(value.name()), conversion, target.shape(), stored,
                    bufferChunk(target, stored, options.regionBytes()));
        } catch (ZarrWriteException e) {
            throw e;
        } catch (Exception e) {
            if (e instanceof ZarrException || e instanceof IllegalArgumentException) {
                throw new ZarrWriteException("cannot write the array at '" + display(path) + "' in " + location + ": "
                        + e.getMessage(), e);
            }
            throw new ZarrWriteException("cannot write the array at '" + display(path) + "' in " + location + ": " + e, e);
        }
    }

    private static ZarrArray existing(Zarr zarr, Store store, String path, String location) {
        ZarrNode node;
        try {
            node = zarr.open(store, path);
        } catch (NodeNotFoundException e) {
            return null;
        }
        if (!(node instanceof ZarrArray a)) {
            node.close();
            throw new ZarrWriteException("there is a group at '" + display(path) + "' in " + location
                    + "; a write creates or fills an array: give option '" + ZarrOptions.ARRAY + "' a path for it");
        }
        return a;
    }

    /**
     * What a task buffers: the stored object, unless it is a shard of more decoded bytes than
     * {@code budget} ({@value ZarrOptions#REGION_BYTES}, the read path's bound too), then its inner
     * chunk. An unsharded chunk is the unit of encoding and is always buffered whole.
     */
    static long[] bufferChunk(ZarrArray target, long[] stored, long budget) {
        double bytes = target.dataType().size();
        for (long s : stored) {
            bytes *= s;
        }
        JsonNode first = target.codecs().path(0);
        if (bytes <= budget || !"sharding_indexed".equals(first.path("name").asText())) {
            return stored;
        }
        JsonNode inner = first.path("configuration").path("chunk_shape");
        long[] c = new long[stored.length];
        for (int d = 0; d < c.length; d++) {
            c[d] = inner.path(d).asLong(stored[d]);
        }
        return c;
    }

    /**
     * The format of the nearest group above the path, which an array created there must share
     * (checked now, not when the job commits after writing every chunk).
     */
    private static Optional<Integer> hierarchyFormat(Zarr zarr, Store store, String path, String location) {
        String p = path.replaceAll("^/+|/+$", "");
        while (!p.isEmpty()) {
            p = p.contains("/") ? p.substring(0, p.lastIndexOf('/')) : "";
            ZarrNode node;
            try {
                node = zarr.open(store, p);
            } catch (NodeNotFoundException e) {
                continue;
            }
            try (ZarrNode n = node) {
                if (n instanceof ZarrArray) {
                    throw new ZarrWriteException("cannot create an array at '" + display(path) + "' in " + location
                            + ": '" + display(p) + "' above it is an array");
                }
                return Optional.of(n.zarrFormat());
            }
        }
        return Optional.empty();
    }

    /** An append keeps the array's metadata: a shape or data type given must be the array's. */
    private static void checkSame(ZarrOptions options, ZarrArray existing, String path) {
        Optional<long[]> shape = options.longs(ZarrOptions.SHAPE);
        if (shape.isPresent() && !Arrays.equals(shape.get(), existing.shape())) {
            throw new ZarrWriteException("option '" + ZarrOptions.SHAPE + "' is " + Arrays.toString(shape.get())
                    + " but the array at '" + display(path) + "' has shape " + Arrays.toString(existing.shape())
                    + "; an append keeps the array's metadata (mode overwrite replaces the array)");
        }
        Optional<String> type = options.get(ZarrOptions.DATA_TYPE);
        if (type.isPresent() && !dataTypeJson(type.get()).path("name").asText().equals(existing.dataType().name())) {
            throw new ZarrWriteException("option '" + ZarrOptions.DATA_TYPE + "' is '" + type.get() + "' but the array at '"
                    + display(path) + "' is " + ValueConversion.describe(existing.dataType())
                    + "; an append keeps the array's metadata (mode overwrite replaces the array)");
        }
    }

    private static ObjectNode newDocument(Zarr zarr, ZarrOptions options, Columns columns, long[] shape, int zarrFormat) {
        if (shape.length != columns.dimensions.size()) {
            throw new ZarrWriteException("option '" + ZarrOptions.SHAPE + "' " + Arrays.toString(shape) + " has "
                    + shape.length + " dimensions but the table has " + columns.dimensions.size()
                    + " dimension columns " + columns.dimensionNames());
        }
        DataType type = options.get(ZarrOptions.DATA_TYPE).map(t -> dataType(zarr, t))
                .or(() -> ValueConversion.defaultDataType(columns.value.dataType()))
                .orElseThrow(() -> new ZarrWriteException("value column '" + columns.value.name() + "' of type "
                        + columns.value.dataType().simpleString() + " has no default Zarr data type: give option '"
                        + ZarrOptions.DATA_TYPE + "'"));
        ArrayBuilder b = zarr.array(type, shape);
        Optional<long[]> shards = options.longs(ZarrOptions.SHARDS);
        long[] chunks = options.longs(ZarrOptions.CHUNKS)
                .orElseGet(() -> defaultChunks(shards.orElse(shape), type.size()));
        checkLength(ZarrOptions.CHUNKS, chunks, shape);
        b.chunks(chunks);
        if (shards.isPresent()) {
            checkLength(ZarrOptions.SHARDS, shards.get(), shape);
            b.shards(shards.get());
        }
        Optional<String> codecs = options.get(ZarrOptions.CODECS);
        Optional<String> compressor = options.get(ZarrOptions.COMPRESSOR);
        if (codecs.isPresent() && compressor.isPresent()) {
            throw new ZarrWriteException("give option '" + ZarrOptions.CODECS + "' or '" + ZarrOptions.COMPRESSOR
                    + "', not both");
        }
        if (codecs.isPresent()) {
            b.codecs(codecs.get());
        } else {
            compressor(compressor.orElse("zstd:1")).ifPresent(b::codec);
        }
        options.get(ZarrOptions.FILL_VALUE).ifPresent(f -> b.fillValue(json(f, true)));
        options.get(ZarrOptions.ATTRIBUTES).ifPresent(a -> {
            JsonNode j = json(a, false);
            if (!j.isObject()) {
                throw new ZarrWriteException("option '" + ZarrOptions.ATTRIBUTES + "' must be a JSON object, not '" + a + "'");
            }
            b.attributes((ObjectNode) j);
        });
        b.dimensionNames(columns.dimensions.stream().map(StructField::name).toArray(String[]::new));
        if (zarrFormat != 3) {
            b.zarrFormat(zarrFormat);
        }
        return b.toMetadata();
    }

    private static void checkLength(String option, long[] value, long[] shape) {
        if (value.length != shape.length) {
            throw new ZarrWriteException("option '" + option + "' " + Arrays.toString(value) + " has " + value.length
                    + " dimensions but the array has " + shape.length + " (shape " + Arrays.toString(shape) + ")");
        }
    }

    /** {@code within} halved along its longest side until a chunk holds at most about 1 MiB. */
    static long[] defaultChunks(long[] within, int elementSize) {
        long[] c = new long[within.length];
        for (int d = 0; d < c.length; d++) {
            c[d] = Math.max(1, within[d]);
        }
        while (true) {
            long bytes = elementSize;
            int longest = 0;
            for (int d = 0; d < c.length; d++) {
                bytes = Math.multiplyHigh(bytes, c[d]) != 0 ? Long.MAX_VALUE : bytes * c[d];
                if (c[d] > c[longest]) {
                    longest = d;
                }
            }
            if (bytes <= DEFAULT_CHUNK_BYTES || c.length == 0 || c[longest] == 1) {
                return c;
            }
            c[longest] = (c[longest] + 1) / 2;
        }
    }

    /** {@code zstd}, {@code zstd:5}, {@code gzip:1}, {@code blosc}, {@code blosc:5}, {@code none}. */
    static Optional<dev.zarrj.api.codec.CodecConfiguration> compressor(String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        String name = s.contains(":") ? s.substring(0, s.indexOf(':')) : s;
        Integer level = null;
        if (s.contains(":")) {
            try {
                level = Integer.parseInt(s.substring(s.indexOf(':') + 1).trim());
            } catch (NumberFormatException e) {
                throw badCompressor(spec);
            }
        }
        try {
            switch (name) {
                case "none":
                    return Optional.empty();
                case "zstd":
                    return Optional.of(ZstdConfiguration.level(level == null ? 1 : level));
                case "gzip":
                    return Optional.of(GzipConfiguration.level(level == null ? 5 : level));
                case "blosc":
                    return Optional.of(BloscConfiguration.of(BloscConfiguration.Compressor.ZSTD, level == null ? 5 : level,
                            BloscConfiguration.Shuffle.SHUFFLE));
                default:
                    throw badCompressor(spec);
            }
        } catch (ZarrException | IllegalArgumentException e) {
            if (e instanceof ZarrWriteException w) {
                throw w;
            }
            throw new ZarrWriteException("option '" + ZarrOptions.COMPRESSOR + "' is '" + spec + "': " + e.getMessage(), e);
        }
    }

    private static ZarrWriteException badCompressor(String spec) {
        return new ZarrWriteException("option '" + ZarrOptions.COMPRESSOR + "' is zstd, zstd:LEVEL, gzip:LEVEL, "
                + "blosc, blosc:LEVEL or none, not '" + spec + "'");
    }

    /** A data type from its name ({@code uint16}, {@code string}) or its metadata JSON. */
    static DataType dataType(Zarr zarr, String spec) {
        JsonNode j = dataTypeJson(spec);
        String name = j.path("name").asText();
        JsonNode config = j.has("configuration") ? j.get("configuration") : JsonNodeFactory.instance.objectNode();
        DataTypeProvider p = zarr.registry().find(ExtensionPoint.DATA_TYPE, name, DataTypeProvider.class)
                .orElseThrow(() -> new ZarrWriteException("option '" + ZarrOptions.DATA_TYPE + "' names data type '"
                        + name + "', which is not installed; installed: " + zarr.registry().names(ExtensionPoint.DATA_TYPE)));
        try {
            return p.create(ExtensionConfig.of(name, config, "/data_type"), zarr.providerContext());
        } catch (ZarrException e) {
            throw new ZarrWriteException("option '" + ZarrOptions.DATA_TYPE + "' is '" + spec + "': " + e.getMessage(), e);
        }
    }

    private static final java.util.regex.Pattern NUMPY_TIME =
            java.util.regex.Pattern.compile("(?:numpy\\.)?(datetime64|timedelta64)\\[(\\d*)([A-Za-zμ]+)]");

    /**
     * {@code {"name": ...}} for a bare name, the numpy form {@code datetime64[ms]} (or
     * {@code [10ms]}) for {@code numpy.datetime64} and {@code numpy.timedelta64}, else the JSON given.
     */
    private static JsonNode dataTypeJson(String spec) {
        String s = spec.trim();
        java.util.regex.Matcher time = NUMPY_TIME.matcher(s);
        if (time.matches()) {
            ObjectNode j = JsonNodeFactory.instance.objectNode().put("name", "numpy." + time.group(1));
            j.putObject("configuration").put("unit", time.group(3))
                    .put("scale_factor", time.group(2).isEmpty() ? 1 : Integer.parseInt(time.group(2)));
            return j;
        }
        if (s.startsWith("{")) {
            JsonNode j = json(s, false);
            if (!j.path("name").isTextual()) {
                throw new ZarrWriteException("option '" + ZarrOptions.DATA_TYPE + "' is a name or a JSON object with a "
                        + "\"name\", not '" + spec + "'");
            }
            return j;
        }
        return JsonNodeFactory.instance.objectNode().put("name", s);
    }

    /** JSON text; when {@code textFallback}, a value that is no JSON is taken as a JSON string. */
    private static JsonNode json(String text, boolean textFallback) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            if (textFallback) {
                return JsonNodeFactory.instance.textNode(text);
            }
            throw new ZarrWriteException("'" + text + "' is not valid JSON: " + e.getMessage(), e);
        }
    }

    static String display(String path) {
        return path.isEmpty() ? "/" : path;
    }

    /** The written table's dimension columns (in the table's or the option's order) and value column. */
    static final class Columns {
        final List<StructField> dimensions;
        final StructField value;

        private Columns(List<StructField> dimensions, StructField value) {
            this.dimensions = dimensions;
            this.value = value;
        }

        static Columns of(ZarrOptions options, StructType schema) {
            if (schema.fields().length < 2) {
                throw new ZarrWriteException("a written table has one column per dimension and a value column; this one "
                        + "has " + schema.fields().length + ": " + schema.simpleString());
            }
            StructField value = options.get(ZarrOptions.VALUE).map(v -> field(schema, v, ZarrOptions.VALUE))
                    .orElse(schema.fields()[schema.fields().length - 1]);
            List<StructField> dims = new ArrayList<>();
            Optional<List<String>> named = options.names(ZarrOptions.DIMENSIONS);
            if (named.isPresent()) {
                for (String n : named.get()) {
                    dims.add(field(schema, n, ZarrOptions.DIMENSIONS));
                }
            } else {
                for (StructField f : schema.fields()) {
                    if (!f.name().equals(value.name())) {
                        dims.add(f);
                    }
                }
            }
            for (StructField f : schema.fields()) {
                if (!f.name().equals(value.name()) && !dims.contains(f)) {
                    throw new ZarrWriteException("column '" + f.name() + "' is neither a dimension (option '"
                            + ZarrOptions.DIMENSIONS + "' " + named.get() + ") nor the value ('" + value.name()
                            + "'); select only the columns to write");
                }
            }
            for (StructField d : dims) {
                if (d.name().equals(value.name())) {
                    throw new ZarrWriteException("column '" + d.name() + "' is both a dimension and the value");
                }
                org.apache.spark.sql.types.DataType t = d.dataType();
                if (!(t instanceof LongType || t instanceof IntegerType || t instanceof ShortType || t instanceof ByteType)) {
                    throw new ZarrWriteException("dimension column '" + d.name() + "' is of type " + t.simpleString()
                            + "; dimension columns hold element indices: bigint, int, smallint or tinyint (the value "
                            + "column is '" + value.name() + "'" + (options.get(ZarrOptions.VALUE).isPresent() ? ""
                            : ", the last column; option '" + ZarrOptions.VALUE + "' names another") + ")");
                }
            }
            return new Columns(List.copyOf(dims), value);
        }

        private static StructField field(StructType schema, String name, String option) {
            for (StructField f : schema.fields()) {
                if (f.name().equals(name)) {
                    return f;
                }
            }
            for (StructField f : schema.fields()) {
                if (f.name().equalsIgnoreCase(name)) {
                    return f;
                }
            }
            throw new ZarrWriteException("option '" + option + "' names column '" + name + "', which the table does not "
                    + "have; its columns: " + Arrays.toString(schema.fieldNames()));
        }

        List<String> dimensionNames() {
            return dimensions.stream().map(StructField::name).toList();
        }

        /**
         * For each array dimension, the index of its column in {@link #dimensions}: by name when
         * the array names its dimensions and the columns carry exactly those names, else in order.
         */
        int[] mapTo(ZarrArray array, String path) {
            int rank = array.rank();
            if (dimensions.size() != rank) {
                throw new ZarrWriteException("the table has " + dimensions.size() + " dimension columns "
                        + dimensionNames() + " but the array at '" + display(path) + "' has " + rank
                        + " dimensions (shape " + Arrays.toString(array.shape()) + ")");
            }
            int[] order = new int[rank];
            List<String> names = array.dimensionNames().orElse(List.of());
            boolean byName = names.size() == rank;
            for (int d = 0; d < rank && byName; d++) {
                order[d] = -1;
                for (int c = 0; c < rank; c++) {
                    if (dimensions.get(c).name().equalsIgnoreCase(names.get(d) == null ? "" : names.get(d))) {
                        order[d] = c;
                    }
                }
                byName = order[d] >= 0;
            }
            if (!byName) {
                for (int d = 0; d < rank; d++) {
                    order[d] = d;
                }
            }
            return order;
        }
    }
}
