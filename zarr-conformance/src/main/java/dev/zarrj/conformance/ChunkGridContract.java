package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.conformance.internal.extension.Extensions;
import dev.zarrj.conformance.internal.extension.Instances;
import dev.zarrj.conformance.internal.rules.Rule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract of a chunk grid (chunk-grids-*.rst): its arithmetic, per dimension, over the array
 * shapes it is given — every coordinate in exactly one chunk, chunks that tile each dimension
 * without gaps or overlaps, edge chunks, zero-length and 0-d arrays — and its metadata form.
 *
 * <p>A grid's own test extends this class and hands it the provider; grids are created from
 * {@link #configurations()} (by default the provider's example configurations) and checked
 * against {@link #arrayShapes(ChunkGrid)} (by default shapes of the grid's rank with zero-length,
 * length-1, short and long dimensions). Grids whose spec gives worked examples list them in
 * {@link #specExamples()}:
 *
 * <pre>{@code
 * class RectilinearChunkGridConformanceTest extends ChunkGridContract {
 *     @Override protected ChunkGridProvider provider() { return new RectilinearChunkGridProvider(); }
 * }
 * }</pre>
 *
 * <p>Every rule is one test named {@code required_G<NN>_...}; a failure message starts with the
 * rule id. Rules are listed in {@code rules/stores-and-metadata.md}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class ChunkGridContract {
    private static final String SPEC = " (spec: core.rst 'chunk_grid', chunk-grids-regular-grid.rst)";

    /** Coordinates checked one by one per dimension; longer dimensions are checked at chunk edges. */
    private static final long SCAN_LIMIT = 20_000;

    private final Instances<ChunkGrid> grids =
            new Instances<>(getClass(), "chunk grid", this::provider, this::configurations, ChunkGrid::toJson);

    /** The provider under test. */
    protected abstract ChunkGridProvider provider();

    /** The configurations to create grids from: by default the provider's example configurations. */
    protected List<ExtensionConfig> configurations() {
        return Extensions.defaultConfigurations(provider(), "/chunk_grid");
    }

    /**
     * Array shapes of the grid's rank to check it against. By default: every length 0, every length
     * 1, every length 7, every length 1000, mixed lengths, and the one shape of a 0-d grid.
     */
    protected List<long[]> arrayShapes(ChunkGrid grid) {
        int r = grid.rank();
        if (r == 0) {
            return List.of(new long[0]);
        }
        List<long[]> out = new ArrayList<>();
        for (long len : new long[] {0, 1, 7, 1000}) {
            long[] s = new long[r];
            Arrays.fill(s, len);
            out.add(s);
        }
        long[] lengths = {1, 0, 64, 1001, 3, 100_000};
        long[] mixed = new long[r];
        for (int d = 0; d < r; d++) {
            mixed[d] = lengths[d % lengths.length];
        }
        out.add(mixed);
        return out;
    }

    /**
     * A worked example from a grid's spec: for this configuration and array shape, the grid shape,
     * and the chunk holding one array coordinate with the coordinate's position inside it.
     *
     * @param configuration the grid's configuration
     * @param arrayShape    the array shape
     * @param gridShape     the expected grid shape
     * @param coordinate    an array coordinate
     * @param chunk         the expected grid index of the chunk holding it
     * @param inChunk       the expected position of the coordinate within that chunk
     */
    public record GridExample(ObjectNode configuration, long[] arrayShape, long[] gridShape, long[] coordinate,
                              long[] chunk, long[] inChunk) {}

    /** Worked examples from the grid's spec; none by default. */
    protected List<GridExample> specExamples() {
        return List.of();
    }

    // ---- running the rules ----

    /** The shapes to check, each validated first. */
    private List<long[]> shapes(ChunkGrid g) {
        List<long[]> out = arrayShapes(g);
        for (long[] s : out) {
            try {
                g.validate(s);
            } catch (InvalidMetadataException e) {
                throw Rule.fail("validate(" + Arrays.toString(s) + ") rejected a shape of the grid's rank: " + e.getMessage());
            }
        }
        return out;
    }

    /** The coordinates of dimension {@code d} to check: all of them, or those next to chunk edges. */
    private static long[] coordinates(ChunkGrid g, int d, long length) {
        if (length <= SCAN_LIMIT) {
            long[] all = new long[(int) length];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            return all;
        }
        List<Long> edges = new ArrayList<>();
        long n = g.gridLength(d, length);
        for (long i = 0; i < n && edges.size() < 4 * SCAN_LIMIT; i++) {
            long start = g.chunkStart(d, i);
            long end = start + g.chunkLength(d, i);
            for (long x : new long[] {start - 1, start, start + 1, end - 2, end - 1, end}) {
                if (x >= 0 && x < length) {
                    edges.add(x);
                }
            }
        }
        return edges.stream().mapToLong(Long::longValue).toArray();
    }

    // ---- rules ----

    /**
     * Every array coordinate lies in exactly one chunk: along each dimension,
     * {@code i = chunkIndex(d, x)} is within {@code [0, gridLength)} and
     * {@code chunkStart(d, i) <= x < chunkStart(d, i) + chunkLength(d, i)}.
     *
     * <p>Spec: core.rst, {@code chunk_grid}; chunk-grids-regular-grid.rst: the element at
     * {@code c} is in chunk {@code c // dz}.
     *
     * <p>If this fails, check: {@code chunkIndex} and {@code chunkStart} derived from different
     * formulas; integer division rounding; overflow in {@code index * chunkLength}.
     */
    @TestFactory
    @DisplayName("G01 every array coordinate lies in exactly one chunk" + SPEC)
    public Stream<DynamicTest> required_G01_everyCoordinateInExactlyOneChunk() {
        return grids.each("G01", "every array coordinate lies in exactly one chunk", g -> {
            for (long[] shape : shapes(g)) {
                for (int d = 0; d < shape.length; d++) {
                    long n = g.gridLength(d, shape[d]);
                    for (long x : coordinates(g, d, shape[d])) {
                        long i = g.chunkIndex(d, x);
                        long start = g.chunkStart(d, i);
                        long len = g.chunkLength(d, i);
                        if (i < 0 || i >= n || x < start || x >= start + len) {
                            throw Rule.fail("array shape " + Arrays.toString(shape) + ", dimension " + d + ": coordinate "
                                    + x + " has chunkIndex " + i + " (of " + n + "), but that chunk covers [" + start + ", "
                                    + (start + len) + ")");
                        }
                    }
                }
            }
        });
    }

    /**
     * Chunks tile each dimension: chunk 0 starts at 0, each next chunk starts where the previous
     * ends, every chunk is at least 1 long, and the last chunk holds the last coordinate (it may
     * overhang the array's end; no chunk lies wholly past it). A zero-length dimension has no
     * chunks.
     *
     * <p>Spec: chunk-grids-regular-grid.rst ("the grid will overhang the edge of the array"; grid
     * shape {@code ceil(len / chunk)}); core.rst, {@code chunk_grid}.
     *
     * <p>If this fails, check: {@code gridLength} rounding (ceiling, not floor or floor + 1);
     * {@code chunkStart} spacing that differs from {@code chunkLength}.
     */
    @TestFactory
    @DisplayName("G02 chunks tile each dimension without gaps or overlaps" + SPEC)
    public Stream<DynamicTest> required_G02_chunksTileEachDimension() {
        return grids.each("G02", "chunks tile each dimension without gaps or overlaps", g -> {
            for (long[] shape : shapes(g)) {
                for (int d = 0; d < shape.length; d++) {
                    String where = "array shape " + Arrays.toString(shape) + ", dimension " + d;
                    long n = g.gridLength(d, shape[d]);
                    if (shape[d] == 0) {
                        if (n != 0) {
                            throw Rule.fail(where + ": a zero-length dimension has gridLength " + n + ", not 0");
                        }
                        continue;
                    }
                    if (n < 1) {
                        throw Rule.fail(where + ": gridLength is " + n);
                    }
                    long expectedStart = 0;
                    for (long i = 0; i < Math.min(n, 4 * SCAN_LIMIT); i++) {
                        long start = g.chunkStart(d, i);
                        long len = g.chunkLength(d, i);
                        if (start != expectedStart) {
                            throw Rule.fail(where + ": chunk " + i + " starts at " + start + ", but the chunks before it end at "
                                    + expectedStart + (start > expectedStart ? " (a gap)" : " (an overlap)"));
                        }
                        if (len < 1) {
                            throw Rule.fail(where + ": chunk " + i + " has length " + len);
                        }
                        expectedStart = start + len;
                    }
                    long lastStart = g.chunkStart(d, n - 1);
                    long lastEnd = lastStart + g.chunkLength(d, n - 1);
                    if (lastStart >= shape[d] || lastEnd < shape[d]) {
                        throw Rule.fail(where + ": the last of " + n + " chunks covers [" + lastStart + ", " + lastEnd
                                + "), which must hold the last coordinate " + (shape[d] - 1));
                    }
                }
            }
        });
    }

    /**
     * The whole-array helpers agree with the per-dimension answers: {@code gridShape} is each
     * dimension's {@code gridLength}, {@code chunkShape} each {@code chunkLength}, and
     * {@code chunkOrigin} each {@code chunkStart}, for the first, a middle and the last chunk.
     *
     * <p>Spec: core.rst, {@code chunk_grid}; chunk-grids-regular-grid.rst (grid shape).
     *
     * <p>If this fails, check: an override of a default method in {@link ChunkGrid} that
     * disagrees with the per-dimension methods.
     */
    @TestFactory
    @DisplayName("G03 grid shape, chunk shape and origin agree per dimension" + SPEC)
    public Stream<DynamicTest> required_G03_gridShapeMatches() {
        return grids.each("G03", "grid shape, chunk shape and origin agree per dimension", g -> {
            for (long[] shape : shapes(g)) {
                long[] gs = g.gridShape(shape);
                long[] expected = new long[shape.length];
                for (int d = 0; d < shape.length; d++) {
                    expected[d] = g.gridLength(d, shape[d]);
                }
                if (!Arrays.equals(expected, gs)) {
                    throw Rule.fail("gridShape(" + Arrays.toString(shape) + ") is " + Arrays.toString(gs) + ", but the"
                            + " dimensions' gridLength are " + Arrays.toString(expected));
                }
                if (Arrays.stream(gs).anyMatch(x -> x == 0)) {
                    continue;
                }
                for (int which = 0; which < 3; which++) {
                    long[] c = new long[shape.length];
                    for (int d = 0; d < c.length; d++) {
                        c[d] = which == 0 ? 0 : which == 1 ? gs[d] / 2 : gs[d] - 1;
                    }
                    long[] cs = g.chunkShape(c);
                    long[] co = g.chunkOrigin(c);
                    for (int d = 0; d < c.length; d++) {
                        if (cs[d] != g.chunkLength(d, c[d]) || co[d] != g.chunkStart(d, c[d])) {
                            throw Rule.fail("chunk " + Arrays.toString(c) + " of array shape " + Arrays.toString(shape)
                                    + ": chunkShape " + Arrays.toString(cs) + " and chunkOrigin " + Arrays.toString(co)
                                    + " disagree with chunkLength/chunkStart of dimension " + d);
                        }
                    }
                }
            }
        });
    }

    /**
     * 0-d and zero-length arrays: a grid of rank 0 accepts the shape {@code []} and has one chunk
     * (grid shape {@code []}, chunk shape {@code []}, origin {@code []}); along any dimension a
     * length of 0 gives no chunks (so an array with a zero-length dimension has no chunks).
     *
     * <p>Spec: core.rst ("shape" may be empty for a 0-d array; chunk key encodings give the 0-d
     * chunk a key); chunk-grids-regular-grid.rst (grid shape {@code ceil(0 / dz) = 0}).
     *
     * <p>If this fails, check: an empty {@code chunk_shape} rejected; {@code gridLength(d, 0)}
     * returning 1.
     */
    @TestFactory
    @DisplayName("G04 0-d arrays have one chunk; zero-length dimensions have none" + SPEC)
    public Stream<DynamicTest> required_G04_zeroDimensionalAndZeroLength() {
        return grids.each("G04", "0-d arrays have one chunk; zero-length dimensions have none", g -> {
            if (g.rank() == 0) {
                g.validate(new long[0]);
                if (g.gridShape(new long[0]).length != 0 || g.chunkShape(new long[0]).length != 0
                        || g.chunkOrigin(new long[0]).length != 0) {
                    throw Rule.fail("a 0-d grid's gridShape, chunkShape and chunkOrigin of [] must be []");
                }
                return;
            }
            long[] zeros = new long[g.rank()];
            g.validate(zeros);
            for (int d = 0; d < g.rank(); d++) {
                if (g.gridLength(d, 0) != 0) {
                    throw Rule.fail("gridLength(" + d + ", 0) is " + g.gridLength(d, 0) + ", not 0");
                }
            }
        });
    }

    /**
     * {@code validate} refuses an array shape whose rank differs from the grid's (one more, one
     * fewer) with an {@link InvalidMetadataException}, and accepts shapes of its rank.
     *
     * <p>Spec: core.rst, {@code chunk_grid} (the grid has the array's dimensionality);
     * chunk-grids-regular-grid.rst ("the dimensionality of the grid is the same as the
     * dimensionality of the array").
     *
     * <p>If this fails, check: {@code validate} left empty; an {@code ArrayIndexOutOfBoundsException}
     * instead of a metadata error.
     */
    @TestFactory
    @DisplayName("G05 a shape of another rank is rejected with InvalidMetadataException" + SPEC)
    public Stream<DynamicTest> required_G05_rankMismatchIsRejected() {
        return grids.each("G05", "a shape of another rank is rejected with InvalidMetadataException", g -> {
            int r = g.rank();
            List<long[]> wrong = new ArrayList<>();
            wrong.add(filled(r + 1, 10));
            if (r > 0) {
                wrong.add(filled(r - 1, 10));
            }
            for (long[] s : wrong) {
                try {
                    g.validate(s);
                } catch (InvalidMetadataException e) {
                    continue;
                } catch (RuntimeException e) {
                    throw Rule.fail("validate(" + Arrays.toString(s) + ") for a grid of rank " + r + " threw " + e
                            + "; expected an InvalidMetadataException");
                }
                throw Rule.fail("validate(" + Arrays.toString(s) + ") accepted a shape of rank " + s.length
                        + " for a grid of rank " + r);
            }
            g.validate(filled(r, 10));
        });
    }

    private static long[] filled(int n, long v) {
        long[] a = new long[n];
        Arrays.fill(a, v);
        return a;
    }

    /**
     * The grid's spec examples hold: for each, the grid shape, and the chunk holding a coordinate
     * with the coordinate's position inside it ({@code coordinate - chunkOrigin}).
     *
     * <p>Spec: the grid's own document (for {@code regular}: shape (10, 200, 3000), chunks
     * (5, 20, 400), grid (2, 10, 8); element (7, 150, 900) in chunk (1, 7, 2) at (2, 10, 100)).
     *
     * <p>If this fails, check: the formulas against the worked example in the spec.
     */
    @TestFactory
    @DisplayName("G06 the grid's spec examples hold" + SPEC)
    public Stream<DynamicTest> required_G06_specExamplesHold() {
        return specExamples().stream().map(e -> DynamicTest.dynamicTest("G06 " + e.configuration() + " shape "
                + Arrays.toString(e.arrayShape()), () -> Rule.check("G06", "the grid's spec examples hold",
                provider().name() + " " + e.configuration(), () -> {
                    ChunkGrid g = provider().create(ExtensionConfig.of(provider().name(), e.configuration(),
                            "/chunk_grid/configuration"), Extensions.NO_CODECS);
                    g.validate(e.arrayShape());
                    long[] gs = g.gridShape(e.arrayShape());
                    if (!Arrays.equals(gs, e.gridShape())) {
                        throw Rule.fail("grid shape " + Arrays.toString(gs) + ", the spec says " + Arrays.toString(e.gridShape()));
                    }
                    long[] chunk = new long[e.coordinate().length];
                    for (int d = 0; d < chunk.length; d++) {
                        chunk[d] = g.chunkIndex(d, e.coordinate()[d]);
                    }
                    long[] origin = g.chunkOrigin(chunk);
                    long[] in = new long[chunk.length];
                    for (int d = 0; d < in.length; d++) {
                        in[d] = e.coordinate()[d] - origin[d];
                    }
                    if (!Arrays.equals(chunk, e.chunk()) || !Arrays.equals(in, e.inChunk())) {
                        throw Rule.fail("coordinate " + Arrays.toString(e.coordinate()) + " is in chunk "
                                + Arrays.toString(chunk) + " at " + Arrays.toString(in) + "; the spec says chunk "
                                + Arrays.toString(e.chunk()) + " at " + Arrays.toString(e.inChunk()));
                    }
                })));
    }

    /**
     * The grid's metadata form ({@code {"name": ..., "configuration": ...}}) creates, through the
     * provider, an equal grid that writes the same metadata.
     *
     * <p>Spec: core.rst, {@code chunk_grid} (an extension point: name and configuration).
     *
     * <p>If this fails, check: {@code equals}/{@code hashCode}; numbers written as another JSON
     * type than they are read as (a parser gives {@code int} for small integers).
     */
    @TestFactory
    @DisplayName("G07 the chunk_grid metadata round trips through the provider" + SPEC)
    public Stream<DynamicTest> required_G07_metadataRoundTrips() {
        return grids.each("G07", "the chunk_grid metadata round trips through the provider",
                g -> Extensions.roundTrip(provider(), g, "/chunk_grid"));
    }

    /**
     * The provider rejects a configuration with a field it does not know, with an
     * {@link InvalidMetadataException} that names the field.
     *
     * <p>Spec: core.rst, "Extension definition" (chunk grids must be understood; a broken
     * configuration is never skipped).
     *
     * <p>If this fails, check: {@link ExtensionConfig#rejectUnknownFields} called in
     * {@code create}.
     */
    @Test
    @DisplayName("G08 an unknown configuration field is rejected" + SPEC)
    public void required_G08_unknownConfigurationFieldIsRejected() {
        Rule.check("G08", "an unknown configuration field is rejected", provider().name(),
                () -> Extensions.rejectsUnknownFields(provider(), configurations()));
    }
}
