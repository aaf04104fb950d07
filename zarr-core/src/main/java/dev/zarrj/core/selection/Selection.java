package dev.zarrj.core.selection;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.InsufficientMemoryException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.grid.ChunkGrid;
import java.util.Arrays;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Which elements of an array a read or write takes, and the shape of the result.
 *
 * <ul>
 *   <li>{@link #of(DimSelection...) Orthogonal}: one {@link DimSelection} per dimension, combined as
 *       an outer product (zarr-python's {@code oindex}, NumPy's basic indexing when only indices and
 *       slices are used): {@code Selection.of(Slice.step(2), IndexList.of(3, 7, 9), Mask.of(m))} is
 *       {@code a[::2, [3, 7, 9], m]} taken dimension by dimension. Dimensions not given are whole.
 *       The result has one dimension per kept dimension ({@link Index} drops its own).</li>
 *   <li>{@link #points(long[][]) Points}: n coordinates given as one index array per dimension
 *       (zarr-python's {@code vindex}); the result is 1-D of length n, in the given order.
 *       {@link #points(NdArray)} takes the coordinates where a boolean array is true.</li>
 *   <li>{@link #blocks(DimSelection...) Blocks}: whole chunks by chunk index ({@link Index} or
 *       {@link Slice} with step 1 per dimension; zarr-python's {@code blocks}); the result is the
 *       region they cover, every dimension kept.</li>
 * </ul>
 *
 * <p>Immutable and independent of any array: {@link #resolve} checks it against an array's shape
 * and grid.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Selection {
    /** The three ways a selection is made. */
    public enum Kind {
        /** One selection per dimension, as an outer product. */
        ORTHOGONAL,
        /** A list of coordinates. */
        POINTS,
        /** Whole chunks by chunk index. */
        BLOCKS
    }

    /** The most elements one selection takes: what one {@link NdArray} can hold. */
    private static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;

    private static final Selection ALL = new Selection(Kind.ORTHOGONAL, List.of(), null, null);

    private final Kind kind;
    private final List<DimSelection> dims;
    private final long[][] points;
    private final NdArray pointMask;

    private Selection(Kind kind, List<DimSelection> dims, long[][] points, NdArray pointMask) {
        this.kind = kind;
        this.dims = dims;
        this.points = points;
        this.pointMask = pointMask;
    }

    /** The whole array. */
    public static Selection all() {
        return ALL;
    }

    /**
     * An orthogonal selection: {@code dims[d]} for dimension d, the whole of every dimension after
     * the last given.
     */
    public static Selection of(DimSelection... dims) {
        return new Selection(Kind.ORTHOGONAL, List.of(dims), null, null);
    }

    /**
     * The points whose coordinates are {@code (coordinates[0][k], coordinates[1][k], ...)} for each
     * k, one array per dimension, all of one length; negative coordinates count from the end.
     *
     * @throws IllegalArgumentException when the arrays differ in length
     */
    public static Selection points(long[]... coordinates) {
        long[][] c = new long[coordinates.length][];
        for (int d = 0; d < c.length; d++) {
            c[d] = coordinates[d].clone();
            if (c[d].length != c[0].length) {
                throw new IllegalArgumentException("point coordinates of different lengths: dimension 0 has "
                        + c[0].length + ", dimension " + d + " has " + c[d].length);
            }
        }
        return new Selection(Kind.POINTS, List.of(), c, null);
    }

    /**
     * The points where {@code mask}, a {@code bool} array of the array's shape, is true, in C order
     * (the last dimension varying fastest).
     */
    public static Selection points(NdArray mask) {
        if (!"bool".equals(mask.dataType().name())) {
            throw new IllegalArgumentException("a point mask of data type " + mask.dataType().name() + ", not bool");
        }
        return new Selection(Kind.POINTS, List.of(), null, mask);
    }

    /**
     * The chunks at these chunk indices, an {@link Index} or a {@link Slice} with step 1 per
     * dimension of the chunk grid; dimensions not given are whole.
     */
    public static Selection blocks(DimSelection... chunkDims) {
        for (int d = 0; d < chunkDims.length; d++) {
            DimSelection s = chunkDims[d];
            if (!(s instanceof Index) && !(s instanceof Slice sl && sl.stepSize() == 1)) {
                throw new IllegalArgumentException("block selection in dimension " + d + ": " + s
                        + "; only an index or a slice with step 1 selects chunks");
            }
        }
        return new Selection(Kind.BLOCKS, List.of(chunkDims), null, null);
    }

    /** How this selection is made. */
    public Kind kind() {
        return kind;
    }

    /**
     * This selection for an array of this shape and chunk grid: the indices it takes per dimension
     * or the points, and the result's shape.
     *
     * @throws IllegalArgumentException naming the dimension and value when it does not fit the array,
     *                                  or when it takes more elements than one array can hold (2^31)
     * @throws InsufficientMemoryException when the heap cannot hold the indices it takes
     */
    public Resolved resolve(long[] arrayShape, ChunkGrid grid) {
        int rank = arrayShape.length;
        if (kind == Kind.POINTS) {
            long[][] c = pointMask != null ? maskPoints(pointMask, arrayShape) : points;
            if (c.length != rank) {
                throw new IllegalArgumentException("point coordinates for " + c.length + " dimensions of an array of rank " + rank);
            }
            long[][] out = new long[rank][];
            for (int d = 0; d < rank; d++) {
                out[d] = new long[c[d].length];
                for (int k = 0; k < out[d].length; k++) {
                    try {
                        out[d][k] = IndexList.normalize(c[d][k], arrayShape[d]);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("point " + k + " in dimension " + d + ": " + e.getMessage(), e);
                    }
                }
            }
            // A 0-d array has one point, taken when its mask is true (or, given as no coordinate arrays, always).
            long n = rank > 0 ? out[0].length : pointMask != null && !pointMask.getBoolean(0) ? 0 : 1;
            return new Resolved(Kind.POINTS, out, null, new long[] {n});
        }
        if (dims.size() > rank) {
            throw new IllegalArgumentException("a selection of " + dims.size() + " dimensions of an array of rank " + rank);
        }
        long[][] indices = new long[rank][];
        boolean[] kept = new boolean[rank];
        // A slice's indices are worked out only once the selection's size is known to fit.
        Slice[] slices = new Slice[rank];
        long[] counts = new long[rank];
        int resultRank = 0;
        for (int dim = 0; dim < rank; dim++) {
            final int d = dim;
            DimSelection s = d < dims.size() ? dims.get(d) : Slice.all();
            if (kind == Kind.BLOCKS) {
                long[] chunks = inDimension(d, () -> s.indices(grid.gridLength(d, arrayShape[d])));
                long start = chunks.length == 0 ? 0 : grid.chunkStart(d, chunks[0]);
                long end = chunks.length == 0 ? 0
                        : Math.min(arrayShape[d], grid.chunkStart(d, chunks[chunks.length - 1])
                                + grid.chunkLength(d, chunks[chunks.length - 1]));
                slices[d] = Slice.of(start, end);
                kept[d] = true;
            } else if (s instanceof Slice sl) {
                slices[d] = sl;
                kept[d] = true;
            } else {
                indices[d] = inDimension(d, () -> s.indices(arrayShape[d]));
                kept[d] = s.keepsDimension();
            }
            counts[d] = slices[d] != null ? slices[d].count(arrayShape[d]) : indices[d].length;
            resultRank += kept[d] ? 1 : 0;
        }
        long total = 1;
        for (long c : counts) {
            total = c == 0 || total == 0 ? 0 : total > Long.MAX_VALUE / c ? Long.MAX_VALUE : total * c;
        }
        if (total > MAX_ELEMENTS) {
            throw new IllegalArgumentException("the selection " + this + " takes " + Arrays.toString(counts)
                    + " indices per dimension of an array of shape " + Arrays.toString(arrayShape) + ", "
                    + (total == Long.MAX_VALUE ? "2^63 or more" : String.valueOf(total))
                    + " elements, more than one Java array can hold (2^31); select it in parts");
        }
        for (int dim = 0; dim < rank; dim++) {
            final int d = dim;
            if (slices[d] != null) {
                try {
                    indices[d] = inDimension(d, () -> slices[d].indices(arrayShape[d]));
                } catch (OutOfMemoryError e) {
                    throw new InsufficientMemoryException("the " + counts[d] + " indices the selection " + this
                            + " takes in dimension " + d, counts[d] * Long.BYTES, e);
                }
            }
        }
        long[] shape = new long[resultRank];
        for (int d = 0, r = 0; d < rank; d++) {
            if (kept[d]) {
                shape[r++] = indices[d].length;
            }
        }
        return new Resolved(Kind.ORTHOGONAL, indices, kept, shape);
    }

    private static long[][] maskPoints(NdArray mask, long[] arrayShape) {
        if (!Arrays.equals(mask.shape(), arrayShape)) {
            throw new IllegalArgumentException("a point mask of shape " + Arrays.toString(mask.shape())
                    + " for an array of shape " + Arrays.toString(arrayShape));
        }
        int rank = arrayShape.length;
        long n = 0;
        long count = mask.elementCount();
        for (long i = 0; i < count; i++) {
            n += mask.getBoolean(i) ? 1 : 0;
        }
        long[][] c = new long[rank][(int) n];
        long[] index = new long[rank];
        for (long i = 0, k = 0; i < count; i++) {
            if (mask.getBoolean(i)) {
                for (int d = 0; d < rank; d++) {
                    c[d][(int) k] = index[d];
                }
                k++;
            }
            for (int d = rank - 1; d >= 0 && ++index[d] == arrayShape[d]; d--) {
                index[d] = 0;
            }
        }
        return c;
    }

    private interface Resolution<T> {
        T get();
    }

    private static <T> T inDimension(int d, Resolution<T> r) {
        try {
            return r.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("selection in dimension " + d + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Selection s && kind == s.kind && dims.equals(s.dims) && Arrays.deepEquals(points, s.points)
                && (pointMask == null ? s.pointMask == null : s.pointMask != null && pointMask.contentEquals(s.pointMask));
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + dims.hashCode() * 7 + Arrays.deepHashCode(points);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case ORTHOGONAL -> dims.toString();
            case BLOCKS -> "blocks" + dims;
            case POINTS -> pointMask != null ? "points(mask " + Arrays.toString(pointMask.shape()) + ")"
                    : "points" + Arrays.stream(points).map(IndexList::abbreviated).toList();
        };
    }

    /**
     * A selection checked against one array: the array indices it takes and the result's shape.
     * Blocks resolve to the orthogonal selection of the region they cover.
     */
    public static final class Resolved {
        private final Kind kind;
        private final long[][] indices;
        private final boolean[] kept;
        private final long[] shape;

        private Resolved(Kind kind, long[][] indices, boolean[] kept, long[] shape) {
            this.kind = kind;
            this.indices = indices;
            this.kept = kept;
            this.shape = shape;
        }

        /** {@link Kind#POINTS} or {@link Kind#ORTHOGONAL}. */
        public Kind kind() {
            return kind;
        }

        /**
         * Orthogonal: the array indices taken in dimension d, in result order. Points: every
         * point's coordinate in dimension d.
         */
        public long[] indices(int d) {
            return indices[d].clone();
        }

        /** Orthogonal: whether the result keeps dimension d. */
        public boolean keepsDimension(int d) {
            return kind != Kind.ORTHOGONAL || kept[d];
        }

        /** The result's shape. */
        public long[] shape() {
            return shape.clone();
        }

        /** The number of elements selected (points counted once per occurrence). */
        public long elementCount() {
            long n = 1;
            for (long s : shape) {
                n *= s;
            }
            return n;
        }
    }
}
