package dev.zarrj.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.InsufficientMemoryException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.Region;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.transformer.StorageTransformer;
import dev.zarrj.core.internal.format.MetadataIo;
import dev.zarrj.core.internal.format.StoredNode;
import dev.zarrj.core.internal.format.ZarrV3Format;
import dev.zarrj.core.internal.hierarchy.ConsolidatedView;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import dev.zarrj.core.internal.metadata.NodeDocuments;
import dev.zarrj.core.internal.pipeline.ChunkReader;
import dev.zarrj.core.internal.pipeline.ChunkWriter;
import dev.zarrj.core.internal.pipeline.Memory;
import dev.zarrj.core.internal.selection.SelectionReader;
import dev.zarrj.core.internal.selection.SelectionWriter;
import dev.zarrj.core.selection.Selection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apiguardian.api.API;

/**
 * A Zarr array: reads and writes rectangular regions, whole chunks and the whole array.
 *
 * <p>Regions are given as an offset and a shape per dimension. Absent chunks read as the fill
 * value; chunks left entirely at the fill value are not stored (see {@link WriteEmptyChunks}).
 * Chunks are decoded and encoded in parallel on the {@link Zarr}'s executor. A read of a region
 * whose chunks are mostly absent lists the array's keys once, on a listable store, and asks only
 * for the chunks listed, rather than for each chunk; reads are not snapshots, so a chunk written
 * meanwhile may read as the fill value.
 *
 * <p>Thread-safe: concurrent reads and writes are allowed, and concurrent writes to different
 * regions of one chunk lose nothing within this process, through this handle or any other of
 * the same array (another {@code openArray}, another {@link Zarr} over the same location).
 * Metadata changes ({@link #resize}, {@link #setAttributes}) replace this handle's view of the metadata atomically.
 *
 * <p>An array opened or created from a location ({@link Zarr#openArray(String, String)},
 * {@link ArrayBuilder#create(String, String)}) owns its store: close it, best with
 * try-with-resources, to close the store (a zip archive opened for writing is written then).
 * Closing an array opened from a {@link Store} you hold does nothing.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class ZarrArray implements ZarrNode {
    private final Zarr zarr;
    private final Store baseStore;
    private final Store store;
    private final String path;
    private final StoreOwner owner;
    /** The consolidated metadata this array was opened through, or null: writes update them. */
    private final ConsolidatedView view;
    private volatile Bound bound;
    private final MetadataFormat format;
    /** The array's documents as last read or written; null when opened from consolidated metadata of another format. */
    private volatile StoredDocuments stored;
    /** Whether every chunk must be stored, fill value or not ({@link TranslatedNode#storesEveryChunk()}). */
    private volatile boolean storesEveryChunk;

    /** The metadata and the reader and writer bound to it, replaced together when the metadata changes. */
    private record Bound(ArrayMetadata meta, ChunkReader reader, ChunkWriter writer) {}

    ZarrArray(Zarr zarr, Store store, String path, ArrayMetadata meta, StoreOwner owner, ConsolidatedView view,
              MetadataFormat format, StoredDocuments stored, boolean storesEveryChunk) {
        this.zarr = zarr;
        this.format = format;
        this.stored = stored;
        this.storesEveryChunk = storesEveryChunk;
        this.view = view;
        this.owner = owner;
        this.baseStore = store;
        this.path = path;
        Store s = store;
        List<StorageTransformer> ts = new ArrayList<>(meta.storageTransformers());
        Collections.reverse(ts);
        for (StorageTransformer t : ts) {
            s = t.apply(s, NodePath.prefix(path));
        }
        this.store = s;
        this.bound = bind(meta);
    }

    private Bound bind(ArrayMetadata m) {
        String prefix = NodePath.prefix(path);
        return new Bound(m, new ChunkReader(store, prefix, m, zarr.chunkTasks(), zarr.ioConcurrency(baseStore),
                zarr.coalesceGap(), zarr.chunkCache(), baseStore),
                new ChunkWriter(store, baseStore, prefix, m, zarr.chunkTasks(),
                        storesEveryChunk ? WriteEmptyChunks.STORE : zarr.writeEmptyChunks(),
                        zarr.writeConcurrency(baseStore), zarr.chunkCache()));
    }

    private ArrayMetadata meta() {
        return bound.meta();
    }

    @Override
    public String path() {
        return NodePath.display(path);
    }

    @Override
    public Store store() {
        return baseStore;
    }

    /** A copy of the shape. */
    public long[] shape() {
        return meta().shape();
    }

    /** The number of dimensions. */
    public int rank() {
        return meta().rank();
    }

    /** The element type. */
    public DataType dataType() {
        return meta().dataType();
    }

    /** The fill value. */
    public FillValue fillValue() {
        return meta().fillValue();
    }

    /** The shape of the chunk at the grid origin (for a regular grid, every chunk's shape). */
    public long[] chunkShape() {
        return meta().chunkGrid().chunkShape(new long[meta().rank()]);
    }

    /** The number of chunks along each dimension. */
    public long[] chunkGridShape() {
        return meta().chunkGrid().gridShape(meta().shape());
    }

    /** The codec chain as its metadata JSON array. */
    public JsonNode codecs() {
        return meta().codecs().toJson();
    }

    /** The dimension names (null entries for unnamed dimensions), or empty when none are given. */
    public Optional<List<String>> dimensionNames() {
        return Optional.ofNullable(meta().dimensionNames());
    }

    /** Extensions skipped on open because of {@code "must_understand": false}. */
    public List<String> skippedExtensions() {
        return meta().skipped();
    }

    /**
     * Whether writes are refused: because an extension was skipped on open (writing without it
     * would corrupt the array for readers that understand it), or the store is read-only.
     */
    public boolean isReadOnly() {
        return (meta().hasSkipped() && !zarr.allowWritesWithSkippedExtensions()) || !baseStore.capabilities().writable();
    }

    @Override
    public ObjectNode attributes() {
        return meta().attributes();
    }

    @Override
    public ObjectNode metadata() {
        return meta().document().deepCopy();
    }

    @Override
    public int zarrFormat() {
        return format.zarrFormat();
    }

    @Override
    public Map<String, ObjectNode> storedMetadata() {
        if (format == ZarrV3Format.INSTANCE) {
            return Map.of(ZarrV3Format.DOCUMENT, metadata());
        }
        return ZarrGroup.copies(stored());
    }

    /**
     * The array's documents, read first when it was opened from consolidated metadata of a format
     * other than v3 (and then also whether it stores every chunk, which those do not say).
     */
    private StoredDocuments stored() {
        StoredDocuments s = stored;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (stored == null) {
                Optional<StoredNode> n = MetadataIo.read(baseStore, path, format, false);
                stored = n.map(StoredNode::documents).orElse(StoredDocuments.none(NodePath.prefix(path)));
                if (n.isPresent() && n.get().translated().storesEveryChunk()) {
                    storesEveryChunk = true;
                    bound = bind(meta());
                }
            }
            return stored;
        }
    }

    @Override
    public synchronized void setAttributes(ObjectNode attributes) {
        checkWritable("set attributes of");
        ObjectNode attrs = attributes.deepCopy();
        writeMetadata(meta().withAttributes(attrs), current -> current.withAttributes(attrs));
    }

    @Override
    public synchronized Attributes updateAttributes(Map<String, ?> changes) {
        checkWritable("update attributes of");
        Map<String, Object> c = new java.util.LinkedHashMap<>(changes);
        Attributes.empty().withAll(c); // every value can be written, before anything is
        ArrayMetadata m = writeMetadata(meta().withAttributes(Attributes.of(meta().attributes()).withAll(c).toJson()),
                current -> current.withAttributes(Attributes.of(current.attributes()).withAll(c).toJson()));
        return Attributes.of(m.attributes());
    }

    /** The store key of the chunk at these grid coordinates. */
    public String chunkKey(long... chunkCoords) {
        return meta().chunkKey(NodePath.prefix(path), chunkCoords).value();
    }

    /**
     * The grid coordinates of every chunk stored for this array (found by listing its prefix and
     * decoding the keys with its key encoding), in key order. Needs a listable store.
     */
    public List<long[]> storedChunks() {
        ArrayMetadata m = meta();
        String prefix = NodePath.prefix(path);
        List<long[]> out = new ArrayList<>();
        long[] grid = m.chunkGrid().gridShape(m.shape());
        for (StoreKey k : store.listPrefix(prefix)) {
            decode(m, prefix, grid, k.value()).ifPresent(out::add);
        }
        return out;
    }

    /**
     * Every chunk of the array's grid, stored or not, with the region of the array it covers, in
     * row-major order of the grid coordinates. Lazy: the chunks are worked out as the stream is
     * consumed, so an array of a billion chunks costs no list. The grid is the one of the
     * metadata when this is called.
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public Stream<ChunkRegion> chunkRegions() {
        ArrayMetadata m = meta();
        long[] grid = m.chunkGrid().gridShape(m.shape());
        long n = 1;
        for (long g : grid) {
            n = g == 0 ? 0 : (n > Long.MAX_VALUE / g ? -1 : n * g); // -1: more than a long counts
            if (n <= 0) {
                break;
            }
        }
        long count = n;
        Iterator<ChunkRegion> it = new Iterator<>() {
            private long[] next = count == 0 ? null : new long[grid.length];

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public ChunkRegion next() {
                if (next == null) {
                    throw new java.util.NoSuchElementException();
                }
                long[] c = next.clone();
                int d = grid.length - 1;
                while (d >= 0 && ++next[d] == grid[d]) {
                    next[d--] = 0;
                }
                if (d < 0) {
                    next = null;
                }
                return region(m, c);
            }
        };
        int traits = Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.IMMUTABLE | Spliterator.DISTINCT;
        return StreamSupport.stream(count > 0 ? Spliterators.spliterator(it, count, traits)
                : Spliterators.spliteratorUnknownSize(it, traits), false);
    }

    /**
     * The chunks stored for this array ({@link #storedChunks()}: one listing of its prefix, in key
     * order), each with the region of the array it covers. Needs a listable store.
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public Stream<ChunkRegion> storedChunkRegions() {
        ArrayMetadata m = meta();
        return storedChunks().stream().map(c -> region(m, c));
    }

    private static ChunkRegion region(ArrayMetadata m, long[] coords) {
        long[] offset = new long[coords.length];
        long[] shape = new long[coords.length];
        long[] arrayShape = m.shape();
        for (int d = 0; d < coords.length; d++) {
            offset[d] = m.chunkGrid().chunkStart(d, coords[d]);
            shape[d] = Math.min(m.chunkGrid().chunkLength(d, coords[d]), arrayShape[d] - offset[d]);
        }
        return new ChunkRegion(coords, Region.of(offset, shape));
    }

    /**
     * The grid coordinates of the chunk a store key names, the inverse of {@link #chunkKey}; empty
     * when the key is not one of this array's chunks inside its grid (its metadata, a key of
     * another rank or outside the array). Tells which of the names a listing finds are chunks.
     */
    public Optional<long[]> chunkCoords(String key) {
        ArrayMetadata m = meta();
        return decode(m, NodePath.prefix(path), m.chunkGrid().gridShape(m.shape()), key);
    }

    private static Optional<long[]> decode(ArrayMetadata m, String prefix, long[] grid, String key) {
        if (!key.startsWith(prefix)) {
            return Optional.empty();
        }
        return m.keyEncoding().decode(key.substring(prefix.length()), m.rank()).filter(c -> !outside(c, grid));
    }

    /** The decoded size in bytes of one whole chunk at these coordinates. */
    public long chunkByteSize(long... chunkCoords) {
        return meta().chunkSpec(chunkCoords).byteSize();
    }

    // ---- reads ----

    /** Reads the whole array. */
    public NdArray read() {
        return read(new long[meta().rank()], meta().shape());
    }

    /**
     * Reads the region {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException     when the region lies outside the array, or holds more
     *                                      than one buffer can (2 GiB)
     * @throws ChunkDecodeException         naming the key of a chunk that cannot be decoded
     * @throws InsufficientMemoryException  when the region, or a chunk it needs decoded whole, does
     *                                      not fit in the heap
     */
    public NdArray read(long[] offset, long[] shape) {
        Bound b = bound;
        long[] coords = wholeChunk(b.meta(), offset, shape);
        if (coords != null) {
            return b.reader().readChunk(coords);
        }
        return b.reader().readNew(offset, shape, () -> Memory.array(b.meta().dataType(), shape,
                () -> "reading the region " + Arrays.toString(shape) + " at " + Arrays.toString(offset) + " of array '"
                        + path() + "'"));
    }

    /**
     * Reads a region; the same as {@link #read(long[], long[])} with its offset and shape.
     *
     * @throws IllegalArgumentException when the region lies outside the array
     */
    public NdArray read(Region region) {
        return read(region.offset(), region.shape());
    }

    /**
     * Reads a selection (steps, index lists, masks, points, blocks: see {@link Selection}) into an
     * array of the selection's shape. Only the chunks the selection touches are read, in parallel
     * as region reads are, each fetched and decoded once however many of its elements are taken;
     * of a sharded chunk only the inner chunks holding selected elements are fetched. Chunks that
     * are not stored read as the fill value.
     *
     * @throws IllegalArgumentException     naming the dimension and value when the selection does
     *                                      not fit the array
     * @throws ChunkDecodeException         naming the key of a chunk that cannot be decoded
     */
    public NdArray read(Selection selection) {
        Bound b = bound;
        ArrayMetadata m = b.meta();
        Selection.Resolved sel = selection.resolve(m.shape(), m.chunkGrid());
        NdArray out = Memory.array(m.dataType(), sel.shape(), () -> "reading the selection " + selection
                + " of array '" + path() + "'");
        SelectionReader.read(b.reader(), m, sel, out, true);
        return out;
    }

    // ---- asynchronous reads and writes ----

    /**
     * {@link #read(Selection)} without blocking the caller: one task on the {@link Zarr}'s
     * executor ({@link Zarr.Builder#executor}, else its own pool) coordinates the read and takes
     * part in decoding, with the executor's other threads as for a blocking read; on a store with
     * asynchronous requests ({@link Store#getAsync}) up to {@link Zarr.Builder#ioConcurrency}
     * chunks are fetched at once without a thread waiting for each. The future completes on
     * that task's thread with the data, or exceptionally with exactly the exception the blocking
     * call throws (a {@link dev.zarrj.api.ZarrException} such as {@link ChunkDecodeException},
     * or an {@link IllegalArgumentException}), not wrapped.
     *
     * <p>{@link CompletableFuture#cancel cancel} completes the future as cancelled at once and
     * stops the read: no further chunk is requested or decoded (those already running finish),
     * and its buffers go back to the pool.
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<NdArray> readAsync(Selection selection) {
        return zarr.async(() -> read(selection));
    }

    /** {@link #read(long[], long[])} without blocking the caller, as {@link #readAsync(Selection)}. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<NdArray> readAsync(long[] offset, long[] shape) {
        long[] o = offset.clone();
        long[] s = shape.clone();
        return zarr.async(() -> read(o, s));
    }

    /**
     * {@link #write(Selection, NdArray)} without blocking the caller, as
     * {@link #readAsync(Selection)}; {@code data} must not change until the future completes.
     * Cancelling stops between chunks: each chunk is left either as it was or fully written,
     * never in part (a chunk is stored in one request).
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<Void> writeAsync(Selection selection, NdArray data) {
        return zarr.async(() -> {
            write(selection, data);
            return null;
        });
    }

    /** {@link #write(long[], NdArray)} without blocking the caller, as {@link #writeAsync(Selection, NdArray)}. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<Void> writeAsync(long[] offset, NdArray data) {
        long[] o = offset.clone();
        return zarr.async(() -> {
            write(o, data);
            return null;
        });
    }

    /**
     * Reads the region at {@code offset} with {@code dst}'s shape into {@code dst}, decoding
     * chunks straight into its memory where the layout allows. If the read fails, {@code dst} may
     * hold part of the region.
     */
    public void readInto(long[] offset, NdArray dst) {
        bound.reader().read(offset, dst, false);
    }

    /**
     * Reads one whole chunk, including any part that overhangs the array's edge.
     *
     * @throws ChunkDecodeException naming the key when it cannot be decoded
     */
    public NdArray readChunk(long... chunkCoords) {
        Bound b = bound;
        checkChunk(b.meta(), chunkCoords);
        return b.reader().readChunk(chunkCoords.clone());
    }

    /**
     * The coordinates of the chunk when the region is exactly one chunk that lies wholly inside
     * the array, else null.
     */
    private static long[] wholeChunk(ArrayMetadata m, long[] offset, long[] shape) {
        int rank = m.rank();
        if (offset.length != rank || shape.length != rank) {
            return null;
        }
        long[] coords = new long[rank];
        for (int d = 0; d < rank; d++) {
            if (offset[d] < 0 || shape[d] <= 0 || shape[d] > m.shape()[d] - offset[d]) {
                return null;
            }
            coords[d] = m.chunkGrid().chunkIndex(d, offset[d]);
            if (m.chunkGrid().chunkStart(d, coords[d]) != offset[d]
                    || m.chunkGrid().chunkLength(d, coords[d]) != shape[d]) {
                return null;
            }
        }
        return coords;
    }

    private static void checkChunk(ArrayMetadata m, long[] coords) {
        long[] grid = m.chunkGrid().gridShape(m.shape());
        if (coords.length != grid.length) {
            throw new IllegalArgumentException("chunk coordinates of rank " + coords.length + " for an array of rank " + grid.length);
        }
        for (int d = 0; d < grid.length; d++) {
            if (coords[d] < 0 || coords[d] >= grid[d]) {
                throw new IllegalArgumentException("chunk " + Arrays.toString(coords) + " outside the chunk grid "
                        + Arrays.toString(grid));
            }
        }
    }

    // ---- writes ----

    /** Writes the whole array from {@code data}, whose shape must be the array's. */
    public void write(NdArray data) {
        write(new long[meta().rank()], data);
    }

    /**
     * Writes {@code data} into the region at {@code offset} with {@code data}'s shape.
     *
     * @throws ReadOnlyException        when the array is read-only (see {@link #isReadOnly()})
     * @throws IllegalArgumentException when the region lies outside the array or the element size differs
     */
    public void write(long[] offset, NdArray data) {
        checkWritable("write to");
        Bound b = bound;
        if (data.dataType().size() != b.meta().dataType().size()) {
            throw new IllegalArgumentException("cannot write " + data.dataType().name() + " elements into a "
                    + b.meta().dataType().name() + " array");
        }
        b.writer().write(offset, data);
    }

    /**
     * Writes {@code data}, of the selection's shape (see {@link Selection}), into the elements the
     * selection takes. An element selected twice (a repeated index or point) gets the value of the
     * later occurrence (in {@code data}'s C order). Only the chunks the selection touches are
     * written: one whose every element is selected is encoded without reading it; any other is
     * read, changed and written under the same per-chunk locking (and conditional writes) as a
     * region write's partial chunk, so that concurrent writers in this process lose nothing.
     * Chunks left all fill value follow {@link WriteEmptyChunks} as for region writes.
     *
     * @throws ReadOnlyException        when the array is read-only
     * @throws IllegalArgumentException when the selection does not fit the array or {@code data}'s
     *                                  shape is not the selection's
     */
    public void write(Selection selection, NdArray data) {
        checkWritable("write to");
        Bound b = bound;
        ArrayMetadata m = b.meta();
        if (data.dataType().size() != m.dataType().size() || data.holdsObjects() != m.dataType().kind().isVariableLength()) {
            throw new IllegalArgumentException("cannot write " + data.dataType().name() + " elements into a "
                    + m.dataType().name() + " array");
        }
        Selection.Resolved sel = selection.resolve(m.shape(), m.chunkGrid());
        if (!Arrays.equals(sel.shape(), data.shape())) {
            throw new IllegalArgumentException("data of shape " + Arrays.toString(data.shape()) + " for the selection "
                    + selection + " of shape " + Arrays.toString(sel.shape()) + " of array '" + path() + "'");
        }
        SelectionWriter.write(b.writer(), m, sel, data);
    }

    /**
     * Writes a {@code bool} array's elements, one per element, into the region
     * {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  {@link NdArray}), the length does not match the shape or the
     *                                  region lies outside the array
     */
    public void write(long[] offset, long[] shape, boolean[] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /**
     * Writes 1-byte integers (or the raw bytes of raw and other types) into the region
     * {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  {@link NdArray}), the length does not match the shape or the
     *                                  region lies outside the array
     */
    public void write(long[] offset, long[] shape, byte[] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /**
     * Writes 2-byte integers into the region {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  {@link NdArray}), the length does not match the shape or the
     *                                  region lies outside the array
     */
    public void write(long[] offset, long[] shape, short[] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /**
     * Writes 4-byte integers into the region {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  {@link NdArray}), the length does not match the shape or the
     *                                  region lies outside the array
     */
    public void write(long[] offset, long[] shape, int[] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /**
     * Writes 8-byte integers into the region {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  {@link NdArray}), the length does not match the shape or the
     *                                  region lies outside the array
     */
    public void write(long[] offset, long[] shape, long[] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /**
     * Writes float16 (rounded) or float32 elements, or complex64 ones as interleaved real and
     * imaginary parts, into the region {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  {@link NdArray}), the length does not match the shape or the
     *                                  region lies outside the array
     */
    public void write(long[] offset, long[] shape, float[] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /**
     * Writes float64 elements, or complex128 ones as interleaved real and imaginary parts, into the
     * region {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type copies to another Java array type (see
     *                                  {@link NdArray}), the length does not match the shape or the
     *                                  region lies outside the array
     */
    public void write(long[] offset, long[] shape, double[] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /**
     * Writes the elements of a {@code string} array into the region {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type is not a string type, an element is
     *                                  null, the length does not match the shape or the region lies
     *                                  outside the array
     */
    public void write(long[] offset, long[] shape, String[] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /**
     * Writes the elements of a variable-length {@code bytes} array into the region
     * {@code [offset, offset + shape)}.
     *
     * @throws IllegalArgumentException when the data type is not a variable-length bytes type, an
     *                                  element is null, the length does not match the shape or the
     *                                  region lies outside the array
     */
    public void write(long[] offset, long[] shape, byte[][] values) {
        write(offset, NdArray.copyOf(dataType(), values, shape));
    }

    /** Writes one whole chunk; {@code chunk} has the chunk's full shape. */
    public void writeChunk(long[] chunkCoords, NdArray chunk) {
        checkWritable("write to");
        Bound b = bound;
        ArrayMetadata m = b.meta();
        checkChunk(m, chunkCoords);
        var spec = m.chunkSpec(chunkCoords);
        if (!Arrays.equals(chunk.shape(), spec.shape()) || chunk.dataType().size() != m.dataType().size()) {
            throw new IllegalArgumentException("chunk " + Arrays.toString(chunkCoords) + " needs shape "
                    + Arrays.toString(spec.shape()) + " of " + m.dataType().name() + ", got " + chunk);
        }
        b.writer().writeChunk(chunkCoords.clone(), chunk);
    }

    /**
     * Changes the shape and rewrites the metadata. Growing exposes fill values where no chunk was
     * stored. Shrinking keeps chunks that now lie wholly outside unless {@code eraseOutside} is set,
     * in which case they are erased (data left in them would reappear after growing again).
     */
    public synchronized void resize(long[] newShape, boolean eraseOutside) {
        checkWritable("resize");
        ArrayMetadata old = meta();
        if (newShape.length != old.rank()) {
            throw new IllegalArgumentException("cannot resize an array of rank " + old.rank() + " to "
                    + Arrays.toString(newShape));
        }
        long[] shape = newShape.clone();
        ArrayMetadata m;
        try {
            m = writeMetadata(old.withShape(shape), current -> current.withShape(shape));
        } finally {
            zarr.chunksChanged(baseStore, NodePath.prefix(path));
        }
        if (eraseOutside) {
            long[] grid = m.chunkGrid().gridShape(newShape);
            String prefix = NodePath.prefix(path);
            List<StoreKey> doomed = new ArrayList<>();
            for (StoreKey k : store.listPrefix(prefix)) {
                Optional<long[]> c = m.keyEncoding().decode(k.value().substring(prefix.length()), m.rank());
                if (c.isPresent() && outside(c.get(), grid)) {
                    doomed.add(k);
                }
            }
            try {
                store.eraseValues(doomed);
            } finally {
                zarr.chunksChanged(baseStore, NodePath.prefix(path));
            }
        }
    }

    /**
     * Changes the array's metadata as stored now (read, changed, written back; conditionally where
     * the store can), so that a change another handle or process made meanwhile is neither lost
     * nor mistaken for this one; writes {@code fallback} when the array's metadata are gone.
     * Brings consolidated metadata above it up to date.
     *
     * @param change the change, applied to the metadata read (it validates before anything is written)
     * @return the metadata written
     */
    private ArrayMetadata writeMetadata(ArrayMetadata fallback, UnaryOperator<ArrayMetadata> change) {
        Zarr.Ancestors ancestors = zarr.ancestors(baseStore, path, format);
        String key = NodePath.prefix(path) + format.documentNames().get(0);
        Optional<StoredNode> written = MetadataIo.rewrite(baseStore, path, format, doc -> {
            ArrayMetadata current = NodeDocuments.parse(doc, key, zarr.resolver()).array();
            if (current == null) {
                throw new dev.zarrj.api.NodeNotFoundException("'" + path() + "' in " + baseStore.describe()
                        + " is no longer an array");
            }
            return change.apply(current).document().deepCopy();
        });
        ArrayMetadata m;
        if (written.isPresent()) {
            m = NodeDocuments.parse(written.get().document(), key, zarr.resolver()).array();
            stored = written.get().documents();
            storesEveryChunk = written.get().translated().storesEveryChunk();
        } else {
            m = fallback;
            stored = MetadataIo.write(baseStore, path, format, m.document(), StoredDocuments.none(NodePath.prefix(path)),
                    false).orElseThrow();
        }
        bound = bind(m);
        zarr.metadataWritten(baseStore, ancestors, path, m.document(), view);
        return m;
    }

    private static boolean outside(long[] coords, long[] grid) {
        for (int d = 0; d < coords.length; d++) {
            if (coords[d] >= grid[d]) {
                return true;
            }
        }
        return false;
    }

    private void checkWritable(String what) {
        stored(); // before the first write: whether chunks of fill value must be stored
        if (meta().hasSkipped() && !zarr.allowWritesWithSkippedExtensions()) {
            throw new ReadOnlyException("cannot " + what + " array '" + path() + "': it was opened read-only because "
                    + "zarrj skipped " + meta().skipped() + " (\"must_understand\": false); writing without them would "
                    + "corrupt the data for readers that understand them. Use Zarr.builder()"
                    + ".allowWritesWithSkippedExtensions(true) to override");
        }
        if (!baseStore.capabilities().writable()) {
            throw new ReadOnlyException("cannot " + what + " array '" + path() + "': " + baseStore.describe()
                    + " is read-only");
        }
    }

    @Override
    public boolean ownsStore() {
        return owner.owns();
    }

    @Override
    public void close() {
        owner.close();
    }

    @Override
    public String toString() {
        return "ZarrArray[" + path() + " " + meta().dataType().name() + " " + Arrays.toString(meta().shape()) + "]";
    }
}
