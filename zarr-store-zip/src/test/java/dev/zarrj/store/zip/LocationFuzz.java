package dev.zarrj.store.zip;

import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Seeded random store locations ({@code zip:} URIs with {@code !/}, queries and percent-escapes,
 * {@code file:} URIs, plain paths), inner folders, node paths and keys, made of the pieces that
 * break parsers ({@code ..}, {@code //}, {@code \}, NUL, bad escapes, very long names, unicode):
 * opening, listing and walking each either works or throws a {@link ZarrException}.
 */
final class LocationFuzz {
    private static final Zarr ZARR = Zarr.defaults();

    private LocationFuzz() {}

    private static final List<String> SCHEMES = List.of("zip:", "zip:/", "zip://", "zip:///", "zip://localhost",
            "zip://host", "zip:file:", "zip:file://", "zip:file:///", "file:", "file://", "file:///", "", "ZIP:",
            "zip:zip:", "memory:", "zip:%2F", "zip:?", "zip:!/");

    private static final List<String> PIECES = List.of("!/", "!", "!!/", "%", "%2", "%20", "%21", "%2F", "%2f",
            "%00", "%ZZ", "%C3%A9", "%FF", "%E2%82", "?wait", "?wait=", "?wait=-1s", "?wait=0",
            "?wait=99999999999999999d", "?wait=PT-1S", "?x=1", "?wait=1s&wait=2s", "#frag", "..", ".", "/", "//",
            "\\", "\0", "é", "\uD83D\uDE00", "\uD800", "g", "a", "zarr.json", "c", "0", " ", "a".repeat(300),
            "x/".repeat(200), "\n", ":", ";", "[", "]", "{", "'", "\"", "*", "~", "$HOME", "C:\\", "..%2F",
            "%2E%2E", "set.zip", ".zip", "/g", "/a/c/0/0");

    /** Locations and paths made of random pieces around the real archives in {@code dir}. */
    static String piece(SplittableRandom r, List<String> real) {
        return r.nextInt(3) == 0 ? real.get(r.nextInt(real.size())) : PIECES.get(r.nextInt(PIECES.size()));
    }

    static String location(SplittableRandom r, List<String> real) {
        StringBuilder s = new StringBuilder(SCHEMES.get(r.nextInt(SCHEMES.size())));
        if (r.nextInt(4) != 0) {
            s.append(real.get(r.nextInt(real.size())));
        }
        for (int i = r.nextInt(4); i > 0; i--) {
            s.append(piece(r, real));
        }
        return s.toString();
    }

    static String path(SplittableRandom r) {
        StringBuilder s = new StringBuilder(r.nextBoolean() ? "/" : "");
        for (int i = r.nextInt(5); i > 0; i--) {
            s.append(PIECES.get(r.nextInt(PIECES.size())));
        }
        return s.toString();
    }

    /** Runs one step; returns a failure, or null when it worked or threw a ZarrException. */
    private static String attempt(String what, Supplier<?> step) {
        try {
            step.get();
            return null;
        } catch (ZarrException e) {
            return e.getMessage() == null || e.getMessage().isBlank() ? what + ": a ZarrException without message"
                    : null;
        } catch (RuntimeException | Error e) {
            return what + ": not a ZarrException: " + ZipFuzz.trace(e);
        }
    }

    /** The real archives and stores used by locations, made under {@code dir}. */
    static List<String> fixtures(Path dir) throws IOException {
        Store h = ZipFuzz.hierarchy();
        Path zip = dir.resolve("set.zip");
        ZipStores.copy(h, zip);
        Path spaced = dir.resolve("my set!.zip");
        Files.copy(zip, spaced);
        Path unicode = dir.resolve("é😀.zip");
        Files.copy(zip, unicode);
        String abs = dir.toAbsolutePath().toString();
        return List.of(zip.toAbsolutePath().toString(), spaced.toAbsolutePath().toString(),
                unicode.toAbsolutePath().toString(), abs + "/my%20set%21.zip", abs + "/%C3%A9%F0%9F%98%80.zip",
                abs + "/set.zip!/g", abs, abs + "/missing.zip", abs + "/set.zip/", abs + "/./set.zip",
                abs + "/../" + dir.getFileName() + "/set.zip");
    }

    static List<String> run(Path dir, long seed, int cases, Map<String, Integer> stats) throws IOException {
        List<String> real = fixtures(dir);
        Path zip = dir.resolve("set.zip");
        SplittableRandom r = new SplittableRandom(seed);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            String loc = location(r, real);
            String node = path(r);
            String key = path(r);
            String shown = "case " + i + " location '" + printable(loc) + "', path '" + printable(node) + "', key '"
                    + printable(key) + "'";
            List<String> f = new ArrayList<>();
            f.add(attempt("StoreKey.of", () -> StoreKey.of(key)));
            f.add(attempt("StoreKey.checkPrefix", () -> StoreKey.checkPrefix(key)));
            f.add(attempt("ZipStores.open(folder)", () -> {
                try (Store s = ZipStores.open(zip, key)) {
                    return s.list();
                }
            }));
            f.add(attempt("openStore and walk", () -> {
                try (Store s = ZARR.openStore(loc, true)) {
                    stats.merge("opened", 1, Integer::sum);
                    walk(s, node, stats);
                }
                return null;
            }));
            for (String x : f) {
                if (x != null) {
                    failures.add(shown + ": " + x);
                }
            }
            stats.merge("cases", 1, Integer::sum);
        }
        return failures;
    }

    private static void walk(Store s, String node, Map<String, Integer> stats) {
        s.list();
        ZarrNode n = ZARR.open(s, node);
        stats.merge("nodes opened", 1, Integer::sum);
        if (n instanceof ZarrGroup g) {
            g.childNames();
        }
    }

    static String printable(String s) {
        return s.length() > 80 ? s.substring(0, 80).replace("\0", "\\0") + "..." : s.replace("\0", "\\0");
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args[2]));
        Map<String, Integer> stats = new TreeMap<>();
        List<String> failures = run(dir, Long.parseLong(args[0]), Integer.parseInt(args[1]), stats);
        Map<String, List<String>> classes = new LinkedHashMap<>();
        for (String f : failures) {
            String k = f.substring(f.indexOf("': ") + 3).split("\n")[0];
            k = k.replaceAll("'[^']*'", "'…'").replaceAll("[0-9]+", "N");
            classes.computeIfAbsent(k.length() > 140 ? k.substring(0, 140) : k, x -> new ArrayList<>()).add(f);
        }
        System.out.println(stats);
        System.out.println(failures.size() + " failures in " + classes.size() + " classes");
        classes.forEach((k, v) -> System.out.println("=== " + v.size() + " x " + k + "\n" + v.get(0)));
    }
}
