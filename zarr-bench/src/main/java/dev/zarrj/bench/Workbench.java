package dev.zarrj.bench;

import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * What every workload of one {@code zarr bench} run shares: the scale, the thread count, the
 * folder its arrays go in, the log, and which workloads were asked for ({@code --only}).
 */
record Workbench(Scale scale, int threads, Path dir, Log log, Predicate<String> selected) {}
