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

    /** The arrays as executors open them. */
    public List<ArrayRef> refs() {
        List<ArrayRef> out = new ArrayList<>();
        for (ZarrArray a : arrays) {
            out.add(ArrayRef.of(location, a));
        }
        return out;
    }
}
