package dev.zarrj.cli;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code zarr} command. See {@code zarr --help} and README.md.
 *
 * <p>Exit status: 0 on success, 1 when a check fails ({@code verify}, {@code --array_path}),
 * 2 for a user error (bad URI, missing node, bad region, unknown codec), which is printed as one
 * line (with the stack trace under {@code --debug}).
 */
@Command(name = "zarr", mixinStandardHelpOptions = true, version = "zarrj 0.1.0",
        description = "Inspect, create, write, copy and verify Zarr v3 stores; measure zarrj.",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr demo /tmp/demo.zarr",
                "  zarr ls /tmp/demo.zarr/weather",
                "  zarr conformance --plugin-path plugins/"})
public final class ZarrCli implements Callable<Integer> {
    /**
     * The commands, in the order help lists them. They are added to the command line when it is
     * built ({@link #commandLine}) rather than declared on this class, so that a run builds only
     * the command it runs: picocli's model of every command costs a short command a third of its
     * start-up.
     */
    private static final List<Class<?>> COMMANDS = List.of(InfoCommand.class, LsCommand.class, CatCommand.class,
            CreateCommand.class, WriteCommand.class, CopyCommand.class, ConsolidateCommand.class, VerifyCommand.class,
            PluginsCommand.class, DemoCommand.class, ConformanceCommand.class, BenchCommand.class,
            CompletionCommand.class);

    /** The global options that take a value, whose value is never a command's name. */
    private static final List<String> OPTIONS_WITH_VALUE = List.of("--plugin-path", "--array_path");

    @Option(names = "--plugin-path", scope = ScopeType.INHERIT, paramLabel = "DIR",
            description = "Directory of plugin jars to load into their own module layer (default: $ZARR_PLUGIN_PATH).")
    Path pluginPath;

