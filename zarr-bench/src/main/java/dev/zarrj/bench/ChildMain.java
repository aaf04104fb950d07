package dev.zarrj.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;

/**
 * The entry point of a child JVM that {@code zarr bench} starts for one operation of one of the
 * {@link VolumeBench} workloads, so that the peak resident set size it reports is that
 * operation's own.
 *
 * <p>Arguments: the workload's {@link VolumeBench.Spec} as JSON, the operation, the work
 * directory, the number of threads; or {@value #REMOTE_READ} and RemoteBench's arguments. Prints one JSON line on standard output: the row, with
 * {@code peak_rss_mb} ({@code VmHWM} from {@code /proc/self/status}) and {@code heap_max_mb};
 * or {@code {"error": ..., "oom": true|false}} and exit status 3 (out of memory) or 1.
 */
public final class ChildMain {
    /** First argument of the remote bounded-memory read: then the location, shape, slab and threads ({@link RemoteBench}). */
    static final String REMOTE_READ = "remote-read";

    private ChildMain() {}

    public static void main(String[] args) {
        ObjectMapper json = new ObjectMapper();
        try {
            Row row;
            if (args[0].equals(REMOTE_READ)) {
                row = RemoteBench.childRead(args[1], RemoteBench.parseLongs(args[2]), RemoteBench.parseLongs(args[3]),
                        Integer.parseInt(args[4]), Integer.parseInt(args[5]));
            } else {
                VolumeBench.Spec spec = VolumeBench.Spec.fromJson(json.readTree(args[0]));
                row = VolumeBench.run(spec, args[1], Path.of(args[2]), Integer.parseInt(args[3]));
            }
            Machine.peakRssMb().ifPresent(mb -> row.peakRssMb = mb);
            row.heapMaxMb = Runtime.getRuntime().maxMemory() / 1e6;
            System.out.println(json.writeValueAsString(row.toJson()));
            System.out.flush();
            System.exit(0);
        } catch (OutOfMemoryError e) {
            fail(e, true);
        } catch (Throwable e) {
            fail(e, false);
        }
    }

    private static void fail(Throwable e, boolean oom) {
        e.printStackTrace();
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("error", e.toString());
        n.put("oom", oom);
        Machine.peakRssMb().ifPresent(mb -> n.put("peak_rss_mb", mb));
        System.out.println(n);
        System.out.flush();
        System.exit(oom ? 3 : 1);
    }
}
