package dev.zarrj.store.s3.internal;

import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed {@code s3://bucket/prefix?options} URI, with the AWS environment conventions applied.
 *
 * @param bucket             the bucket
 * @param prefix             "" or the object-name prefix ending in {@code /}
 * @param endpoint           the endpoint override, if any
 * @param region             the region, if given (else the SDK's chain decides)
 * @param pathStyle          path-style addressing
 * @param anonymous          unsigned requests
 * @param multipartThreshold values larger than this are uploaded in parts
 * @param partSize           the size of each part but the last
 * @param conditionalWrites  whether the store offers conditional writes ({@code If-Match},
 *                           {@code If-None-Match}); by default only on AWS S3's own endpoints
 */
public record S3Location(String bucket, String prefix, Optional<URI> endpoint, Optional<String> region,
        boolean pathStyle, boolean anonymous, long multipartThreshold, long partSize, boolean conditionalWrites) {
    static final long DEFAULT_MULTIPART_THRESHOLD = 16L << 20;
    static final long DEFAULT_PART_SIZE = 8L << 20;
    private static final Set<String> OPTIONS =
            Set.of("endpoint", "region", "path-style", "anonymous", "multipart-threshold", "part-size",
                    "conditional-writes");

    /**
     * Parses an {@code s3:} URI; {@code env} supplies {@code AWS_ENDPOINT_URL_S3} and
     * {@code AWS_ENDPOINT_URL} when the URI names no endpoint.
     *
     * @throws IllegalArgumentException when the URI or an option is invalid
     */
    public static S3Location parse(URI uri, Map<String, String> env) {
        if (!"s3".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("'" + uri + "' is not an s3: URI");
        }
        if (uri.isOpaque() || uri.getRawAuthority() == null || uri.getRawAuthority().isEmpty()) {
            throw new IllegalArgumentException("'" + uri + "' names no bucket; write s3://bucket/prefix");
        }
        if (uri.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + uri + "': an s3 URI takes no fragment");
        }
        String bucket = uri.getRawAuthority();
        if (!bucket.matches("[a-zA-Z0-9][a-zA-Z0-9._-]{0,254}")) {
            throw new IllegalArgumentException("'" + uri + "': '" + bucket + "' is not a bucket name");
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        String prefix = path.replaceAll("^/+", "").replaceAll("/+$", "");
        if (!prefix.isEmpty()) {
            for (String segment : prefix.split("/", -1)) {
                if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                    throw new IllegalArgumentException("'" + uri + "': the prefix '" + prefix
                            + "' has an empty, '.' or '..' segment");
                }
            }
            prefix = prefix + "/";
        }
        Map<String, String> options = query(uri);
        Optional<URI> endpoint = Optional.ofNullable(options.get("endpoint"))
                .or(() -> Optional.ofNullable(blankToNull(env.get("AWS_ENDPOINT_URL_S3"))))
                .or(() -> Optional.ofNullable(blankToNull(env.get("AWS_ENDPOINT_URL"))))
                .map(e -> endpoint(uri, e));
        Optional<String> region = Optional.ofNullable(options.get("region"));
        boolean pathStyle = options.containsKey("path-style")
                ? bool(uri, "path-style", options.get("path-style"))
                : endpoint.map(e -> isLocalOrIp(e.getHost())).orElse(false);
        boolean anonymous = options.containsKey("anonymous") && bool(uri, "anonymous", options.get("anonymous"));
        long threshold = size(uri, "multipart-threshold", options.get("multipart-threshold"), DEFAULT_MULTIPART_THRESHOLD);
        long partSize = size(uri, "part-size", options.get("part-size"), DEFAULT_PART_SIZE);
        // AWS S3 honours If-Match and If-None-Match on PUT (since 2024); many S3-compatible services
        // ignore them and would overwrite silently, so another endpoint must say it honours them.
        boolean conditional = options.containsKey("conditional-writes")
                ? bool(uri, "conditional-writes", options.get("conditional-writes"))
                : endpoint.isEmpty();
        return new S3Location(bucket, prefix, endpoint, region, pathStyle, anonymous, threshold, partSize,
                conditional);
    }

    /** {@code s3://bucket/prefix}, and the endpoint when there is one: the same for two stores over the same data. */
    public String describe() {
        String base = "s3://" + bucket + "/" + prefix;
        return endpoint.map(e -> base + " at " + e).orElse(base);
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> out = new LinkedHashMap<>();
        String raw = uri.getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "true" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (!OPTIONS.contains(k)) {
                throw new IllegalArgumentException("'" + uri + "': unknown option '" + k + "'; known: "
                        + String.join(", ", new java.util.TreeSet<>(OPTIONS)));
            }
            if (out.put(k, v) != null) {
                throw new IllegalArgumentException("'" + uri + "': option '" + k + "' given twice");
            }
        }
        return out;
    }

    private static URI endpoint(URI uri, String text) {
        URI e;
        try {
            e = URI.create(text);
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("'" + uri + "': endpoint '" + text + "' is not a URI", ex);
        }
        if (!("http".equalsIgnoreCase(e.getScheme()) || "https".equalsIgnoreCase(e.getScheme())) || e.getHost() == null) {
            throw new IllegalArgumentException("'" + uri + "': endpoint '" + text + "' is not an http(s)://host URI");
        }
        return e;
    }

    private static boolean bool(URI uri, String name, String v) {
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("'" + uri + "': option '" + name + "' is '" + v + "', not true or false");
    }

    private static long size(URI uri, String name, String v, long dflt) {
        if (v == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + uri + "': option '" + name + "' is '" + v + "', not a positive byte count");
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** localhost, or an IPv4/IPv6 literal: such endpoints cannot serve virtual-hosted buckets. */
    static boolean isLocalOrIp(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(java.util.Locale.ROOT);
        if (h.equals("localhost") || h.endsWith(".localhost")) {
            return true;
        }
        if (h.startsWith("[") || h.matches("[0-9.]+") && h.chars().filter(c -> c == '.').count() == 3) {
            try {
                InetAddress.getByName(h); // a literal: no lookup is made
                return true;
            } catch (java.net.UnknownHostException e) {
                return false;
            }
        }
        return false;
    }
}
