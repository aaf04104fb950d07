package dev.zarrj.core.internal.keyencoding;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import java.util.Arrays;
import java.util.Optional;

/**
 * What the {@code default} and {@code v2} encodings share: a separator, {@code '/'} or {@code '.'},
 * that is their configuration's only field and is always written out, and canonical decimal indices
 * joined by it. They differ only in how a key starts ({@link #encode}, {@link #decode}). Immutable
 * and thread-safe.
 */
abstract sealed class SeparatorChunkKeyEncoding implements ChunkKeyEncoding
        permits DefaultChunkKeyEncoding, V2ChunkKeyEncoding {
    static final String SEPARATOR = "separator";

    private final String name;
    private final char separator;

    /** @throws IllegalArgumentException when {@code separator} is not {@code '/'} or {@code '.'} */
    SeparatorChunkKeyEncoding(String name, char separator) {
        if (separator != '/' && separator != '.') {
            throw new IllegalArgumentException("separator must be '/' or '.', not '" + separator + "'");
        }
        this.name = name;
        this.separator = separator;
    }

    /** The configuration {@code {"separator": "<separator>"}}. */
    static ObjectNode configuration(char separator) {
        return JsonNodeFactory.instance.objectNode().put(SEPARATOR, String.valueOf(separator));
    }

    /** The separator, {@code '/'} or {@code '.'}. */
    public final char separator() {
        return separator;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final ObjectNode configuration() {
        return configuration(separator);
    }

    /** Appends the indices joined by the separator, with a separator before the first when asked. */
    final StringBuilder append(StringBuilder sb, long[] coords, boolean leading) {
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
     * Parses exactly {@code rank} indices joined by the separator from {@code key}, starting at
     * {@code from}. Only canonical decimals are accepted (no sign, no leading zero, no overflow), so
     * that every chunk has exactly one key.
     */
    final Optional<long[]> parse(String key, int from, int rank) {
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

    /** Equal when the same encoding has the same separator. */
    @Override
    public final boolean equals(Object o) {
        return o instanceof SeparatorChunkKeyEncoding e && e.getClass() == getClass() && e.separator == separator;
    }

    @Override
    public final int hashCode() {
        return 31 * name.hashCode() + separator;
    }

    @Override
    public final String toString() {
        return name + "(" + separator + ")";
    }
}
