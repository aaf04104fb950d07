package dev.zarrj.core.internal.keyencoding;

import dev.zarrj.api.ExtensionConfig;
import java.util.Arrays;
import java.util.Optional;

/** What the {@code default} and {@code v2} encodings share: the separator and index lists. */
final class ChunkKeys {
    static final String SEPARATOR = "separator";

    private ChunkKeys() {}

    /** Reads the optional {@code separator} field; the only field either encoding allows. */
    static char separator(ExtensionConfig config, char defaultSeparator) {
        config.rejectUnknownFields(SEPARATOR);
        return config.optionalStringField(SEPARATOR, "/", ".").map(s -> s.charAt(0)).orElse(defaultSeparator);
    }

    static char checkSeparator(char separator) {
        if (separator != '/' && separator != '.') {
            throw new IllegalArgumentException("separator must be '/' or '.', not '" + separator + "'");
        }
        return separator;
    }

    /** Appends the indices joined by {@code separator}, with a separator before the first when asked. */
    static StringBuilder append(StringBuilder sb, long[] coords, char separator, boolean leading) {
        for (int d = 0; d < coords.length; d++) {
            if (coords[d] < 0) {
                throw new IllegalArgumentException("negative chunk index in " + Arrays.toString(coords));
            }
            if (leading || d > 0) {
                sb.append(separator);
            }
            sb.append(coords[d]);
        }
        return sb;
    }

    /**
     * Parses exactly {@code rank} indices joined by {@code separator} from {@code key}, starting at
     * {@code from}. Only canonical decimals are accepted (no sign, no leading zero, no overflow), so
     * that every chunk has exactly one key.
     */
    static Optional<long[]> parse(String key, int from, char separator, int rank) {
        long[] out = new long[rank];
        int pos = from;
        for (int d = 0; d < rank; d++) {
            if (d > 0) {
                if (pos >= key.length() || key.charAt(pos) != separator) {
                    return Optional.empty();
                }
                pos++;
            }
            int start = pos;
            long v = 0;
            while (pos < key.length()) {
                char c = key.charAt(pos);
                if (c < '0' || c > '9') {
                    break;
                }
                if (v > (Long.MAX_VALUE - (c - '0')) / 10) {
                    return Optional.empty();
                }
                v = v * 10 + (c - '0');
                pos++;
            }
            int digits = pos - start;
            if (digits == 0 || (digits > 1 && key.charAt(start) == '0')) {
                return Optional.empty();
            }
            out[d] = v;
        }
        return pos == key.length() ? Optional.of(out) : Optional.empty();
    }
}
