package dev.zarrj.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --wait[=DURATION]} of the commands that write a store: a zip archive is written by one
 * writer at a time, and a second fails at once unless it waits. Handed to the zip store as the
 * {@code ?wait=} query of its {@code zip:} URI; other stores take no lock, so it changes nothing
 * for them.
 */
final class WaitOption {
    @Option(names = "--wait", arity = "0..1", fallbackValue = "forever", paramLabel = "DURATION",
            description = "When another process is writing the zip archive, wait for it to finish (up to DURATION: "
                    + "30s, 500ms, 2m, 1h, 1d; default forever) instead of failing. Other stores take no lock.")
    String wait;

    /**
     * The location with the wait added when it names a zip archive (a {@code zip:} URI or a path
     * ending in {@code .zip}); else the location as given.
     */
    String apply(String location) {
        if (wait == null) {
            return location;
        }
        String w;
        if (wait.strip().equalsIgnoreCase("forever")) {
            w = "forever";
        } else {
            try {
                long ms = Durations.parse(wait).toMillis(); // in units the zip: URI takes
                w = ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
            } catch (TypeConversionException | ArithmeticException e) {
                throw new UserError("--wait '" + wait + "' is not a duration; write 30s, 500ms, 2m, 1h or forever");
            }
        }
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
