package dev.zarrj.conformance.vectors;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apiguardian.api.API;

/**
 * The test vectors shipped in the kit: a store of arrays written by zarrita (an independent
 * implementation, see {@code zarr-conformance/vectors-gen}) with its {@link VectorManifest}.
 *
 * <p>The store lives in the kit's resources under {@value #ZARRITA}; resources cannot be listed
 * from a jar, so the manifest's {@code files} says what to copy, and every file is checked against
 * its SHA-256 as it is copied. Verify a store loaded here with
 * {@link VectorVerifier#verify(Zarr, Store, VectorManifest)}:
 *
 * <pre>{@code
 * Zarr zarr = Zarr.defaults();
 * Store store = KitVectors.memoryStore(zarr);
 * List<VectorResult> results = VectorVerifier.verify(zarr, store, KitVectors.manifest());
 * }</pre>
 *
 * <p>Thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class KitVectors {
    /** The resource folder of the zarrita store and its {@code manifest.json}. */
    public static final String ZARRITA = "/dev/zarrj/conformance/vectors/zarrita/";

    private static volatile VectorManifest manifest;

    private KitVectors() {}

    /** The manifest of the kit's vectors (parsed once). */
    public static VectorManifest manifest() {
        VectorManifest m = manifest;
        if (m == null) {
            try (InputStream in = open("manifest.json")) {
                m = VectorManifest.parse(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            manifest = m;
        }
        return m;
    }

    /**
     * A new in-memory store ({@code memory:}) holding the kit's vectors and {@code manifest.json}.
     *
     * @throws UncheckedIOException when a resource is missing or does not match its SHA-256
     */
    public static Store memoryStore(Zarr zarr) {
        Store store = zarr.openStore("memory:");
        loadInto(store);
        return store;
    }

    /**
     * Writes the kit's vectors and {@code manifest.json} into a writable store (existing keys are
     * replaced).
     *
     * @throws UncheckedIOException when a resource is missing or does not match its SHA-256
     */
    public static void loadInto(Store store) {
        for (String file : manifest().files().keySet()) {
            store.set(StoreKey.of(file), ByteBuffer.wrap(read(file)));
        }
        store.set(StoreKey.of("manifest.json"), ByteBuffer.wrap(readUnchecked("manifest.json")));
    }

    /**
     * Copies the kit's vectors and {@code manifest.json} into a directory, which becomes a
     * file-system store that any implementation can read.
     *
     * @throws UncheckedIOException when a resource is missing or does not match, or a file cannot be written
     */
    public static void copyTo(Path directory) {
        try {
            Files.createDirectories(directory);
            for (String file : manifest().files().keySet()) {
                Path target = directory.resolve(file.replace('/', java.io.File.separatorChar));
                Files.createDirectories(target.getParent());
                Files.write(target, read(file));
            }
            Files.write(directory.resolve("manifest.json"), readUnchecked("manifest.json"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the kit's vectors to " + directory + ": " + e.getMessage(), e);
        }
    }

    /** One file of the store, checked against the manifest's size and SHA-256. */
    private static byte[] read(String file) {
        byte[] bytes = readUnchecked(file);
        VectorManifest.FileEntry want = manifest().files().get(file);
        String sha = sha256(bytes);
        if (bytes.length != want.size() || !sha.equals(want.sha256())) {
            throw new UncheckedIOException(new IOException("the kit's vector file " + ZARRITA + file + " has " + bytes.length
                    + " bytes with SHA-256 " + sha + ", but the manifest says " + want.size() + " bytes with " + want.sha256()));
        }
        return bytes;
    }

    private static byte[] readUnchecked(String file) {
        try (InputStream in = open(file)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream open(String file) throws IOException {
        InputStream in = KitVectors.class.getResourceAsStream(ZARRITA + file);
        if (in == null) {
            throw new IOException("the kit's resource " + ZARRITA + file + " is missing");
        }
        return in;
    }

    /** The SHA-256 of some bytes, in lower-case hex. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
