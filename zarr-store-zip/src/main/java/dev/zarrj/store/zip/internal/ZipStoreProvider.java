package dev.zarrj.store.zip.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.store.zip.ZipStoreOptions;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Opens {@link ZipStore}s for {@code zip:} URIs.
 *
 * <p>Accepted: {@code zip:/data/set.zip}, {@code zip:///data/set.zip},
 * {@code zip://localhost/data/set.zip}, {@code zip:file:///data/set.zip} and
 * {@code zip:file:/data/set.zip} for the hierarchy at the archive's root; any of these followed by
 * {@code !/inner/folder} for a hierarchy under a folder inside the archive. The archive path and
 * the folder are split at the first {@code !/} and then percent-decoded as UTF-8, so
 * {@code zip:/my%20data/set.zip!/a%20b} names the folder {@code a b} of {@code /my data/set.zip},
 * and a {@code !} in a file name is written {@code %21}. One query parameter is understood:
 * {@code ?wait=30s} (also {@code 500ms}, {@code 2m}, {@code 1h}, an ISO-8601 duration such as
 * {@code PT30S}, or {@code forever}; {@code ?wait} alone is {@code forever}) makes a store opened
 * for writing wait that long for another writer of the archive to finish, instead of failing
 * ({@link ZipStoreOptions#withLockWait}). Refused with an {@link IllegalArgumentException}
 * naming the URI: another scheme, a relative path, a host other than {@code localhost}, another
 * query, a fragment, a malformed escape, and a folder that is not a key path.
 *
 * <p>{@code open(uri, true)} is {@code ZipStores.open}; {@code open(uri, false)} is
 * {@code ZipStores.update} with stored entries (the archive is written on close if changed).
 */
@AutoService(StoreProvider.class)
public final class ZipStoreProvider implements StoreProvider {
    public ZipStoreProvider() {}

    @Override
    public String name() {
        return "zip";
    }

    /**
     * Opens the store a {@code zip:} URI names.
     *
     * @throws StoreException when the archive cannot be opened
     */
    @Override
    public Store open(URI uri, boolean readOnly) {
        Location at = parse(uri);
        return ZipStore.open(at.zip(), at.folder(), readOnly ? ZipStore.Mode.READ_ONLY : ZipStore.Mode.UPDATE,
                ZipStoreOptions.defaults().withLockWait(at.lockWait()));
    }

    /** The archive and the folder inside it that a URI names, and how long a writer waits for the lock. */
    record Location(Path zip, String folder, Duration lockWait) {
        Location(Path zip, String folder) {
            this(zip, folder, Duration.ZERO);
        }
    }

    /**
     * Parses a {@code zip:} URI.
     *
     * @throws IllegalArgumentException when it is not one this provider understands
     */
    static Location parse(URI uri) {
        Objects.requireNonNull(uri, "uri");
        if (!"zip".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("'" + uri + "' is not a zip: URI");
        }
        if (uri.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + uri + "': a zip URI takes no fragment");
        }
        String rest = uri.getRawSchemeSpecificPart();
        Duration wait = Duration.ZERO;
        int question = rest.indexOf('?');
        if (question >= 0) {
            wait = waitQuery(uri, rest.substring(question + 1));
            rest = rest.substring(0, question);
        }
        if (rest.toLowerCase(Locale.ROOT).startsWith("file:")) {
            rest = rest.substring("file:".length());
        }
        if (rest.startsWith("//")) {
            int slash = rest.indexOf('/', 2);
            String host = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
            if (!host.isEmpty() && !host.equalsIgnoreCase("localhost")) {
                throw new IllegalArgumentException("'" + uri + "': host '" + host
                        + "' is not local; only local archives are supported (zip:/path/to/set.zip)");
            }
            rest = slash < 0 ? "" : rest.substring(slash);
        }
        if (!rest.startsWith("/")) {
            throw new IllegalArgumentException("'" + uri + "' does not name an absolute path; write "
                    + "zip:/absolute/path/set.zip, optionally followed by !/folder/inside");
        }
        int bang = rest.indexOf("!/");
        String rawZip = bang < 0 ? rest : rest.substring(0, bang);
        String rawFolder = bang < 0 ? "" : rest.substring(bang + 2);
        Path zip;
        try {
            // Rebuilt as a file: URI, so that the platform maps it (/c:/x.zip on Windows too).
            zip = Path.of(new URI("file", null, decode(uri, rawZip), null));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + uri + "' does not name a local path: " + e.getMessage(), e);
        }
        String folder = decode(uri, rawFolder);
        try {
            ZipStore.folderPrefix(folder);
        } catch (InvalidKeyException e) {
            throw new IllegalArgumentException("'" + uri + "': " + e.detail(), e);
        }
        return new Location(zip, folder, wait);
    }

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d{1,18})(ms|s|m|h)");

    /** The wait of a query {@code wait=<duration>}; any other query is refused. */
    private static Duration waitQuery(URI uri, String query) {
        if (query.equals("wait")) {
            return ZipStoreOptions.FOREVER;
        }
        if (!query.startsWith("wait=") || query.indexOf('&') >= 0) {
            throw new IllegalArgumentException("'" + uri + "': a zip URI takes no query but ?wait=<duration> "
                    + "(30s, 500ms, 2m, 1h, PT30S or forever)");
        }
        try {
            return parseWait(decode(uri, query.substring("wait=".length())));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + uri + "': " + e.getMessage(), e);
        }
    }

    /**
     * Parses how long to wait for the lock: {@code forever}, a whole number with the unit
     * {@code ms}, {@code s}, {@code m} or {@code h}, or an ISO-8601 duration ({@code PT30S}).
     *
     * @throws IllegalArgumentException when it is none of these, or negative
     */
    static Duration parseWait(String text) {
        String t = text.strip();
        if (t.equalsIgnoreCase("forever")) {
            return ZipStoreOptions.FOREVER;
        }
        Matcher m = SIMPLE_DURATION.matcher(t.toLowerCase(Locale.ROOT));
        Duration d;
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        } else {
            try {
                d = Duration.parse(t);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("wait '" + text + "' is not a duration; write 30s, 500ms, 2m, 1h, "
                        + "PT30S or forever", e);
            }
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException("wait '" + text + "' is negative");
        }
        return d;
    }

    /** Decodes percent-escapes as UTF-8; a {@code +} stays a {@code +}. */
    private static String decode(URI uri, String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < raw.length(); ) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("'" + uri + "': malformed percent-escape at '"
                            + raw.substring(i, Math.min(raw.length(), i + 3)) + "'");
                }
                bytes.write(hi * 16 + lo);
                i += 3;
            } else {
                int cp = raw.codePointAt(i);
                bytes.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("'" + uri + "': percent-escapes that are not UTF-8 in '" + raw + "'", e);
        }
    }
}
