package dev.zarrj.conformance.core;

import static dev.zarrj.conformance.internal.extension.Extensions.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.conformance.ChunkKeyEncodingContract;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.util.List;
import org.junit.jupiter.api.Nested;

/** The {@code default} and {@code v2} chunk key encodings against the contract, with the spec's key strings. */
class CoreChunkKeyEncodingConformanceTest {
    static ChunkKeyEncodingProvider provider(String name) {
        return ExtensionRegistry.discover().find(ExtensionPoint.CHUNK_KEY_ENCODING, name, ChunkKeyEncodingProvider.class)
                .orElseThrow();
    }

    static ObjectNode config(String json) {
        return (ObjectNode) json(json);
    }

    /** chunk-key-encodings-default.rst. */
    @Nested
    class Default extends ChunkKeyEncodingContract {
        @Override
        protected ChunkKeyEncodingProvider provider() {
            return CoreChunkKeyEncodingConformanceTest.provider("default");
        }

        @Override
        protected List<KeyExample> specExamples() {
            return List.of(
                    new KeyExample(config("{\"separator\": \"/\"}"), new long[] {1, 23, 45}, "c/1/23/45"),
                    new KeyExample(config("{\"separator\": \".\"}"), new long[] {1, 23, 45}, "c.1.23.45"),
                    new KeyExample(config("{}"), new long[] {1, 23, 45}, "c/1/23/45"),
                    new KeyExample(config("{}"), new long[0], "c"),
                    new KeyExample(config("{\"separator\": \".\"}"), new long[0], "c"));
        }
    }

    /** chunk-key-encodings-v2.rst. */
    @Nested
    class V2 extends ChunkKeyEncodingContract {
        @Override
        protected ChunkKeyEncodingProvider provider() {
            return CoreChunkKeyEncodingConformanceTest.provider("v2");
        }

        @Override
        protected List<KeyExample> specExamples() {
            return List.of(
                    new KeyExample(config("{\"separator\": \".\"}"), new long[] {1, 23, 45}, "1.23.45"),
                    new KeyExample(config("{\"separator\": \"/\"}"), new long[] {1, 23, 45}, "1/23/45"),
                    new KeyExample(config("{}"), new long[] {1, 23, 45}, "1.23.45"),
                    new KeyExample(config("{}"), new long[0], "0"));
        }
    }
}
