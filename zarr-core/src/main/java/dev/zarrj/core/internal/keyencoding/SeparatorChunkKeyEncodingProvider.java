package dev.zarrj.core.internal.keyencoding;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import java.util.List;

/**
 * What the providers of the {@code default} and {@code v2} encodings share: the optional
 * {@code separator} is the only field allowed; they differ in its default.
 */
abstract sealed class SeparatorChunkKeyEncodingProvider implements ChunkKeyEncodingProvider
        permits DefaultChunkKeyEncodingProvider, V2ChunkKeyEncodingProvider {
    private final String name;
    private final char defaultSeparator;

    SeparatorChunkKeyEncodingProvider(String name, char defaultSeparator) {
        this.name = name;
        this.defaultSeparator = defaultSeparator;
    }

    /** The encoding with this separator, already checked to be {@code '/'} or {@code '.'}. */
    abstract SeparatorChunkKeyEncoding withSeparator(char separator);

    @Override
    public final String name() {
        return name;
    }

    /** Both separators, the default first. */
    @Override
    public final List<ObjectNode> exampleConfigurations() {
        char other = defaultSeparator == '/' ? '.' : '/';
        return List.of(SeparatorChunkKeyEncoding.configuration(defaultSeparator),
                SeparatorChunkKeyEncoding.configuration(other));
    }

    @Override
    public final ChunkKeyEncoding create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields(SeparatorChunkKeyEncoding.SEPARATOR);
        return withSeparator(config.optionalStringField(SeparatorChunkKeyEncoding.SEPARATOR, "/", ".")
                .map(s -> s.charAt(0)).orElse(defaultSeparator));
    }
}
