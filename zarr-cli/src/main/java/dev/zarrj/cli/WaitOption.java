package dev.zarrj.cli;

import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * {@code --wait[=DURATION]} of the commands that write a store: a zip archive is written by one
 * writer at a time, and a second fails at once unless it waits. Handed to the zip store as the
 * {@code ?wait=} query of its {@code zip:} URI; other stores take no lock, so it changes nothing
 * for them.
 */
final class WaitOption {
    private static final Pattern DURATION = Pattern.compile("forever|\\d{1,18}(ms|s|m|h)|[Pp][Tt]?[0-9.,A-Za-z]+");

    @Option(names = "--wait", arity = "0..1", fallbackValue = "forever", paramLabel = "DURATION",
            description = "When another process is writing the zip archive, wait for it to finish (up to DURATION: "
                    + "30s, 500ms, 2m, 1h; default forever) instead of failing. Other stores take no lock.")
    String wait;

    /**
     * The location with the wait added when it names a zip archive (a {@code zip:} URI or a path
     * ending in {@code .zip}); else the location as given.
     */
    String apply(String location) {
        if (wait == null) {
            return location;
        }
        if (!DURATION.matcher(wait.strip()).matches()) {
            throw new UserError("--wait '" + wait + "' is not a duration; write 30s, 500ms, 2m, 1h or forever");
        }
        String w = wait.strip();
        boolean uri = location.matches("^[a-zA-Z][a-zA-Z0-9+.-]+:.*") && !location.matches("^[a-zA-Z]:[\\\\/].*");
        if (uri) {
            if (!location.regionMatches(true, 0, "zip:", 0, 4)) {
                return location;
            }
            if (location.indexOf('?') >= 0) {
                throw new UserError("--wait and a query in '" + location + "': give the wait once");
            }
            return location + "?wait=" + w;
        }
        if (!location.toLowerCase(java.util.Locale.ROOT).endsWith(".zip")) {
            return location;
        }
        return "zip:" + java.nio.file.Path.of(location).toAbsolutePath().normalize().toUri().getRawPath() + "?wait=" + w;
    }
}
