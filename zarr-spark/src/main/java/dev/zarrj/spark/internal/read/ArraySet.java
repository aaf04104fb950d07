package dev.zarrj.spark.internal.read;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import dev.zarrj.spark.ZarrOptions;
import dev.zarrj.spark.internal.ArrayRef;
import dev.zarrj.spark.internal.ExecutorArrays;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The arrays a read covers, opened on the driver: one or several arrays of one shape, and the
 * table they make. Dimension columns are named from the first array's {@code dimension_names}
 * ({@code dim_i} where a name is missing); a value column is named after its array (the last
 * segment of its path, {@code value} for an array at the store's root), with {@code _value}
 * added when that is a dimension's name too (an xarray coordinate array {@code time} along
 * dimension {@code time} reads as columns {@code time} and {@code time_value}).
 */
public final class ArraySet {
    private final ZarrOptions options;
    private final String location;
    private final List<ZarrArray> arrays;
    private final List<String> dimensions;
    private final List<String> valueNames;
    private final List<ValueColumn> values;

    private ArraySet(ZarrOptions options, String location, List<ZarrArray> arrays, List<String> dimensions,
                     List<String> valueNames, List<ValueColumn> values) {
        this.options = options;
        this.location = location;
        this.arrays = arrays;
        this.dimensions = dimensions;
        this.valueNames = valueNames;
        this.values = values;
    }

    /**
     * Opens the arrays the options name (one metadata read each).
     *
     * @throws IllegalArgumentException when the arrays differ in shape, or a name repeats
     */
    public static ArraySet open(ZarrOptions options) {
        String location = options.storeLocation();
        Store store = ExecutorArrays.readStore(location);
        List<ZarrArray> arrays = new ArrayList<>();
        for (String path : options.arrayPaths()) {
            arrays.add(openArray(store, path));
        }
        ZarrArray first = arrays.get(0);
        for (ZarrArray a : arrays) {
            // Partitions, pruning and slabs are planned on a regular grid; a plugin's grid would be misread.
            String grid = a.metadata().path("chunk_grid").path("name").asText("");
            if (!grid.equals("regular")) {
                throw new dev.zarrj.api.UnsupportedFormatException("/chunk_grid/name", "array '" + a.path()
                        + "' has chunk grid '" + grid + "'; the zarr data source reads arrays with a regular grid only");
            }
            if (!Arrays.equals(a.shape(), first.shape())) {
                throw new IllegalArgumentException("arrays read together must have one shape: '" + first.path() + "' is "
                        + Arrays.toString(first.shape()) + ", '" + a.path() + "' is " + Arrays.toString(a.shape()));
            }
        }
        List<String> dims = new ArrayList<>();
        List<String> names = first.dimensionNames().orElse(List.of());
        for (int d = 0; d < first.rank(); d++) {
            String n = d < names.size() ? names.get(d) : null;
            dims.add(n == null || n.isEmpty() ? "dim_" + d : n);
        }
        Set<String> seen = new HashSet<>();
        for (String d : dims) {
            if (!seen.add(d.toLowerCase(java.util.Locale.ROOT))) {
                throw new InvalidMetadataException("/dimension_names", "array '" + first.path()
                        + "' names two dimensions '" + d + "'; Spark columns need distinct names");
            }
        }
        List<String> valueNames = new ArrayList<>();
        List<ValueColumn> values = new ArrayList<>();
        for (ZarrArray a : arrays) {
            String path = a.path();
            String name = path.isEmpty() || path.equals("/") ? "value" : path.substring(path.lastIndexOf('/') + 1);
            if (seen.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                name = name + "_value";
            }
            if (!seen.add(name.toLowerCase(java.util.Locale.ROOT))) {
                throw new IllegalArgumentException("two columns would be named '" + name + "' (array '" + path
                        + "'); read the arrays separately and join them");
            }
            valueNames.add(name);
            values.add(ValueColumn.of(a.dataType(), a.fillValue(), path));
        }
        return new ArraySet(options, location, List.copyOf(arrays), List.copyOf(dims), List.copyOf(valueNames),
                List.copyOf(values));
    }

    /** The array at a path; at a group, an error that names the group's arrays to choose from. */
    private static ZarrArray openArray(Store store, String path) {
        ZarrNode node = ExecutorArrays.zarr().open(store, path);
        if (node instanceof ZarrArray a) {
            return a;
        }
        ZarrGroup g = (ZarrGroup) node;
        List<String> arrays = new ArrayList<>();
        try {
            for (ZarrNode child : g.children()) {
                if (child instanceof ZarrArray) {
                    String p = child.path();
                    arrays.add(p.substring(p.lastIndexOf('/') + 1));
                }
            }
        } catch (ZarrException e) {
            // a store that cannot be listed: the message says less, nothing else changes
        }
        String where = path.isEmpty() ? "the store's root" : "'" + path + "'";
        throw new IllegalArgumentException(where + " in " + store.describe() + " is a group, not an array; choose one with "
                + "option(\"" + ZarrOptions.ARRAY + "\", \"" + (path.isEmpty() ? "" : path + "/") + "NAME\")"
                + (arrays.isEmpty() ? "" : " (its arrays: " + String.join(", ", arrays) + ")"));
    }

