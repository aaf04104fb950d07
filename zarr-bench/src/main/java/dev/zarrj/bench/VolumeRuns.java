package dev.zarrj.bench;

import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Runs the {@link VolumeBench} operations, each in a child JVM, and collects their rows. */
final class VolumeRuns {
    private final Scale scale;
    private final int threads;
    private final Path dir;
    private final boolean keep;
    private final Log log;
    private final Predicate<String> selected;
    final List<Row> rows = new ArrayList<>();
    final List<Failure> failures = new ArrayList<>();

    VolumeRuns(Scale scale, int threads, Path dir, boolean keep, Log log, Predicate<String> selected) {
        this.scale = scale;
        this.threads = threads;
        this.dir = dir;
        this.keep = keep;
        this.log = log;
        this.selected = selected;
    }

    void run() throws Exception {
        List<VolumeBench.Spec> specs = new ArrayList<>();
        for (VolumeBench.Spec s : VolumeBench.uint16(scale)) {
            if (selected.test(s.name())) {
                specs.add(s);
            }
        }
        VolumeBench.Spec stream = VolumeBench.stream(scale);
        boolean streaming = selected.test(stream.name());
        if (specs.isEmpty() && !streaming) {
            return;
        }
        Set<String> installed = ExtensionRegistry.discover().names(ExtensionPoint.CODEC);
        for (VolumeBench.Spec s : new ArrayList<>(specs)) {
            if (!installed.containsAll(VolumeBench.codecs(s))) {
                log.line("%s: skipped: zarrj lacks one of the codecs %s", s.name(), VolumeBench.codecs(s));
                specs.remove(s);
            }
        }
        if (streaming && !installed.containsAll(VolumeBench.codecs(stream))) {
            log.line("%s: skipped: zarrj lacks one of the codecs %s", stream.name(), VolumeBench.codecs(stream));
            streaming = false;
        }
        ChildJvm.Result<List<String>> launcher = ChildJvm.launcher();
        if (launcher.problem() != null) {
            log.line("uint16 and stream workloads skipped: %s", launcher.problem());
            return;
        }
        for (VolumeBench.Spec s : specs) {
            runAll(launcher.value(), s, VolumeBench.ROUND_TRIP, VolumeBench.READ_ALL, VolumeBench.READ_CHUNKS);
        }
        if (streaming) {
            runAll(launcher.value(), stream, VolumeBench.STREAM_WRITE, VolumeBench.STREAM_READ);
        }
    }

    /** The operations in order, the first of which writes the array; the array is deleted after them unless kept. */
    private void runAll(List<String> launcher, VolumeBench.Spec spec, String... ops) throws Exception {
        log.line("%s: shape %s, chunks %s%s, %.0f MB, one child JVM per operation", spec.name(),
                java.util.Arrays.toString(spec.shape()), java.util.Arrays.toString(spec.chunks()),
                spec.inner() == null ? "" : ", inner chunks " + java.util.Arrays.toString(spec.inner()),
                spec.byteSize() / 1e6);
        try {
            for (String op : ops) {
                int heap = VolumeBench.heapMib(spec, op);
                ChildJvm.Outcome o = ChildJvm.run(launcher, spec, op, dir, threads, heap, log);
                if (o.row() == null) {
                    Failure f = new Failure(spec.name(), op, o.error(), o.oom());
                    failures.add(f);
                    log.line("%s (-Xmx%dm) FAILED: %s", f, heap, o.error());
                    if (op.equals(ops[0])) {
                        return;
                    }
                    continue;
                }
                Row r = o.row();
                rows.add(r);
                log.line("%s %s, %d thread(s), -Xmx%dm: %.2f s, %.1f MB/s, peak RSS %s MB, %d store request(s)",
                        r.name, r.op, r.threads, heap, r.seconds, r.mbPerS,
                        r.peakRssMb == null ? "?" : String.format(java.util.Locale.ROOT, "%.0f", r.peakRssMb),
                        r.storeRequests);
            }
        } finally {
            if (!keep) {
                Files2.deleteTree(dir.resolve(spec.name()));
            }
        }
    }
}
