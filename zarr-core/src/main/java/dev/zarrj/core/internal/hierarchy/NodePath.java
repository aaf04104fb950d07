package dev.zarrj.core.internal.hierarchy;

import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.store.StoreKey;

/**
 * Hierarchy paths: {@code "/"} (or {@code ""}) for the root, {@code "/foo/bar"} for a node. Held
 * normalised without leading or trailing slash ({@code ""}, {@code "foo/bar"}).
 */
public final class NodePath {
    private NodePath() {}

    /**
     * Normalises a user's path and checks each node name against core.rst "Node names".
     *
     * @throws InvalidKeyException naming the path and the rule it breaks
     */
    public static String normalize(String path) {
        if (path == null) {
            throw new InvalidKeyException("node path is null");
        }
        String p = path;
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.isEmpty()) {
            return "";
        }
        for (String name : p.split("/", -1)) {
            checkName(name, path);
        }
        return p;
    }

    private static void checkName(String name, String path) {
        if (name.isEmpty()) {
            throw new InvalidKeyException("node path '" + path + "' has an empty name");
        }
        if (name.chars().allMatch(c -> c == '.')) {
            throw new InvalidKeyException("node path '" + path + "': a node name must not consist of periods only ('" + name + "')");
        }
        if (name.startsWith("__")) {
            throw new InvalidKeyException("node path '" + path + "': node name '" + name + "' starts with the reserved prefix '__'");
        }
        if (name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0) {
            throw new InvalidKeyException("node path '" + path + "': node name '" + name.replace("\0", "\\0")
                    + "' contains a backslash or NUL");
        }
    }

    /** The key of a node's {@code zarr.json}. */
    public static StoreKey metadataKey(String path) {
        return StoreKey.of(path.isEmpty() ? "zarr.json" : path + "/zarr.json");
    }

    /** The key prefix under which a node's data lives ({@code ""} for the root). */
    public static String prefix(String path) {
        return path.isEmpty() ? "" : path + "/";
    }

    /** The path of a child. */
    public static String child(String path, String name) {
        return normalize(path.isEmpty() ? name : path + "/" + name);
    }

    /** The parent's path, or null for the root. */
    public static String parent(String path) {
        if (path.isEmpty()) {
            return null;
        }
        int i = path.lastIndexOf('/');
        return i < 0 ? "" : path.substring(0, i);
    }

    /** The path as users write it: {@code "/"} or {@code "/foo/bar"}. */
    public static String display(String path) {
        return "/" + path;
    }
}
