package dev.zarrj.codec.sharding.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A small {@link ProviderContext} for testing the codec directly: codecs come from the installed
 * providers (core's bytes, transpose, crc32c; gzip; this module's sharding), chained in the
 * simplest correct way. zarr-core's own chain is not exported, so the tests carry this one.
 */
final class TestChains implements ProviderContext {
    static final TestChains CONTEXT = new TestChains();
    static final ObjectMapper JSON = new ObjectMapper();

    private TestChains() {}

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A sharding codec from its configuration JSON, as the first codec of an array. */
    static ShardingCodec sharding(String configuration) {
        return (ShardingCodec) new ShardingCodecProvider().create(
                ExtensionConfig.of("sharding_indexed", json(configuration), "/codecs/0/configuration"), CONTEXT);
    }

    @Override
    public CodecChain codecChain(JsonNode codecs, String pointer) {
        if (codecs == null || !codecs.isArray()) {
            throw new InvalidMetadataException(pointer, "codecs must be an array");
        }
        List<Codec> list = new ArrayList<>();
        for (int i = 0; i < codecs.size(); i++) {
            JsonNode c = codecs.get(i);
            String name = c.isTextual() ? c.asText() : c.get("name").asText();
            CodecProvider p = Zarr.defaults().registry().find(ExtensionPoint.CODEC, name, CodecProvider.class)
                    .orElseThrow(() -> new InvalidMetadataException(pointer, "unknown codec " + name));
            list.add(p.create(ExtensionConfig.of(name, c.isObject() ? c.get("configuration") : null,
                    pointer + "/" + i + "/configuration"), this));
        }
        return new Chain(list, codecs.deepCopy(), pointer);
    }

    /** array→array*, array→bytes, bytes→bytes*, as core.rst has it. */
    static final class Chain implements CodecChain {
        private final List<Codec> codecs;
        private final JsonNode json;
        private final List<ArrayToArrayCodec> a2a = new ArrayList<>();
        private ArrayToBytesCodec a2b;
        private final List<BytesToBytesCodec> b2b = new ArrayList<>();

        Chain(List<Codec> codecs, JsonNode json, String pointer) {
            this.codecs = List.copyOf(codecs);
            this.json = json;
            for (Codec c : codecs) {
                if (c instanceof ArrayToArrayCodec a && a2b == null) {
                    a2a.add(a);
                } else if (c instanceof ArrayToBytesCodec a && a2b == null) {
                    a2b = a;
                } else if (c instanceof BytesToBytesCodec b && a2b != null) {
                    b2b.add(b);
                } else {
                    throw new InvalidMetadataException(pointer, "codecs in the wrong order");
                }
            }
            if (a2b == null) {
                throw new InvalidMetadataException(pointer, "no array→bytes codec");
            }
        }

        @Override
        public List<Codec> codecs() {
            return codecs;
        }

        @Override
        public JsonNode toJson() {
            return json.deepCopy();
        }

        private ChunkSpec[] specs(ChunkSpec decoded) {
            ChunkSpec[] s = new ChunkSpec[a2a.size() + 1];
            s[0] = decoded;
            for (int i = 0; i < a2a.size(); i++) {
                s[i + 1] = a2a.get(i).encodedSpec(s[i]);
            }
            return s;
        }

        private EncodedSize[] sizes(ChunkSpec a2bSpec) {
            EncodedSize[] s = new EncodedSize[b2b.size() + 1];
            s[0] = a2b.encodedSize(a2bSpec);
            for (int i = 0; i < b2b.size(); i++) {
                s[i + 1] = b2b.get(i).encodedSize(s[i]);
            }
            return s;
        }

        @Override
        public void validate(ChunkSpec decoded) {
            ChunkSpec[] s = specs(decoded);
            a2b.checkSupported(s[s.length - 1]);
        }

        @Override
        public EncodedSize encodedSize(ChunkSpec decoded) {
            ChunkSpec[] s = specs(decoded);
            EncodedSize[] z = sizes(s[s.length - 1]);
            return z[z.length - 1];
        }

        @Override
        public ByteBuffer encode(NdArray chunk, ChunkSpec decoded) {
            ChunkSpec[] s = specs(decoded);
            NdArray a = chunk;
            for (int i = 0; i < a2a.size(); i++) {
                a = a2a.get(i).encode(a, s[i]);
            }
            ByteBuffer b = a2b.encode(a, s[s.length - 1]);
            for (BytesToBytesCodec c : b2b) {
                b = c.encode(b);
            }
            return b;
        }

        @Override
        public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
            ChunkSpec[] s = specs(decoded);
            EncodedSize[] z = sizes(s[s.length - 1]);
            ByteBuffer b = encoded;
            for (int i = b2b.size() - 1; i >= 0; i--) {
                b = b2b.get(i).decode(b, z[i]);
            }
            NdArray a = a2b.decode(b, s[s.length - 1]);
            for (int i = a2a.size() - 1; i >= 0; i--) {
                a = a2a.get(i).decode(a, s[i]);
            }
            return a;
        }

        @Override
        public ArrayPartialDecoder partialDecoder(ByteSource input, ChunkSpec decoded) {
            if (a2a.isEmpty() && b2b.isEmpty()) {
                return a2b.partialDecoder(input, decoded);
            }
            return ArrayPartialDecoder.fullDecode(input, decoded, this::decode);
        }
    }

    /** {@code {"name": ..., "configuration": ...}} as JSON text, for building configurations. */
    static String codec(String name, String configuration) {
        ObjectNode n = JSON.createObjectNode().put("name", name);
        if (configuration != null) {
            n.set("configuration", json(configuration));
        }
        return n.toString();
    }
}
