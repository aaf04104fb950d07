package dev.zarrj.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.store.http.HttpStoreOptions;
import dev.zarrj.store.s3.internal.S3Location;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * {@code zip:}, {@code s3:} and {@code http(s):} store locations, through the providers' parsers
 * only: opening an s3 or http store builds a network client, and opening a zip archive at a fuzzed
 * path would read whatever file it names. The parsers refuse with an
 * {@link IllegalArgumentException} that has a message (the store SPI's contract, which
 * {@code Zarr.openStore} turns into a {@code StoreException}); anything else is a finding.
 */
class LocationFuzzTest {
    private static final MethodHandle ZIP_PARSE;

    static {
        try {
            Method parse = Class.forName("dev.zarrj.store.zip.internal.ZipStoreProvider").getDeclaredMethod("parse", URI.class);
            parse.setAccessible(true);
            ZIP_PARSE = MethodHandles.lookup().unreflect(parse);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void location(byte[] input) throws Throwable {
        String location = new String(input, StandardCharsets.UTF_8);
        URI uri;
        try {
            uri = new URI(location.endsWith(":") ? location + "/" : location);
        } catch (URISyntaxException e) {
            return; // Zarr.openStore reports these as a StoreException naming the location
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        try {
            switch (scheme) {
                case "zip" -> ZIP_PARSE.invoke(uri);
                case "s3" -> S3Location.parse(uri, Map.of());
                case "http", "https" -> HttpStoreOptions.defaults().withUriOptions(uri);
                default -> { }
            }
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                throw new AssertionError("an IllegalArgumentException without a message", e);
            }
        }
    }
}
