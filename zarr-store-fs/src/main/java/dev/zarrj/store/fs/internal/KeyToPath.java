package dev.zarrj.store.fs.internal;

import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The spec's key translation for one root directory, and the guard that keeps every access
 * inside that root.
 *
 * <p>{@link StoreKey} already refuses {@code ..}, {@code .}, absolute keys and backslashes, so a
 * key maps lexically to a path under the root; {@link #toPath} still checks it, because a file
 * system may read a segment in its own way (a drive letter such as {@code c:} on Windows).
 * Symbolic links are followed only when they resolve inside the root: {@link #checkInside}
 * refuses a path whose real location lies elsewhere.
 *
 * <p>Names of the form {@code .zarrj-<hex>.tmp} belong to the store's temporary files; keys that
 * use them are refused and listings skip them.
 */
final class KeyToPath {
    private static final String TEMP_PREFIX = ".zarrj-";
    private static final String TEMP_SUFFIX = ".tmp";

    private final Path root;
    private final String description;
    /** The root with symbolic links resolved, once the root exists. */
    private volatile Path realRoot;

    KeyToPath(Path root) {
        this.root = root.toAbsolutePath().normalize();
        this.description = "file:" + this.root;
    }

    /** The absolute, normalized root. */
    Path root() {
        return root;
    }

    /** {@code file:} followed by the root, for messages. */
    String describe() {
        return description;
    }

    /** Whether a file name is one the store uses for temporary files. */
    static boolean isTempName(String name) {
        return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)
                && name.length() > TEMP_PREFIX.length() + TEMP_SUFFIX.length();
    }

    /**
     * The name of a lock file of conditional writes, {@code .zarrj-lock-<hex>.tmp}: a temporary
     * file's name, so never listed nor taken by a key, and never a random one's ({@code lock-}).
     */
    static String lockName(String hex) {
        return TEMP_PREFIX + "lock-" + hex + TEMP_SUFFIX;
    }

    /** A fresh temporary file name. */
    static String newTempName() {
        return TEMP_PREFIX + Long.toHexString(ThreadLocalRandom.current().nextLong()) + TEMP_SUFFIX;
    }

    /**
     * Whether a file name can be one segment of a key; names that cannot are not listed. Only a
     * backslash can occur in a file name and not in a key segment.
     */
    static boolean isKeySegment(String name) {
        return !name.isEmpty() && name.indexOf('\\') < 0 && !isTempName(name);
    }

    /**
     * The path of a key.
     *
     * @throws InvalidKeyException when the key names a temporary file or does not map to a path
     *                             under the root
     */
    Path toPath(StoreKey key) {
        return resolve(key.value(), "key");
    }

    /**
     * The directory of a prefix: the root for {@code ""}, else the prefix without its trailing
     * {@code /}.
     *
     * @throws InvalidKeyException as {@link #toPath(StoreKey)}, or when the prefix is not one
     */
    Path toPath(String prefix) {
        StoreKey.checkPrefix(prefix);
        return prefix.isEmpty() ? root : resolve(prefix.substring(0, prefix.length() - 1), "prefix");
    }

    private Path resolve(String value, String what) {
        int segments = 0;
        int start = 0;
        while (start <= value.length()) {
            int end = value.indexOf('/', start);
            if (end < 0) {
                end = value.length();
            }
            String segment = value.substring(start, end);
            if (isTempName(segment)) {
                throw new InvalidKeyException(description + ": " + what + " '" + value + "': the name '" + segment
                        + "' is reserved for the store's temporary files");
            }
            segments++;
            start = end + 1;
        }
        Path p;
        try {
            p = root.resolve(value).normalize();
        } catch (InvalidPathException e) {
            throw new InvalidKeyException(description + ": " + what + " '" + value
                    + "' is not a valid path on this file system: " + e.getReason());
        }
        // Every segment must become exactly one name below the root.
        if (!p.startsWith(root) || p.getNameCount() != root.getNameCount() + segments) {
            throw new InvalidKeyException(description + ": " + what + " '" + value + "' maps to " + p
                    + ", which is not inside the store root");
        }
        return p;
    }

    /**
     * The root with symbolic links resolved, or null while it does not exist.
     *
     * @throws IOException when the root cannot be resolved for another reason
     */
    Path realRoot() throws IOException {
        Path r = realRoot;
        if (r == null) {
            try {
                r = root.toRealPath();
            } catch (NoSuchFileException e) {
                return null;
            }
            realRoot = r;
        }
        return r;
    }

    /**
     * Checks that the deepest existing part of {@code p} (a path from {@link #toPath}), with its
     * symbolic links resolved, lies inside the real root. What does not exist yet will be created
     * below that part, so it stays inside too.
     *
     * @param what the key or prefix, for the message
     * @throws StoreException when a symbolic link leads outside the root
     */
    void checkInside(Path p, String what) throws IOException {
        Path real = realRoot();
        if (real == null) {
            return;
        }
        for (Path q = p; q != null && q.startsWith(root); q = q.getParent()) {
            Path r;
            try {
                r = q.toRealPath();
            } catch (IOException e) {
                // Absent, or not resolvable: the part above decides. Any later access through
                // q fails the same way, so nothing outside is reached through it.
                continue;
            }
            requireInside(q, r, what);
            return;
        }
    }

    /**
     * Checks that the real path {@code real} of {@code p} lies inside the real root, which exists.
     *
     * @throws StoreException when it does not
     */
    void requireInside(Path p, Path real, String what) throws IOException {
        if (!real.startsWith(realRoot())) {
            throw new StoreException(description + ": " + what + ": " + p + " resolves through a symbolic link to "
                    + real + ", outside the store root", null);
        }
    }
}
