package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.ModuleReader;
import java.lang.module.ResolvedModule;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * Every public type that a zarrj module exports says how stable it is (README "Stability"): an
 * {@link API} annotation with a status and a {@code since} version. Reads the modules the CLI
 * runs with, so a type added without one fails here.
 */
class ApiStatusTest {
    @Test
    void everyExportedPublicTypeHasAnApiStatus() throws Exception {
        List<String> missing = new ArrayList<>();
        Set<String> modules = new TreeSet<>();
        int checked = 0;
        for (ResolvedModule m : ModuleLayer.boot().configuration().modules()) {
            String name = m.name();
            if (!name.startsWith("dev.zarrj.") || name.equals("dev.zarrj.cli") || name.equals("dev.zarrj.bench")) {
                continue;
            }
            Set<String> exported = new TreeSet<>();
            m.reference().descriptor().exports().stream().filter(e -> !e.isQualified())
                    .forEach(e -> exported.add(e.source()));
            if (exported.isEmpty()) {
                continue;
            }
            modules.add(name);
            Module module = ModuleLayer.boot().findModule(name).orElseThrow();
            try (ModuleReader reader = m.reference().open(); Stream<String> entries = reader.list()) {
                for (String entry : (Iterable<String>) entries::iterator) {
                    if (!entry.endsWith(".class") || entry.contains("$") || entry.endsWith("module-info.class")
                            || entry.endsWith("package-info.class")) {
                        continue;
                    }
                    String className = entry.substring(0, entry.length() - 6).replace('/', '.');
                    String pkg = className.substring(0, className.lastIndexOf('.'));
                    if (!exported.contains(pkg)) {
                        continue;
                    }
                    Class<?> type = Class.forName(module, className);
                    if (type == null || !Modifier.isPublic(type.getModifiers())) {
                        continue;
                    }
                    checked++;
                    API api = type.getAnnotation(API.class);
                    if (api == null || api.since().isEmpty()) {
                        missing.add(className);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertTrue(modules.contains("dev.zarrj.api") && modules.contains("dev.zarrj.core"),
                "runs on the module path with zarrj's modules: " + modules);
        assertTrue(checked > 50, "public types checked: " + checked);
        assertEquals(List.of(), missing, "public types without @API(status, since)");
    }
}
