package dev.zarrj.codec.sharding.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.sharding.IndexLocation;
import dev.zarrj.codec.sharding.ShardingConfiguration;
import java.util.List;
import java.util.Optional;

/** Creates {@code sharding_indexed} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class ShardingCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public ShardingCodecProvider() {}

    @Override
    public String name() {
        return ShardingConfiguration.NAME;
    }

    /**
     * Shards of rank 1, 2 and 3 with core codecs only: the spec's recommended layout (index at the
     * end, {@code bytes} + {@code crc32c}); inner chunks with their own {@code crc32c} and the index
     * at the start; big-endian inner chunks; and a {@code transpose} inside the inner chain.
     */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        ArrayNode index = chain(bytes("little"), F.objectNode().put("name", "crc32c"));
        ObjectNode transpose = F.objectNode().put("name", "transpose");
        transpose.putObject("configuration").putArray("order").add(2).add(1).add(0);
        return List.of(
                new ShardingConfiguration(new long[] {2, 2}, chain(bytes("little")), index, IndexLocation.END)
                        .configurationJson(),
                new ShardingConfiguration(new long[] {4, 8}, chain(bytes("little"), F.objectNode().put("name", "crc32c")),
                        index, IndexLocation.START).configurationJson(),
                new ShardingConfiguration(new long[] {5}, chain(bytes("big")),
                        chain(bytes("big"), F.objectNode().put("name", "crc32c")), IndexLocation.END).configurationJson(),
                new ShardingConfiguration(new long[] {1, 2, 3}, chain(transpose, bytes("little")), index,
                        IndexLocation.START).configurationJson());
    }

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static ObjectNode bytes(String endian) {
        ObjectNode bytes = F.objectNode().put("name", "bytes");
        bytes.putObject("configuration").put("endian", endian);
        return bytes;
    }

    private static ArrayNode chain(ObjectNode... codecs) {
        ArrayNode a = F.arrayNode();
        for (ObjectNode c : codecs) {
            a.add(c);
        }
        return a;
    }

    /**
     * Parses the configuration and builds both codec chains through {@code context}.
     *
     * @throws dev.zarrj.api.InvalidMetadataException naming the field: an unknown field; a missing
     *         or non-positive {@code chunk_shape}; {@code codecs} or {@code index_codecs} missing or
     *         not a valid chain; {@code index_codecs} whose encoded size is not fixed;
     *         {@code index_location} other than {@code "start"} or {@code "end"}
     */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("chunk_shape", "codecs", "index_codecs", "index_location");
        long[] chunkShape = config.longArrayField("chunk_shape", 1, Integer.MAX_VALUE);
        CodecChain codecs = context.codecChain(config.nodeField("codecs"), config.pointer("codecs"));
        CodecChain indexCodecs = context.codecChain(config.nodeField("index_codecs"), config.pointer("index_codecs"));
        Optional<IndexLocation> location = config.optionalStringField("index_location", "start", "end")
                .flatMap(IndexLocation::fromJson);
        ShardingCodec codec = new ShardingCodec(chunkShape, codecs, indexCodecs, location.orElse(IndexLocation.END),
                location.isPresent(), config.pointer(), context);
        checkIndexCodecs(codec, chunkShape.length);
        return codec;
    }

    /**
     * Checks the index codecs before any shard shape is known, on an index of one inner chunk per
     * dimension: the kind of codec decides whether the size is fixed, not the number of entries.
     */
    private static void checkIndexCodecs(ShardingCodec codec, int rank) {
        long[] shape = new long[rank + 1];
        java.util.Arrays.fill(shape, 1);
        shape[rank] = 2;
        ChunkSpec spec = new ChunkSpec(IndexDataType.UINT64, shape, IndexDataType.EMPTY_MARKER);
        codec.indexCodecs().checkSupported(spec);
        ShardLayout.fixedIndexSize(codec, spec);
    }
}
