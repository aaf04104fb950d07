package dev.zarrj.codec.blosc.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.blosc.BloscConfiguration;
import dev.zarrj.codec.blosc.BloscConfiguration.Compressor;
import dev.zarrj.codec.blosc.BloscConfiguration.Shuffle;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Creates {@code blosc} codecs from their metadata configuration.
 *
 * <p>Nothing here touches native code: not the constructor, not {@link #name()}, not {@link #create}.
 * c-blosc is loaded, once, when a codec first encodes or decodes a chunk, and the codec's
 * {@code cname} is checked against it then. Opening an array (or {@code zarr info}, {@code zarr ls})
 * does not load it, and without it only reading or writing the chunks of arrays that use blosc fails.
 */
@AutoService(CodecProvider.class)
public final class BloscCodecProvider implements CodecProvider {
    private static final String[] CNAMES = Arrays.stream(Compressor.values()).map(Compressor::jsonName)
            .toArray(String[]::new);
    private static final String[] SHUFFLES = Arrays.stream(Shuffle.values()).map(Shuffle::jsonName)
            .toArray(String[]::new);

    private final Supplier<BloscLibrary> library;

    /** For {@link java.util.ServiceLoader}; does nothing. */
    public BloscCodecProvider() {
        this(NativeBlosc::library);
    }

    /**
     * A provider whose codecs call {@code library}, asked for when one of them first needs it and
     * kept once it is returned ({@link LoadOnce}); {@code library} keeps its own failures.
     */
    BloscCodecProvider(Supplier<BloscLibrary> library) {
        this.library = new LoadOnce(library);
    }

    @Override
    public String name() {
        return BloscConfiguration.NAME;
    }

    /**
     * lz4 with byte shuffle and a given {@code typesize}, zstd with bit shuffle and {@code typesize}
     * left to the data type, blosclz without shuffle, and zlib with byte shuffle in small blocks:
     * compressors every c-blosc build includes.
     */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return List.of(new BloscConfiguration(Compressor.LZ4, 5, Shuffle.SHUFFLE, 4, 0).configurationJson(),
                BloscConfiguration.of(Compressor.ZSTD, 3, Shuffle.BITSHUFFLE).configurationJson(),
                BloscConfiguration.of(Compressor.BLOSCLZ, 9, Shuffle.NOSHUFFLE).configurationJson(),
                new BloscConfiguration(Compressor.ZLIB, 1, Shuffle.SHUFFLE, 2, 4096).configurationJson());
    }

    /**
     * Checks the configuration without loading c-blosc. The codec loads it when it first encodes or
     * decodes, and fails then (a {@link dev.zarrj.api.ZarrException} saying how to install c-blosc,
     * or an {@link dev.zarrj.api.InvalidMetadataException} naming {@code cname} when the installed
     * c-blosc lacks that compressor).
     *
     * @throws dev.zarrj.api.InvalidMetadataException when a field is missing, of the wrong type or
     *         out of range, or another field is present
     */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("cname", "clevel", "shuffle", "typesize", "blocksize");
        Compressor cname = Compressor.fromJsonName(config.stringField("cname", CNAMES));
        int clevel = config.intField("clevel", BloscConfiguration.MIN_LEVEL, BloscConfiguration.MAX_LEVEL);
        Shuffle shuffle = Shuffle.fromJsonName(config.stringField("shuffle", SHUFFLES));
        // Left out, it is chosen from the data type when an array is created (BloscCodec.resolveDefaults).
        int typesize = config.has("typesize") ? config.intField("typesize", 1, Integer.MAX_VALUE)
                : BloscConfiguration.AUTO_TYPESIZE;
        int blocksize = config.intField("blocksize", 0, Integer.MAX_VALUE);
        BloscConfiguration parsed = new BloscConfiguration(cname, clevel, shuffle, typesize, blocksize);
        return new BloscCodec(parsed, library, config.pointer("cname"), config.pointer("typesize"), context.tasks());
    }
}
