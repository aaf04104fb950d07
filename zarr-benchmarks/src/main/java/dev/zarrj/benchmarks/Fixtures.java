package dev.zarrj.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * Data and codecs shared by the benchmarks: smooth float32 fields and zarrj codecs built through
 * the public registry, the way an array's metadata builds them.
 */
final class Fixtures {
    static final ObjectMapper JSON = new ObjectMapper();
    static final FillValue FLOAT32_ZERO = FillValue.ofBytes(new byte[4]);

    /** The {@code bytes} codec's metadata, little endian (the native order here). */
    static final String BYTES = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";

    private Fixtures() {}

    /**
     * The value of the test field at global indices {@code (z, y, x)}: smooth in every direction,
     * so compressors see what they see in real gridded data rather than noise or constants.
     */
    static float value(long z, long y, long x) {
        return (float) (Math.sin(z * 0.05) * Math.cos(y * 0.02) + x * 0.001);
    }

    /** A rank-3 float32 block of the field whose first element is at global indices {@code origin}. */
    static NdArray smooth(long[] origin, long[] shape) {
        if (shape.length != 3 || origin.length != 3) {
            throw new IllegalArgumentException("rank-3 shapes only: " + Arrays.toString(shape));
        }
        NdArray a = NdArray.allocate(DataTypes.FLOAT32, shape);
        FloatBuffer f = a.bytes().asFloatBuffer();
        int i = 0;
        for (long z = 0; z < shape[0]; z++) {
            double sz = Math.sin((origin[0] + z) * 0.05);
            for (long y = 0; y < shape[1]; y++) {
                // The same double expression as value(), with the trigonometry hoisted out of the row.
                double szcy = sz * Math.cos((origin[1] + y) * 0.02);
                for (long x = 0; x < shape[2]; x++) {
                    f.put(i++, (float) (szcy + (origin[2] + x) * 0.001));
                }
            }
        }
        return a;
    }

    /** A rank-3 float32 block of the field starting at the origin. */
    static NdArray smooth(long... shape) {
        return smooth(new long[shape.length], shape);
    }

    /** {@code "8,256,256"} as a shape. */
    static long[] shape(String dims) {
        return Arrays.stream(dims.split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
    }

    /** The decoded representation of a float32 chunk with fill value 0. */
    static ChunkSpec float32Spec(long... shape) {
        return new ChunkSpec(DataTypes.FLOAT32, shape, FLOAT32_ZERO);
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A zarrj codec from its metadata entry ({@code {"name": ..., "configuration": ...}}), created by
     * the provider that {@link Zarr#defaults()}' registry discovered for that name.
     *
     * @throws IllegalStateException when no provider of that name is installed
     */
    static Codec codec(String metadata) {
        ObjectNode entry = (ObjectNode) parse(metadata);
        String name = entry.get("name").asText();
        Zarr zarr = Zarr.defaults();
        CodecProvider provider = zarr.registry().find(ExtensionPoint.CODEC, name, CodecProvider.class)
                .orElseThrow(() -> new IllegalStateException("codec '" + name + "' is not installed; installed: "
                        + zarr.registry().names(ExtensionPoint.CODEC)));
        return provider.create(ExtensionConfig.of(name, entry.get("configuration"), "/codecs/0/configuration"),
                zarr.providerContext());
    }

    /** A codec chain from the metadata entries of its codecs, built by zarr-core's provider context. */
    static CodecChain chain(String... metadata) {
        ArrayNode codecs = JSON.createArrayNode();
        for (String m : metadata) {
            codecs.add(parse(m));
        }
        return Zarr.defaults().providerContext().codecChain(codecs, "/codecs");
    }

    /** A JSON array of codec metadata entries, for {@code ArrayBuilder.codecs}. */
    static String codecsJson(String... metadata) {
        return "[" + String.join(",", metadata) + "]";
    }
}
