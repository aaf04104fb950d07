package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.InvalidKeyException;
import org.apiguardian.api.API;

/**
 * A validated store key: a {@code /}-separated path of non-empty segments.
 *
 * <p>Refused, so that no key can leave a store's root: the empty key, a leading or trailing
 * {@code /}, an empty segment ({@code a//b}), a {@code .} or {@code ..} segment, a backslash and
 * a NUL character. Keys are case-sensitive.
 *
 * @param value the key, for example {@code foo/bar/c/0/1}
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record StoreKey(String value) implements Comparable<StoreKey> {
    public StoreKey {
        check(value, "key");
    }

    /** Shorthand for {@code new StoreKey(value)}. */
    public static StoreKey of(String value) {
        return new StoreKey(value);
    }

    /** The key formed by appending {@code suffix} to {@code prefix} (a prefix, see {@link #checkPrefix}). */
    public static StoreKey of(String prefix, String suffix) {
        return new StoreKey(prefix + suffix);
    }

    /**
     * Checks a prefix: {@code ""} or a valid key followed by {@code /}.
     *
     * @return the prefix
     * @throws InvalidKeyException when it is not one
     */
    public static String checkPrefix(String prefix) {
        if (prefix == null) {
            throw new InvalidKeyException("prefix is null");
        }
        if (prefix.isEmpty()) {
            return prefix;
        }
        if (!prefix.endsWith("/")) {
            throw new InvalidKeyException("prefix '" + printable(prefix) + "' must be empty or end with '/'");
        }
        check(prefix.substring(0, prefix.length() - 1), "prefix");
        return prefix;
    }

    private static void check(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new InvalidKeyException("store " + what + " must not be empty");
        }
        if (value.startsWith("/")) {
            throw new InvalidKeyException("store " + what + " '" + printable(value) + "' must not start with '/'");
        }
        if (value.endsWith("/")) {
            throw new InvalidKeyException("store " + what + " '" + printable(value) + "' must not end with '/'");
        }
        if (value.indexOf('\\') >= 0) {
            throw new InvalidKeyException("store " + what + " '" + printable(value) + "' must not contain a backslash");
        }
        if (value.indexOf('\0') >= 0) {
            throw new InvalidKeyException("store " + what + " '" + printable(value) + "' must not contain NUL");
        }
        int start = 0;
        while (start <= value.length()) {
            int end = value.indexOf('/', start);
            if (end < 0) {
                end = value.length();
            }
            String segment = value.substring(start, end);
            if (segment.isEmpty()) {
                throw new InvalidKeyException("store " + what + " '" + printable(value) + "' has an empty segment");
            }
            if (segment.equals(".") || segment.equals("..")) {
                throw new InvalidKeyException("store " + what + " '" + printable(value) + "' must not contain a '"
                        + segment + "' segment");
            }
            start = end + 1;
        }
    }

    private static String printable(String s) {
        return s.replace("\0", "\\0");
    }

    /** The last segment. */
    public String name() {
        int i = value.lastIndexOf('/');
        return i < 0 ? value : value.substring(i + 1);
    }

    /** Whether this key starts with a prefix ({@code ""} matches every key). */
    public boolean hasPrefix(String prefix) {
        return value.startsWith(prefix);
    }

    @Override
    public int compareTo(StoreKey o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