    /** Whether two schemas have the same column names (ignoring case) and types, in order. */
    public static boolean sameColumns(StructType a, StructType b) {
        if (a.fields().length != b.fields().length) {
            return false;
        }
        for (int i = 0; i < a.fields().length; i++) {
            if (!a.fields()[i].name().equalsIgnoreCase(b.fields()[i].name())
                    || !a.fields()[i].dataType().sameType(b.fields()[i].dataType())) {
                return false;
            }
        }
        return true;
    }

    /** The table: dimension columns, then one value column per array. */
    public StructType schema() {
        List<StructField> fields = new ArrayList<>();
        for (int d = 0; d < dimensions.size(); d++) {
            fields.add(new StructField(dimensions.get(d), DataTypes.LongType, false,
                    new MetadataBuilder().putLong("zarr.dimension", d).build()));
        }
        for (int i = 0; i < arrays.size(); i++) {
            fields.add(values.get(i).field(valueNames.get(i)));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }

    /** The read's options. */
    public ZarrOptions options() {
        return options;
    }

    /** The store location, store options included. */
    public String location() {
        return location;
    }

    /** The arrays, opened on the driver, in column order. */
    public List<ZarrArray> arrays() {
        return arrays;
    }

    /** The dimension columns' names. */
    public List<String> dimensions() {
        return dimensions;
    }

    List<String> valueNames() {
        return valueNames;
    }

    List<ValueColumn> values() {
        return values;
    }

    /** The arrays' shape. */
    public long[] shape() {
        return arrays.get(0).shape();
    }

    /** The storage grid: the first array's chunks (its shards, when sharded). */
    public long[] gridChunkShape() {
        return arrays.get(0).chunkShape();
    }

    boolean sharded() {
        com.fasterxml.jackson.databind.JsonNode codecs = arrays.get(0).codecs();
        return codecs != null && codecs.size() > 0 && "sharding_indexed".equals(codecs.get(0).path("name").asText());
    }

    /** The inner chunk shape of a sharded first array, else null. */
    long[] innerChunkShape() {
        if (!sharded()) {
            return null;
        }
        com.fasterxml.jackson.databind.JsonNode inner = arrays.get(0).codecs().get(0).path("configuration").path("chunk_shape");
        long[] out = new long[inner.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.max(1, inner.get(i).asLong(1));
        }
        return out.length == shape().length ? out : null;
    }

    /**
     * The chunks of the storage grid ({@link #gridChunkShape}, {@code gridShape} of them along
     * each dimension) that hold a chunk some array stores, as C-order linear indices; null when a
     * store cannot be listed. Arrays read together share a shape, not a chunking: another array's
     * chunk counts for every grid chunk it overlaps.
     */
    public java.util.Set<Long> storedGridChunks(long[] gridShape) {
        java.util.Set<Long> out = new java.util.HashSet<>();
        long[] grid = gridChunkShape();
        long[] shape = shape();
        for (ZarrArray a : arrays) {
            if (!a.store().capabilities().listable()) {
                return null;
            }
            long[] own = a.chunkShape();
            for (long[] c : a.storedChunks()) {
                addOverlapped(c, own, grid, shape, gridShape, out);
            }
        }
        return out;
    }

    private static void addOverlapped(long[] c, long[] own, long[] grid, long[] shape, long[] gridShape,
                                      java.util.Set<Long> out) {
        int rank = c.length;
        long[] first = new long[rank];
        long[] last = new long[rank];
        for (int d = 0; d < rank; d++) {
            long from = c[d] * own[d];
            long to = Math.min(from + own[d], shape[d]);
            if (to <= from) {
                return;
            }
            first[d] = from / grid[d];
            last[d] = (to - 1) / grid[d];
        }
        long[] at = first.clone();
        while (true) {
            long linear = 0;
            for (int d = 0; d < rank; d++) {
                linear = linear * gridShape[d] + at[d];
            }
            out.add(linear);
            int d = rank - 1;
            while (d >= 0 && ++at[d] > last[d]) {
                at[d] = first[d];
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /** The arrays as executors open them. */
    /** The references executors open the arrays at these indices by (their metadata travel along). */
    public List<ArrayRef> refs(List<Integer> indices) {
        List<ArrayRef> out = new ArrayList<>();
        for (int a : indices) {
            out.add(ArrayRef.of(location, arrays.get(a)));
        }
        return out;
    }

    /** The decoded bytes of one element of each array at these indices, together. */
    public long elementBytes(List<Integer> indices) {
        long bytes = 0;
        for (int a : indices) {
            bytes += arrays.get(a).dataType().size();
        }
        return bytes;
    }

    /**
     * The arrays a read decodes: those whose values it returns and, with {@code skipFill}, every
     * other one too, since all arrays' values decide whether a row (or chunk) is all fill.
     */
    public List<Integer> arraysToRead(List<Integer> returned) {
        List<Integer> out = new ArrayList<>(returned);
        if (options.skipFill()) {
            for (int a = 0; a < arrays.size(); a++) {
                if (!out.contains(a)) {
                    out.add(a);
                }
            }
        }
        return out;
    }
}
