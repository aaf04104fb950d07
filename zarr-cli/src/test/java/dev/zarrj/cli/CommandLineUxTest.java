package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Global options in either place, shell completion, and the examples of every command's help. */
class CommandLineUxTest {
    @TempDir
    Path tmp;

    /** The global options: every option of {@code zarr} but help, version and the --array_path mode. */
    private static List<OptionSpec> globalOptions(CommandLine zarr) {
        return zarr.getCommandSpec().options().stream()
                .filter(o -> !o.usageHelp() && !o.versionHelp() && !o.longestName().equals("--array_path")).toList();
    }

    @Test
    void everyGlobalOptionIsAcceptedByEveryCommand() {
        CommandLine zarr = ZarrCli.commandLine(new ZarrCli(), null);
        List<OptionSpec> global = globalOptions(zarr);
        assertEquals(List.of("--plugin-path", "--no-consolidated", "--debug"),
                global.stream().map(OptionSpec::longestName).toList());
        for (Map.Entry<String, CommandLine> sub : zarr.getSubcommands().entrySet()) {
            for (OptionSpec o : global) {
                assertTrue(sub.getValue().getCommandSpec().findOption(o.longestName()) != null,
                        "zarr " + sub.getKey() + " does not accept " + o.longestName());
            }
        }
    }

    @Test
    void pluginPathWorksBeforeAndAfterTheCommand() throws IOException {
        Path missing = tmp.resolve("no-plugins-here");
        CliRun before = CliRun.zarr("--plugin-path", missing.toString(), "conformance");
        CliRun after = CliRun.zarr("conformance", "--plugin-path", missing.toString());
        for (CliRun r : List.of(before, after)) {
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().startsWith("zarr: --plugin-path " + missing + ": "), r.err());
        }
        assertEquals(before.err(), after.err());
        Path empty = Files.createDirectory(tmp.resolve("plugins"));
        CliRun listBefore = CliRun.zarr("--plugin-path", empty.toString(), "plugins", "--json");
        CliRun listAfter = CliRun.zarr("plugins", "--json", "--plugin-path", empty.toString());
        assertEquals(0, listAfter.code(), listAfter.err());
        assertEquals(listBefore.out(), listAfter.out());
    }

    @Test
    void noConsolidatedWorksBeforeAndAfterTheCommand() throws IOException {
        Path store = tmp.resolve("c.zarr");
        assertEquals(0, CliRun.zarr("create", store.toString(), "--path", "/", "--group").code());
        assertEquals(0, CliRun.zarr("create", store.toString(), "--path", "/a", "--shape", "4", "--chunks", "2",
                "--dtype", "int8").code());
        assertEquals(0, CliRun.zarr("consolidate", store.toString()).code());
        deleteTree(store.resolve("a")); // the consolidated metadata still name it
        assertTrue(CliRun.zarr("ls", store.toString()).out().startsWith("a  array"));
        for (CliRun r : List.of(CliRun.zarr("--no-consolidated", "ls", store.toString()),
                CliRun.zarr("ls", store.toString(), "--no-consolidated"))) {
            assertEquals(0, r.code(), r.err());
            assertEquals("", r.out());
        }
    }

    @Test
    void debugWorksBeforeAndAfterTheCommand() {
        String missing = tmp.resolve("missing.zarr").toString();
        for (CliRun r : List.of(CliRun.zarr("--debug", "info", missing), CliRun.zarr("info", missing, "--debug"))) {
            assertEquals(2, r.code());
            assertTrue(r.err().contains("NodeNotFoundException") && r.err().contains("\tat "), r.err());
        }
        assertFalse(CliRun.zarr("info", missing).err().contains("\tat "));
    }

    @Test
    void completionScriptNamesEveryCommandAndOption() {
        CliRun r = CliRun.zarr("generate-completion");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("#!/usr/bin/env bash"), r.out().lines().findFirst().orElse(""));
        assertTrue(r.out().contains("complete -F _complete_zarr"), "registers the function for zarr");
        CommandLine zarr = ZarrCli.commandLine(new ZarrCli(), null);
        for (Map.Entry<String, CommandLine> sub : zarr.getSubcommands().entrySet()) {
            assertTrue(r.out().contains("_picocli_zarr_" + sub.getKey().replace("-", "")), sub.getKey());
            for (OptionSpec o : sub.getValue().getCommandSpec().options()) {
                for (String name : o.names()) {
                    assertTrue(r.out().contains(name), "zarr " + sub.getKey() + " " + name);
                }
            }
        }
    }

    /** What bash completes for the words of a command line, with the generated script loaded. */
    private String complete(Path script, String... words) throws IOException, InterruptedException {
        String line = String.join(" ", words);
        String program = "source '" + script + "' 2>/dev/null; COMP_WORDS=(" + line + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE='" + line + "'; COMP_POINT=" + line.length() + "; _complete_zarr 2>/dev/null; "
                + "echo \"${COMPREPLY[@]}\"";
        Process p = new ProcessBuilder("bash", "--norc", "-c", program).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void bashCompletesCommandsAndOptionsWithTheScript() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "bash"))), "bash is not installed");
        Path script = Files.writeString(tmp.resolve("zarr.bash"), CliRun.zarr("generate-completion").out());
        assertEquals("ls", complete(script, "zarr", "l"));
        assertEquals("--recursive", complete(script, "zarr", "ls", "--r"));
        assertEquals("--debug --depth", complete(script, "zarr", "info", "--de"));
        assertEquals("--plugin-path", complete(script, "zarr", "conformance", "--plu"), "inherited options complete too");
    }

    @Test
    void everyCommandsHelpEndsWithExamplesOfItself() {
        CommandLine zarr = ZarrCli.commandLine(new ZarrCli(), null);
        List<String> commands = new ArrayList<>(zarr.getSubcommands().keySet());
        commands.add(0, "");
        for (String name : commands) {
            CommandLine c = name.isEmpty() ? zarr : zarr.getSubcommands().get(name);
            String usage = c.getUsageMessage(CommandLine.Help.Ansi.OFF);
            int at = usage.indexOf("\nExamples:\n");
            assertTrue(at > 0, "zarr " + name + " --help has no examples:\n" + usage);
            List<String> examples = usage.substring(at + "\nExamples:\n".length()).lines().filter(l -> !l.isBlank()).toList();
            assertTrue(examples.size() >= 1 && examples.size() <= 4, name + ": " + examples);
            String self = name.isEmpty() ? "zarr " : "zarr " + name;
            for (String e : examples) {
                assertTrue(e.startsWith("  ") && e.contains("zarr "), name + ": " + e);
            }
            assertTrue(examples.stream().anyMatch(e -> e.contains(self)), name + ": " + examples);
        }
        // Through the entry point too: --help prints them.
        CliRun help = CliRun.zarr("ls", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("Examples:\n  zarr ls data.zarr"), help.out());
    }

    static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @Test
    void aRunBuildsOnlyTheCommandItRuns() {
        assertEquals("info", ZarrCli.commandName(new String[] {"--plugin-path", "ls", "info", "x"}));
        assertEquals("cat", ZarrCli.commandName(new String[] {"--debug", "cat", "--region", "0:1"}));
        assertEquals(null, ZarrCli.commandName(new String[] {"--version"}));
        assertEquals(null, ZarrCli.commandName(new String[] {"generate-completion"}));
        assertEquals(java.util.Set.of("info"),
                ZarrCli.commandLine(new ZarrCli(), "info").getSubcommands().keySet());
        assertEquals(13, ZarrCli.commandLine(new ZarrCli(), "no-such-command").getSubcommands().size());
    }
}
