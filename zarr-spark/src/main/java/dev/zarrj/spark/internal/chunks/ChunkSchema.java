package dev.zarrj.spark.internal.chunks;

import dev.zarrj.spark.internal.read.ArraySet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The table of chunk rows ({@code rows=chunks}): {@value #COORDS} (the chunk's grid index), one
 * {@code long} per dimension with the chunk's origin (named as the element table's dimension
 * columns), {@value #SHAPE} (its shape, trimmed at the array's edge), and per array its values
 * flattened in C order, as {@code array<value type>} named as the element table's value column.
 */
public final class ChunkSchema {
    /** The chunk's index in the chunk grid (the shard grid, when sharded), per dimension. */
    public static final String COORDS = "chunk_coords";
    /** The chunk's shape inside the array, per dimension. */
    public static final String SHAPE = "chunk_shape";

    private ChunkSchema() {}

    /**
     * The chunk table of some arrays.
     *
     * @throws IllegalArgumentException when a dimension or array is named {@value #COORDS} or {@value #SHAPE}
     */
    public static StructType of(ArraySet arrays) {
        List<StructField> fields = new ArrayList<>();
        fields.add(new StructField(COORDS, DataTypes.createArrayType(DataTypes.LongType, false), false,
                Metadata.empty()));
        StructType elements = arrays.schema();
        int rank = arrays.dimensions().size();
        Set<String> names = new HashSet<>(List.of(COORDS, SHAPE));
        for (int i = 0; i < elements.fields().length; i++) {
            StructField f = elements.fields()[i];
            if (!names.add(f.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("rows=chunks would name two columns '" + f.name() + "': "
                        + (i < rank ? "a dimension" : "an array") + " of " + arrays.options().arrayPaths()
                        + " has the name of a chunk column; read elements instead (rows=elements)");
            }
            if (i == rank) {
                fields.add(new StructField(SHAPE, DataTypes.createArrayType(DataTypes.IntegerType, false), false,
                        Metadata.empty()));
            }
            fields.add(i < rank ? f : new StructField(f.name(), DataTypes.createArrayType(f.dataType(), f.nullable()),
                    false, f.metadata()));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }
}
