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
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Creates {@code blosc} codecs from their metadata configuration.
 *
 * <p>The constructor and {@link #name()} never touch native code; {@link #create} loads c-blosc
 * on first use, so without it only arrays that use blosc fail to open.
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

    /** A provider whose codecs call {@code library}, which is asked for in {@link #create}. */
    BloscCodecProvider(Supplier<BloscLibrary> library) {
        this.library = Objects.requireNonNull(library, "library");
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
     * @throws dev.zarrj.api.InvalidMetadataException when a field is missing, of the wrong type or
     *         out of range, another field is present, or the installed c-blosc lacks {@code cname}
     * @throws dev.zarrj.api.ZarrException when c-blosc cannot be loaded, saying how to install it
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

        BloscLibrary lib = library.get();
        if (!lib.compressors().contains(cname.jsonName())) {
            throw config.error("cname", "\"" + cname.jsonName() + "\" is not included in the installed c-blosc "
                    + lib.version() + ", which has " + String.join(", ", lib.compressors().stream().sorted().toList())
                    + "; choose one of those, or install a c-blosc built with " + cname.jsonName());
        }
        return new BloscCodec(parsed, lib, config.pointer("typesize"));
    }
}
