package dev.zarrj.conformance.runner;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.api.transformer.StorageTransformerProvider;
import dev.zarrj.conformance.ArrayToArrayCodecContract;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import dev.zarrj.conformance.BytesToBytesCodecContract;
import dev.zarrj.conformance.ChunkGridContract;
import dev.zarrj.conformance.ChunkKeyEncodingContract;
import dev.zarrj.conformance.DataTypeContract;
import dev.zarrj.conformance.MetadataFormatContract;
import dev.zarrj.conformance.StorageTransformerContract;
import dev.zarrj.conformance.StoreContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;

/**
 * The contracts bound to whatever provider the runner hands over through {@link Target}: one
 * concrete class per contract, run once per discovered provider.
 */
final class Discovered {
    private Discovered() {}

    /** Bytes→bytes codecs. */
    public static final class BytesToBytesCodec extends BytesToBytesCodecContract {
        @Override
        protected CodecProvider provider() {
            return Target.get(CodecProvider.class);
        }

        /** The core data types and the variable-length types of the registry under test. */
        @Override
        protected java.util.List<dev.zarrj.api.datatype.DataType> dataTypes() {
            return dev.zarrj.conformance.ConformanceKit.codecDataTypes(Target.zarr().registry());
        }

        @Override
        protected dev.zarrj.api.ProviderContext context() {
            return Target.zarr().providerContext();
        }
    }

    /** Array→bytes codecs. */
    public static final class ArrayToBytesCodec extends ArrayToBytesCodecContract {
        @Override
        protected CodecProvider provider() {
            return Target.get(CodecProvider.class);
        }

        /** The core data types and the variable-length types of the registry under test. */
        @Override
        protected java.util.List<dev.zarrj.api.datatype.DataType> dataTypes() {
            return dev.zarrj.conformance.ConformanceKit.codecDataTypes(Target.zarr().registry());
        }

        @Override
        protected dev.zarrj.api.ProviderContext context() {
            return Target.zarr().providerContext();
        }
    }

    /** Array→array codecs. */
    public static final class ArrayToArrayCodec extends ArrayToArrayCodecContract {
        @Override
        protected CodecProvider provider() {
            return Target.get(CodecProvider.class);
        }

        /** The core data types and the variable-length types of the registry under test. */
        @Override
        protected java.util.List<dev.zarrj.api.datatype.DataType> dataTypes() {
            return dev.zarrj.conformance.ConformanceKit.codecDataTypes(Target.zarr().registry());
        }

        @Override
        protected dev.zarrj.api.ProviderContext context() {
            return Target.zarr().providerContext();
        }
    }

    /** Data types. */
    public static final class DataType extends DataTypeContract {
        @Override
        protected DataTypeProvider provider() {
            return Target.get(DataTypeProvider.class);
        }

        /** A provider of a family of names ({@code r*}) is checked with members of the family. */
        @Override
        protected java.util.List<dev.zarrj.api.ExtensionConfig> configurations() {
            if (provider().name().equals("r*")) {
                return java.util.List.of(dev.zarrj.api.ExtensionConfig.of("r8", null, "/data_type/configuration"),
                        dev.zarrj.api.ExtensionConfig.of("r24", null, "/data_type/configuration"));
            }
            return super.configurations();
        }
    }

    /** Chunk grids. */
    public static final class ChunkGrid extends ChunkGridContract {
        @Override
        protected ChunkGridProvider provider() {
            return Target.get(ChunkGridProvider.class);
        }
    }

    /** Chunk key encodings. */
    public static final class ChunkKeyEncoding extends ChunkKeyEncodingContract {
        @Override
        protected ChunkKeyEncodingProvider provider() {
            return Target.get(ChunkKeyEncodingProvider.class);
        }
    }

    /** Storage transformers. */
    public static final class StorageTransformer extends StorageTransformerContract {
        @Override
        protected StorageTransformerProvider provider() {
            return Target.get(StorageTransformerProvider.class);
        }
    }

    /** Metadata formats other than Zarr v3, checked with the registry under test. */
    public static final class MetadataFormat extends MetadataFormatContract {
        @Override
        protected dev.zarrj.api.format.MetadataFormat format() {
            return Target.get(dev.zarrj.api.format.MetadataFormat.class);
        }

        @Override
        protected dev.zarrj.core.Zarr zarr() {
            return Target.zarr();
        }
    }

    /**
     * Stores, opened by their scheme on a fresh temporary location: a directory for most schemes,
     * a file {@code store.zip} for {@code zip}, nothing for {@code memory}. Written stores are
     * closed and opened again read-only before the contract reads them back (a zip archive is
     * written on close), except {@code memory:} stores, which live only in their instance.
     */
    public static final class Store extends StoreContract {
        /** The temporary locations of every store opened, deleted after the last rule has run. */
        private static final List<Path> LOCATIONS = Collections.synchronizedList(new ArrayList<>());
        private final java.util.Map<dev.zarrj.api.store.Store, URI> uris = new java.util.IdentityHashMap<>();

        /** Runs after every rule's stores were closed (the contract closes them after each rule). */
        @AfterAll
        static void deleteLocations() throws IOException {
            synchronized (LOCATIONS) {
                for (Path dir : LOCATIONS) {
                    try (Stream<Path> tree = Files.walk(dir)) {
                        for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(p);
                        }
                    }
                }
                LOCATIONS.clear();
            }
        }

        @Override
        protected dev.zarrj.api.store.Store newStore() {
            StoreProvider p = Target.get(StoreProvider.class);
            try {
                Path dir = Files.createTempDirectory("zarrj-conformance-" + p.name());
                LOCATIONS.add(dir);
                URI uri = location(p, dir);
                dev.zarrj.api.store.Store s = p.open(uri, false);
                uris.put(s, uri);
                return s;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The temporary location of a store of {@code p}'s scheme in {@code dir}. */
        private static URI location(StoreProvider p, Path dir) {
            try {
                return switch (p.name()) {
                    case "memory" -> URI.create("memory:/");
                    case "zip" -> URI.create("zip:" + dir.resolve("store.zip").toUri().getRawPath());
                    default -> new URI(p.name(), null, dir.toUri().getRawPath(), null);
                };
            } catch (java.net.URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }

        /**
         * Why the runner cannot open a store of {@code p} on a local temporary location (a remote
         * store: {@code s3}, {@code http}, ...), or empty when it can. Such a store is checked by a
         * test that extends {@link StoreContract} against a server, in its own module.
         */
        static java.util.Optional<String> notLocal(StoreProvider p) {
            Path dir = null;
            try {
                dir = Files.createTempDirectory("zarrj-conformance-probe-" + p.name());
                try (dev.zarrj.api.store.Store s = p.open(location(p, dir), false)) {
                    return java.util.Optional.empty();
                }
            } catch (RuntimeException e) {
                return java.util.Optional.of(String.valueOf(e.getMessage()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                if (dir != null) {
                    try (Stream<Path> tree = Files.walk(dir)) {
                        for (Path f : tree.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(f);
                        }
                    } catch (IOException e) {
                        // a leftover temporary folder is not a conformance result
                    }
                }
            }
        }

        @Override
        protected dev.zarrj.api.store.Store reopen(dev.zarrj.api.store.Store written) {
            URI uri = uris.remove(written);
            if (uri == null || uri.getScheme().equals("memory")) {
                return written;
            }
            written.close();
            return Target.get(StoreProvider.class).open(uri, true);
        }
    }
}
