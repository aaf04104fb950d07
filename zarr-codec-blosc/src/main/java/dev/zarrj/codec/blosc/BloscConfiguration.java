package dev.zarrj.codec.blosc;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.CodecConfiguration;
import java.util.Objects;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The configuration of the {@code blosc} codec: compressor, level, shuffle mode, type size and
 * block size.
 *
 * <p>Give it to the array builder (it goes after the {@code bytes} codec), or use
 * {@link #toJson()} to build metadata by hand:
 *
 * <pre>{@code
 * zarr.array(DataTypes.FLOAT32, 1000, 1000).chunks(100, 100)
 *         .codec(BloscConfiguration.of(Compressor.ZSTD, 5, Shuffle.BITSHUFFLE))
 *         .create(store, "/temperature");
 * // {"name":"blosc","configuration":{"cname":"zstd","clevel":5,"shuffle":"bitshuffle","typesize":4,"blocksize":0}}
 * }</pre>
 *
 * <p>A {@code typesize} of {@link #AUTO_TYPESIZE} (0) leaves it out of the JSON; when an array is
 * created with such a codec, zarrj records the size of the array's data type in its metadata, as
 * the spec asks. Metadata that zarrj writes for a new array always has all five fields.
 *
 * @param cname     the compressor blosc runs on each block, never null
 * @param clevel    0 (no compression, the data is stored) to 9 (smallest output, slowest)
 * @param shuffle   the shuffle filter applied before compression, never null
 * @param typesize  the shuffle stride in bytes (at least 1), or {@link #AUTO_TYPESIZE} for the
 *                  size of the array's data type
 * @param blocksize the size of the blocks blosc compresses independently, in bytes; 0 lets
 *                  blosc choose
 * @see <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/blosc/">blosc codec spec</a>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record BloscConfiguration(Compressor cname, int clevel, Shuffle shuffle, int typesize, int blocksize)
        implements CodecConfiguration {
    /** The codec's registered name. */
    public static final String NAME = "blosc";

    /** The lowest level: no compression. */
    public static final int MIN_LEVEL = 0;

    /** The highest level: best compression. */
    public static final int MAX_LEVEL = 9;

    /** A {@code typesize} that is chosen from the array's data type when the array is created. */
    public static final int AUTO_TYPESIZE = 0;

    /** A {@code blocksize} that lets blosc choose. */
    public static final int AUTO_BLOCKSIZE = 0;

    /** The compressors the spec names, by their metadata names. */
    public enum Compressor {
        BLOSCLZ("blosclz"),
        LZ4("lz4"),
        LZ4HC("lz4hc"),
        SNAPPY("snappy"),
        ZLIB("zlib"),
        ZSTD("zstd");

        private final String jsonName;

        Compressor(String jsonName) {
            this.jsonName = jsonName;
        }

        /** The name in metadata (and in c-blosc), for example {@code "lz4hc"}. */
        public String jsonName() {
            return jsonName;
        }

        /**
         * The compressor with a metadata name.
         *
         * @throws IllegalArgumentException when no compressor has that name
         */
        public static Compressor fromJsonName(String name) {
            return byJsonName(values(), Compressor::jsonName, name, "compressor");
        }
    }

    /** The shuffle modes, by their metadata names. */
    public enum Shuffle {
        /** No shuffling. */
        NOSHUFFLE("noshuffle"),
        /** Byte-wise shuffling with a stride of {@code typesize}. */
        SHUFFLE("shuffle"),
        /** Bit-wise shuffling with a stride of {@code typesize}. */
        BITSHUFFLE("bitshuffle");

        private final String jsonName;

        Shuffle(String jsonName) {
            this.jsonName = jsonName;
        }

        /** The name in metadata, for example {@code "bitshuffle"}. */
        public String jsonName() {
            return jsonName;
        }

        /**
         * The mode with a metadata name.
         *
         * @throws IllegalArgumentException when no mode has that name
         */
        public static Shuffle fromJsonName(String name) {
            return byJsonName(values(), Shuffle::jsonName, name, "shuffle mode");
        }
    }

    /** The constant whose metadata name is {@code name}, for {@code fromJsonName}. */
    private static <E extends Enum<E>> E byJsonName(E[] values, Function<E, String> jsonName, String name,
                                                    String what) {
        for (E e : values) {
            if (jsonName.apply(e).equals(name)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown blosc " + what + " \"" + name + "\"");
    }

    /**
     * @throws NullPointerException     when {@code cname} or {@code shuffle} is null
     * @throws InvalidMetadataException when {@code clevel} is outside [0, 9], or {@code typesize}
     *                                  or {@code blocksize} is negative
     */
    public BloscConfiguration {
        Objects.requireNonNull(cname, "cname");
        Objects.requireNonNull(shuffle, "shuffle");
        if (clevel < MIN_LEVEL || clevel > MAX_LEVEL) {
            throw invalid("clevel", "must be in [" + MIN_LEVEL + ", " + MAX_LEVEL + "], found " + clevel);
        }
        if (typesize < 0) {
            throw invalid("typesize", "must be at least 1 (or " + AUTO_TYPESIZE
                    + " to use the data type's size), found " + typesize);
        }
        if (blocksize < 0) {
            throw invalid("blocksize", "must be at least 0 (0 lets blosc choose), found " + blocksize);
        }
    }

    private static InvalidMetadataException invalid(String field, String message) {
        return new InvalidMetadataException("/configuration/" + field, NAME + ": '" + field + "' " + message);
    }

    /** A configuration with the type size taken from the data type and an automatic block size. */
    public static BloscConfiguration of(Compressor cname, int clevel, Shuffle shuffle) {
        return new BloscConfiguration(cname, clevel, shuffle, AUTO_TYPESIZE, AUTO_BLOCKSIZE);
    }

    /** This configuration with another type size ({@link #AUTO_TYPESIZE} for the data type's). */
    public BloscConfiguration withTypesize(int typesize) {
        return new BloscConfiguration(cname, clevel, shuffle, typesize, blocksize);
    }

    /** This configuration with another block size (0 lets blosc choose). */
    public BloscConfiguration withBlocksize(int blocksize) {
        return new BloscConfiguration(cname, clevel, shuffle, typesize, blocksize);
    }

    /** Whether {@code typesize} is still to be chosen from the data type. */
    public boolean hasAutoTypesize() {
        return typesize == AUTO_TYPESIZE;
    }

    /** The codec's registered name, {@value #NAME}. */
    @Override
    public String name() {
        return NAME;
    }

    /**
     * The {@code configuration} object with every field, {@code typesize} left out only when it is
     * {@link #AUTO_TYPESIZE}; a fresh node owned by the caller.
     */
    @Override
    public ObjectNode configurationJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("cname", cname.jsonName());
        node.put("clevel", clevel);
        node.put("shuffle", shuffle.jsonName());
        if (typesize != AUTO_TYPESIZE) {
            node.put("typesize", typesize);
        }
        node.put("blocksize", blocksize);
        return node;
    }

    /**
     * The codec entry for an array's {@code codecs}, {@code {"name": "blosc", "configuration":
     * {...}}}; a fresh node owned by the caller.
     */
    @Override
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", NAME);
        node.set("configuration", configurationJson());
        return node;
    }
}