    @Option(names = "--no-consolidated", scope = ScopeType.INHERIT, description = "Read every node from its own zarr.json, ignoring consolidated "
            + "metadata (for stores that may have changed since they were consolidated).")
    boolean noConsolidated;

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "Print stack traces of errors.")
    boolean debug;

    @Option(names = "--array_path", paramLabel = "PATH",
            description = "Read the whole array stored at PATH and exit 0, or print why not and exit 1 "
                    + "(the adapter of the zarr-conformance-tests harness).")
    Path arrayPath;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private Zarr zarr;
    private OutputStream rawOut = System.out;
    /** {@code ZARR_PROGRESS}, and whether this run's standard error is the process's. */
    private String progressSetting;
    private boolean stderrIsProcess;

    /**
     * A progress bar on standard error for {@code total} units of work ({@code -1}: unknown), drawn
     * as {@code ZARR_PROGRESS} says (default: only on a terminal, after a second); close it when done.
     */
    Progress progress(String label, long total, String unit) {
        return progress(label, total, unit, false);
    }

    /** A progress bar that also redraws on a timer, for work that reports few steps (or none). */
    Progress progress(String label, long total, String unit, boolean tick) {
        Progress.Mode mode = Progress.Mode.parse(progressSetting);
        boolean on = mode == Progress.Mode.ALWAYS
                || mode == Progress.Mode.AUTO && stderrIsProcess && Progress.stderrIsTerminal();
        long delay = mode == Progress.Mode.ALWAYS ? 0 : Progress.DELAY_NANOS;
        return new Progress(err(), label, total, unit, on, delay, System::nanoTime, tick);
    }

    /** The Zarr instance, with plugins from {@code --plugin-path} when given. */
    Zarr zarr() {
        if (zarr == null) {
            Path dir = pluginPath;
            if (dir == null && System.getenv("ZARR_PLUGIN_PATH") != null && !System.getenv("ZARR_PLUGIN_PATH").isBlank()) {
                dir = Path.of(System.getenv("ZARR_PLUGIN_PATH"));
            }
            if (dir == null && !noConsolidated) {
                zarr = Zarr.defaults();
            } else {
                Zarr.Builder b = Zarr.builder().useConsolidatedMetadata(!noConsolidated);
                zarr = (dir == null ? b : b.registry(pluginRegistry(dir))).build();
            }
        }
        return zarr;
    }

    /** Loads every jar of a directory into a module layer above this one. */
    static ExtensionRegistry pluginRegistry(Path dir) {
        try {
            return ExtensionRegistry.discoverPlugins(dir);
        } catch (IllegalArgumentException | java.lang.module.FindException | java.lang.module.ResolutionException e) {
            throw new UserError("--plugin-path " + dir + ": " + e.getMessage(), e);
        }
    }

    private final List<Store> opened = new ArrayList<>();

    /** Opens a store named by a URI or path; it is closed (and, for a zip, finished) when the command ends. */
    Store openStore(String location, boolean readOnly) {
        Store s = zarr().openStore(location, readOnly);
        opened.add(s);
        return s;
    }

    /**
     * Closes a store this command opened, at once: for a zip archive this is when it is written.
     * A command that reports what it wrote closes the store first, so that it never says so
     * before the result is durable.
     *
     * @throws dev.zarrj.api.StoreException when closing fails, and then nothing may be reported
     */
    void closeStore(Store s) {
        opened.remove(s);
        s.close();
    }

    /** Closes every store a command opened, in reverse order. */
    private void closeStores() {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
    }

    /** Standard output as bytes, for raw data. */
    OutputStream rawOut() {
        out().flush();
        return rawOut;
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    @Override
    public Integer call() {
        if (arrayPath == null) {
            spec.commandLine().usage(out());
            return 0;
        }
        Store store = openStore(arrayPath.toString(), true);
        ZarrArray array = zarr().openArray(store, "/");
        long[] grid = array.chunkGridShape();
        // Read chunk by chunk so that arrays larger than one buffer can be checked.
        long count = 1;
        for (long g : grid) {
            count *= g;
        }
        long[] coords = new long[grid.length];
        long elements = 0;
        for (long i = 0; i < count; i++) {
            NdArray chunk = array.readChunk(coords);
            elements += chunk.elementCount();
            for (int d = coords.length - 1; d >= 0; d--) {
                if (++coords[d] < grid[d]) {
                    break;
                }
                coords[d] = 0;
            }
        }
        out().println("read " + array + ": " + count + " chunk(s), " + elements + " element(s)");
        return 0;
    }

    /**
     * The message on one line: line breaks and other control characters (from keys, entry and
     * file names a damaged or hostile store holds) escaped as in a Java string literal.
     */
    static String oneLine(String message) {
        StringBuilder b = new StringBuilder(message.length());
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\0' -> b.append("\\0");
                case '\t' -> b.append(' ');
                default -> b.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.toString();
    }

    /** Runs the command line with these output streams and returns the exit status. */
    public static int run(String[] args, OutputStream stdout, OutputStream stderr) {
        return run(args, stdout, stderr, System.getenv("ZARR_PROGRESS"));
    }

    /** Runs the command line with progress bars as {@code progress} says (a {@code ZARR_PROGRESS} value). */
    static int run(String[] args, OutputStream stdout, OutputStream stderr, String progress) {
        ZarrCli cli = new ZarrCli();
        cli.rawOut = stdout;
        cli.progressSetting = progress;
        cli.stderrIsProcess = stderr == System.err;
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(stderr, StandardCharsets.UTF_8), true);
        CommandLine cl = commandLine(cli, commandName(args));
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            ZarrCli root = line.getCommandSpec().root().commandLine().getCommand();
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            line.getErr().println("zarr: " + oneLine(message));
            if (root.debug) {
                e.printStackTrace(line.getErr());
            }
            line.getErr().flush();
            return e instanceof CheckFailed ? 1 : (root.arrayPath != null && e instanceof ZarrException ? 1 : 2);
        });
        cl.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println("zarr: " + oneLine(String.valueOf(e.getMessage())));
            e.getCommandLine().getErr().println("Try 'zarr " + (e.getCommandLine().getCommandName().equals("zarr") ? ""
                    : e.getCommandLine().getCommandName() + " ") + "--help' for usage.");
            return 2;
        });
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError e) {
            // zarrj reports what it allocates as InsufficientMemoryException; this is what is left.
            err.println("zarr: out of memory: this needs more than the Java heap of at most "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB can give (" + e.getMessage()
                    + "); read a smaller region, or give the JVM more heap (ZARR_JAVA_OPTS=-Xmx...)");
            code = 2;
        }
        try {
            cli.closeStores();
        } catch (RuntimeException e) {
            err.println("zarr: " + oneLine(String.valueOf(e.getMessage())));
            code = code == 0 ? 2 : code;
        }
        out.flush();
        err.flush();
        return code;
    }

    /**
     * The command line of {@code cli} with the command named {@code only}, or with every command
     * when {@code only} is null or names none.
     */
    static CommandLine commandLine(ZarrCli cli, String only) {
        CommandLine cl = new CommandLine(cli);
        boolean all = only == null || COMMANDS.stream().noneMatch(c -> name(c).equals(only));
        for (Class<?> c : COMMANDS) {
            if (all || name(c).equals(only)) {
                cl.addSubcommand(name(c), c);
            }
        }
        CommandLine bench = cl.getSubcommands().get("bench");
        if (bench != null) {
            // Everything after "bench" is the harness's to parse, its --help included.
            bench.setStopAtUnmatched(true);
        }
        return cl;
    }

    private static String name(Class<?> command) {
        return command.getAnnotation(Command.class).name();
    }

    /**
     * The command this command line runs: its first argument that is neither an option nor a
     * global option's value; null when there is none, or for {@code generate-completion}, which
     * describes every command.
     */
    static String commandName(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (OPTIONS_WITH_VALUE.contains(a)) {
                i++;
            } else if (!a.startsWith("-")) {
                return a.equals("generate-completion") ? null : a;
            }
        }
        return null;
    }

    public static void main(String[] args) {
        // Plugins warn through System.Logger (java.util.logging here): one line each, like the
        // CLI's errors, instead of a time-stamped two-line record. A user's own format wins.
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "zarr: %4$s: %5$s%n");
        }
        System.exit(run(args, System.out, System.err));
    }

    /** A check (verify, --array_path) found problems: exit status 1. */
    static final class CheckFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CheckFailed(String message) {
            super(message);
        }
    }

    /** Splits a comma-separated list of integers. */
    static long[] longs(String text, String option) {
        if (text == null) {
            return null;
        }
        if (text.isBlank()) {
            return new long[0];
        }
        List<Long> out = new ArrayList<>();
        for (String p : text.split(",")) {
            try {
                out.add(Long.parseLong(p.trim()));
            } catch (NumberFormatException e) {
                throw new UserError(option + " '" + text + "': '" + p + "' is not an integer");
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
