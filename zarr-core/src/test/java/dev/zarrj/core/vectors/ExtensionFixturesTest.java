package dev.zarrj.core.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.Extension;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.internal.metadata.ExtensionEntry;
import dev.zarrj.core.internal.metadata.ExtensionResolver;
import dev.zarrj.core.registry.ExtensionPoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * zarr-python's extension fixtures (codecs, chunk grids, key encodings, in object and short-hand
 * form), which a v3 parser must accept: each installed extension is created from its entry and
 * writes itself back to a configuration that creates an equal instance; each one not installed
 * fails with an {@link UnknownExtensionException} naming it.
 */
class ExtensionFixturesTest {
    private static final ExtensionResolver RESOLVER = new ExtensionResolver(Zarr.defaults().registry());

    private record Point(String folder, ExtensionPoint point, Class<? extends dev.zarrj.api.ExtensionProvider<?>> type) {}

    private static final List<Point> POINTS = List.of(
            new Point("codec", ExtensionPoint.CODEC, CodecProvider.class),
            new Point("chunk_grid", ExtensionPoint.CHUNK_GRID, ChunkGridProvider.class),
            new Point("chunk_key_encoding", ExtensionPoint.CHUNK_KEY_ENCODING, ChunkKeyEncodingProvider.class));

    @TestFactory
    Stream<DynamicTest> everyCaseIsAcceptedOrNamedAsMissing() throws IOException {
        Optional<Path> root = SharedVectors.root();
        Assumptions.assumeTrue(root.isPresent(), SharedVectors.ABSENT);
        Path dir = root.get().resolve("zarr-python/metadata_fixtures/v3");
        List<DynamicTest> tests = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (Point p : POINTS) {
            try (Stream<Path> folders = Files.list(dir.resolve(p.folder()))) {
                for (Path f : folders.sorted().toList()) {
                    JsonNode cases = json.readTree(f.resolve("cases.json").toFile());
                    for (Iterator<Map.Entry<String, JsonNode>> it = cases.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> c = it.next();
                        tests.add(DynamicTest.dynamicTest(p.folder() + "/" + f.getFileName() + "/" + c.getKey(),
                                () -> check(p, c.getValue())));
                    }
                }
            }
        }
        return tests.stream();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void check(Point p, JsonNode entryJson) {
        ExtensionEntry entry = ExtensionEntry.parse(entryJson, "/case", p.point().label());
        if (!RESOLVER.registry().names(p.point()).contains(entry.name())) {
            UnknownExtensionException e = assertThrows(UnknownExtensionException.class,
                    () -> RESOLVER.resolve(p.point(), entry, (Class) p.type()));
            assertEquals(entry.name(), e.extensionName());
            return;
        }
        Extension created = (Extension) RESOLVER.resolve(p.point(), entry, (Class) p.type()).orElseThrow();
        assertEquals(entry.name(), created.name());
        ExtensionEntry again = ExtensionEntry.parse(created.toJson(), "/again", p.point().label());
        Extension recreated = (Extension) RESOLVER.resolve(p.point(), again, (Class) p.type()).orElseThrow();
        assertEquals(created.toJson(), recreated.toJson(), "written back and read again gives the same extension");
    }
}
