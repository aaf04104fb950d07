package dev.zarrj.spark.internal.write;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.Serializable;
import java.util.Arrays;

/**
 * What a write job does, decided on the driver and sent to every task: where the array is, its
 * metadata document (as JSON text, so that executors never read {@code zarr.json}), which
 * columns are its dimensions and value, and whether the job creates the array (then the job
 * commit stores the metadata) or writes into one that exists.
 */
final class WritePlan implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The store location with its options, as {@code Zarr.openStore} takes it. */
    final String location;
    /** The array's path in the store. */
    final String path;
    /** The store as {@code ZarrTable.name()} gives it: {@code zarr:LOCATION}, without store options. */
    final String tableStore;
    /** The array's Zarr v3 metadata document, JSON text. */
    final String document;
    /** The metadata format the array is (or will be) stored in. */
    final int zarrFormat;
    /** Whether the job stores the metadata at commit: the array did not exist, or is overwritten. */
    final boolean createsArray;
    /** Whether an existing array is erased before the tasks run (overwrite). */
    final boolean erasesExisting;
    /** For array dimension {@code d}: the ordinal of its column in the written rows. */
    final int[] dimensionOrdinals;
    /** For array dimension {@code d}: its column's name. */
    final String[] dimensionColumns;
    /** For array dimension {@code d}: its column's Spark type (integral). */
    final org.apache.spark.sql.types.DataType[] dimensionTypes;
    /** The ordinal of the value column. */
    final int valueOrdinal;
    /** How values become elements. */
    final ValueConversion conversion;
    /** The array's shape. */
    final long[] shape;
    /** The shape of one stored object: a shard, or a chunk when the array is not sharded. */
    final long[] storedChunk;
    /**
     * The shape a task buffers and writes at once: the stored object, or, when a shard holds more
     * decoded bytes than the memory budget, its inner chunk (each written into the shard in turn).
     */
    final long[] bufferChunk;

    WritePlan(String location, String path, String tableStore, ObjectNode document, int zarrFormat, boolean createsArray,
              boolean erasesExisting, int[] dimensionOrdinals, String[] dimensionColumns,
              org.apache.spark.sql.types.DataType[] dimensionTypes, int valueOrdinal, ValueConversion conversion,
              long[] shape, long[] storedChunk, long[] bufferChunk) {
        this.location = location;
        this.path = path;
        this.tableStore = tableStore;
        this.document = document.toString();
        this.zarrFormat = zarrFormat;
        this.createsArray = createsArray;
        this.erasesExisting = erasesExisting;
        this.dimensionOrdinals = dimensionOrdinals.clone();
        this.dimensionColumns = dimensionColumns.clone();
        this.dimensionTypes = dimensionTypes.clone();
        this.valueOrdinal = valueOrdinal;
        this.conversion = conversion;
        this.shape = shape.clone();
        this.storedChunk = storedChunk.clone();
        this.bufferChunk = bufferChunk.clone();
    }

    int rank() {
        return shape.length;
    }

    /** The number of stored objects along each dimension. */
    long[] gridShape() {
        return gridShape(storedChunk);
    }

    /** The number of {@code chunk}s along each dimension. */
    long[] gridShape(long[] chunk) {
        long[] g = new long[shape.length];
        for (int d = 0; d < g.length; d++) {
            g[d] = chunk[d] == 0 ? 0 : (shape[d] + chunk[d] - 1) / chunk[d];
        }
        return g;
    }

    /** Whether a task buffers inner chunks rather than whole stored objects. */
    boolean buffersInnerChunks() {
        return !Arrays.equals(storedChunk, bufferChunk);
    }

    ObjectNode documentNode() {
        try {
            return (ObjectNode) JSON.readTree(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the write plan's metadata document is not JSON", e);
        }
    }

    /** A handle that writes the array's chunks without reading or writing its metadata. */
    ZarrArray unstoredArray(Zarr zarr, Store store) {
        return zarr.unstoredArray(store, path, documentNode(), zarrFormat);
    }

    /** The array as messages name it. */
    String describe() {
        return "'" + (path.isEmpty() ? "/" : path) + "' in " + location;
    }

    @Override
    public String toString() {
        return "WritePlan[" + describe() + ", shape " + Arrays.toString(shape) + ", stored chunks "
                + Arrays.toString(storedChunk) + (buffersInnerChunks() ? ", buffered by " + Arrays.toString(bufferChunk)
                : "") + (createsArray ? ", creates" : ", writes into") + "]";
    }
}
