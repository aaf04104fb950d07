package dev.zarrj.spark.internal.write;

import dev.zarrj.spark.internal.ZarrTable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.sources.InsertableRelation;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A write of a table into one Zarr array: each row sets one element (its dimension columns are
 * the indices, its value column the value).
 *
 * <h2>No two tasks write one object</h2>
 *
 * Before writing, the rows are repartitioned by the linear index of the stored object (the shard,
 * or the chunk of an unsharded array) their element falls in,
 * {@code sum_d FLOOR(dim_d / storedChunk_d) * gridStride_d} ({@link #prepare}), and sorted by it
 * within each partition (then by inner chunk, when a shard holds more than {@code regionBytes}
 * and a task buffers its inner chunks one by one). So all rows of one object reach one task, and
 * no object is read, modified and written by two tasks at once: the lost update that concurrent
 * partial writes of one object give (dask#11778) cannot happen. The physical plan shows
 * {@code Exchange hashpartitioning(((FLOOR((cast(y as double) / 32.0)) * 2) + FLOOR(...)), n)}
 * under a {@code Sort} on the same expression; adaptive execution may coalesce these partitions
 * (which keeps each object in one task) but does not split a repartition the query asked for.
 * A task holds one object's (or inner chunk's) elements at a time and writes each once. The job
 * commit checks the tasks' reports and fails if two tasks wrote one object.
 *
 * <p>Why not Spark's {@code RequiresDistributionAndOrdering}: in Spark 4.0 a required
 * distribution is converted to Catalyst by {@code V2ExpressionUtils.toCatalyst(expr, plan,
 * funCatalog)}, which takes only column references, literals, sort values and transforms, and
 * resolves transforms other than {@code identity} only through the table's
 * {@code FunctionCatalog}; a path-based source ({@code save(path)}) has no catalog, and a
 * {@code GeneralScalarExpression} such as {@code FLOOR(y / 32)} fails with "is not currently
 * supported". Clustering by the dimension columns themselves would split every object across
 * tasks. So this is a {@link V1Write}: Spark hands over the DataFrame
 * ({@link InsertableRelation#insert}), this class repartitions it with exactly the expression
 * above and runs the job, with the commit protocol of {@link WriteJob}.
 *
 * <h2>Nothing half-written</h2>
 *
 * Executors write chunks through {@code Zarr.unstoredArray} handles built from the metadata
 * document the driver sends ({@link WritePlan}); they never read or write metadata.
 * <ul>
 *   <li>Creating an array (none at the path, or mode {@code overwrite}): for an overwrite, before
 *       the tasks start the driver erases the existing array, its metadata first (from then on no
 *       reader finds an array there, rather than a half-written one), then its chunks. The tasks
 *       write chunks; when all succeeded the driver stores the metadata with
 *       {@code Zarr.createArray(..., overwrite = false)}, so that the array appears complete or
 *       not at all. If another writer created an array there meanwhile, the commit fails saying
 *       so. A failed job (a task error, a value that does not fit) stores no metadata and, once
 *       its other tasks have stopped, erases the chunks it wrote, so the path is left empty (for
 *       an overwrite the old array is gone too).</li>
 *   <li>Appending into an existing array: the metadata are kept; the tasks write the objects the
 *       rows touch, keeping the elements no row names (an object covered in part is read,
 *       modified and written). A failed append cannot be undone: objects already written stay,
 *       and the array remains valid.</li>
 * </ul>
 *
 * <p>A null value sets the element to the array's fill value (a missing value, as an element
 * never written reads); a null index is an error naming the column. When several rows name one
 * element, one of them is written (which one is not defined). A retried or speculative task
 * attempt writes the same objects again, with the same content when the input is deterministic.
 */
final class ZarrWrite implements V1Write {
    private final WritePlan plan;

    ZarrWrite(WritePlan plan) {
        this.plan = plan;
    }

    @Override
    public String description() {
        return "zarr " + plan.describe();
    }

    @Override
    public InsertableRelation toInsertableRelation() {
        return (data, overwrite) -> run(data);
    }

    private void run(Dataset<Row> data) {
        refuseReadingTheTarget(data);
        WriteJob job = new WriteJob(plan);
        job.prepare();
        List<WrittenObjects> messages;
        SparkContext sc = data.sparkSession().sparkContext();
        String tag = "zarr-write-" + UUID.randomUUID();
        sc.addJobTag(tag);
        try {
            messages = prepare(data, plan).queryExecution().toRdd().toJavaRDD().mapPartitions(new Task(plan)).collect();
        } catch (Throwable e) { // SparkException is checked, but Scala throws it undeclared
            awaitTasks(sc, tag);
            abort(job, List.of(), e);
            throw e;
        } finally {
            sc.removeJobTag(tag);
        }
        try {
            job.commit(messages);
        } catch (Throwable e) {
            abort(job, messages, e);
            throw e;
        }
    }

    /**
     * An overwrite erases the array before its tasks run, and so before they read their input:
     * a table read from the array it overwrites would read nothing. Refused, naming the way out.
     * (An append is safe: the shuffle reads all input before any task writes.)
     */
    private void refuseReadingTheTarget(Dataset<Row> data) {
        if (!plan.erasesExisting) {
            return;
        }
        for (LogicalPlan leaf : CollectionConverters.asJava(data.queryExecution().analyzed().collectLeaves())) {
            Table t = leaf instanceof DataSourceV2Relation r ? r.table()
                    : leaf instanceof DataSourceV2ScanRelation s ? s.relation().table() : null;
            if (t instanceof ZarrTable && reads(t.name())) {
                throw new ZarrWriteException("the written table is read from the array it overwrites, "
                        + plan.describe() + ", which an overwrite erases before its tasks read: write to another "
                        + "array, or localCheckpoint() the table first");
            }
        }
    }

    /** Whether a {@code ZarrTable.name()} ({@code zarr:LOCATION [a, b]}) covers the written array. */
    private boolean reads(String tableName) {
        if (!tableName.startsWith(plan.tableStore + " [") || !tableName.endsWith("]")) {
            return false;
        }
        String list = tableName.substring(plan.tableStore.length() + 2, tableName.length() - 1);
        String target = plan.path.replaceAll("^/+|/+$", "");
        for (String p : list.split(", ", -1)) {
            if (p.replaceAll("^/+|/+$", "").equals(target)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Waits (up to a minute) until no task of the failed job runs: Spark fails a job as soon as
     * one task fails and kills the others without waiting for them, and a task still writing
     * after the abort erased the chunks would leave one behind. Best effort: it relies on Spark's
     * status tracker, which lags its scheduler; tasks also stop before each object they store
     * once killed ({@link ZarrDataWriter}).
     */
    private static void awaitTasks(SparkContext sc, String tag) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            int active = 0;
            for (int job : sc.statusTracker().getJobIdsForTag(tag)) {
                Option<SparkJobInfo> info = sc.statusTracker().getJobInfo(job);
                if (info.isDefined()) {
                    for (int stage : info.get().stageIds()) {
                        Option<SparkStageInfo> s = sc.statusTracker().getStageInfo(stage);
                        active += s.isDefined() ? s.get().numActiveTasks() : 0;
                    }
                }
            }
            if (active == 0) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void abort(WriteJob job, List<WrittenObjects> messages, Throwable cause) {
        try {
            job.abort(messages);
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /** The rows repartitioned and sorted by the stored object their element lies in. */
    static Dataset<Row> prepare(Dataset<Row> data, WritePlan plan) {
        Column index = chunkIndex(data, plan, plan.storedChunk);
        if (plan.buffersInnerChunks()) {
            return data.repartition(index).sortWithinPartitions(index, chunkIndex(data, plan, plan.bufferChunk));
        }
        return data.repartition(index).sortWithinPartitions(index);
    }

    /**
     * The linear (C-order) index of the chunk of this shape (the stored object, or the inner chunk
     * a task buffers) a row's element lies in: a term {@code FLOOR(dim / chunk) * stride} for each
     * dimension with more than one chunk along it (the first dimension's when there is none, so
     * that the expression is never constant).
     */
    static Column chunkIndex(Dataset<Row> data, WritePlan plan, long[] chunk) {
        long[] grid = plan.gridShape(chunk);
        List<Column> terms = new ArrayList<>();
        long stride = 1;
        for (int d = plan.rank() - 1; d >= 0; d--) {
            if (grid[d] > 1 || (d == 0 && terms.isEmpty())) {
                Column term = functions.floor(data.col(quote(plan.dimensionColumns[d])).divide(chunk[d]));
                if (stride != 1) {
                    term = term.multiply(stride);
                }
                terms.add(0, term);
            }
            stride = Math.multiplyExact(stride, Math.max(1, grid[d]));
        }
        Column sum = terms.get(0);
        for (int i = 1; i < terms.size(); i++) {
            sum = sum.plus(terms.get(i));
        }
        return sum;
    }

    /** A column name as one part of a reference ({@code col("a.b")} would be a field of a struct). */
    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** One partition's rows written by a {@link ZarrDataWriter}; gives its report. */
    private static final class Task implements FlatMapFunction<Iterator<InternalRow>, WrittenObjects> {
        private static final long serialVersionUID = 1L;
        private final WritePlan plan;

        Task(WritePlan plan) {
            this.plan = plan;
        }

        @Override
        public Iterator<WrittenObjects> call(Iterator<InternalRow> rows) {
            try (ZarrDataWriter w = new ZarrDataWriter(plan)) {
                try {
                    while (rows.hasNext()) {
                        w.write(rows.next());
                    }
                    return List.of(w.commit()).iterator();
                } catch (RuntimeException | Error e) {
                    w.abort();
                    throw e;
                }
            }
        }
    }

    @Override
    public String toString() {
        return "ZarrWrite[" + plan + "]";
    }
}
