package dev.zarrj.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ProviderInfo;
import dev.zarrj.core.registry.RegistryReport;
import java.util.Comparator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code zarr plugins}: every discovered provider, name conflicts and load problems. */
@Command(name = "plugins",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr plugins",
                "  zarr plugins --plugin-path plugins/ --json"}, mixinStandardHelpOptions = true,
        description = "List every discovered provider by extension point, with conflicts and load problems.")
final class PluginsCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Option(names = "--json", description = "Print one JSON document.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        RegistryReport report = root.zarr().registry().report();
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        ArrayNode providers = doc.putArray("providers");
        report.providers().stream()
                .sorted(Comparator.comparing((ProviderInfo p) -> p.point().ordinal()).thenComparing(ProviderInfo::name))
                .map(p -> providers.addObject()
                        .put("extension_point", p.point().label())
                        .put("name", p.name())
                        .put("class", p.className())
                        .put("module", p.moduleName())
                        .put("version", p.version().orElse(""))
                        .put("priority", p.priority())
                        .put("location", p.location()))
                .forEach(PluginsCommand::addImplementation);
        ArrayNode conflicts = doc.putArray("conflicts");
        for (RegistryReport.Conflict c : report.conflicts()) {
            ObjectNode n = conflicts.addObject().put("extension_point", c.point().label()).put("name", c.name());
            n.put("resolved", !c.unresolved());
            if (c.winner() != null) {
                n.put("winner", c.winner().className());
            }
            ArrayNode claimants = n.putArray("claimants");
            c.claimants().forEach(i -> claimants.add(i.describe()));
        }
        ArrayNode problems = doc.putArray("load_problems");
        report.loadProblems().forEach(p -> problems.addObject()
                .put("extension_point", p.point().label()).put("error", p.describe()));
        if (json) {
            root.out().println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
            return 0;
        }
        ExtensionPoint current = null;
        for (var p : providers) {
            String point = p.get("extension_point").asText();
            if (current == null || !current.label().equals(point)) {
                for (ExtensionPoint e : ExtensionPoint.values()) {
                    if (e.label().equals(point)) {
                        current = e;
                    }
                }
                root.out().println(point + "s:");
            }
            root.out().printf("  %-20s %s  (module %s%s)%s%n", p.get("name").asText(), p.get("class").asText(),
                    p.get("module").asText(), p.get("version").asText().isEmpty() ? "" : " " + p.get("version").asText(),
                    p.has("implementation") ? "\n  " + " ".repeat(20) + " runs on " + p.get("implementation").asText() : "");
        }
        for (var c : conflicts) {
            root.out().println("conflict: " + c.get("extension_point").asText() + " '" + c.get("name").asText() + "' "
                    + (c.get("resolved").asBoolean() ? "resolved by priority: " + c.get("winner").asText()
                    : "UNRESOLVED (same priority): using it fails") + " " + c.get("claimants"));
        }
        for (var p : problems) {
            root.out().println("load problem (" + p.get("extension_point").asText() + "): " + p.get("error").asText());
        }
        if (conflicts.isEmpty() && problems.isEmpty()) {
            root.out().println("no conflicts, no load problems");
        }
        return 0;
    }

    /**
     * The library the gzip codec runs on (libdeflate or java.util.zip, and why), on its provider's
     * entry: the gzip module says, loading libdeflate to find out.
     */
    private static void addImplementation(ObjectNode provider) {
        if (!"dev.zarrj.codec.gzip.internal.GzipCodecProvider".equals(provider.get("class").asText())) {
            return;
        }
        try {
            provider.put("implementation", dev.zarrj.codec.gzip.GzipLibrary.describe());
        } catch (LinkageError e) {
            // the gzip module is not resolved in this JVM: nothing to say
        }
    }
}
