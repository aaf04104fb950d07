package dev.zarrj.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations on the command line ({@code --min-age}, {@code --wait}): {@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code 1d}, ISO-8601. */
final class Durations {
    private static final Pattern SIMPLE = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    private Durations() {}

    /**
     * A count and a unit ({@code ms}, {@code s}, {@code m}, {@code h}, {@code d}), {@code 0}, or an
     * ISO-8601 duration ({@code PT30S}); never negative.
     *
     * @throws TypeConversionException naming the text when it is none of these
     */
    static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = SIMPLE.matcher(t);
        try {
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            }
            Duration d = Duration.parse(text.trim());
            if (!d.isNegative()) {
                return d;
            }
        } catch (DateTimeParseException | ArithmeticException e) {
            // reported below
        }
        throw new TypeConversionException("'" + text + "' is not a duration: write a count and a unit, such as "
                + "500ms, 30s, 10m, 2h or 1d");
    }

    /** A duration as the options take it: in its largest whole unit. */
    static String format(Duration d) {
        if (d.toDays() > 1_000_000) {
            return d.toString();
        }
        long ms = d.toMillis();
        long[] sizes = {86_400_000, 3_600_000, 60_000, 1000};
        String[] units = {"d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (ms % sizes[i] == 0 && ms > 0) {
                return ms / sizes[i] + units[i];
            }
        }
        return ms + "ms";
    }

    /** Lets picocli parse duration options. */
    static final class Converter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            return parse(text);
        }
    }
}
