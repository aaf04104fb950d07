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
import java.util.Locale;
import java.util.Objects;

/**
 * Opens {@link ZipStore}s for {@code zip:} URIs.
 *
 * <p>Accepted: {@code zip:/data/set.zip}, {@code zip:///data/set.zip},
 * {@code zip://localhost/data/set.zip}, {@code zip:file:///data/set.zip} and
 * {@code zip:file:/data/set.zip} for the hierarchy at the archive's root; any of these followed by
 * {@code !/inner/folder} for a hierarchy under a folder inside the archive. The archive path and
 * the folder are split at the first {@code !/} and then percent-decoded as UTF-8, so
 * {@code zip:/my%20data/set.zip!/a%20b} names the folder {@code a b} of {@code /my data/set.zip},
 * and a {@code !} in a file name is written {@code %21}. Refused with an
 * {@link IllegalArgumentException} naming the URI: another scheme, a relative path, a host other
 * than {@code localhost}, a query, a fragment, a malformed escape, and a folder that is not a key
 * path.
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
                ZipStoreOptions.defaults());
    }

    /** The archive and the folder inside it that a URI names. */
    record Location(Path zip, String folder) {}

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
        if (rest.indexOf('?') >= 0) {
            throw new IllegalArgumentException("'" + uri + "': a zip URI takes no query");
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
        return new Location(zip, folder);
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
