package dev.zarrj.codec.numcodecs;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.codec.CodecConfiguration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The configuration of one {@code numcodecs.*} codec, as zarr-python writes it: the codec's name
 * and numcodecs' configuration fields. The static factories build the common ones; the provider
 * validates the fields when the array is created or opened.
 *
 * <pre>{@code
 * zarr.array(DataTypes.INT32, 1000).chunks(100)
 *         .codecs(NumcodecsConfiguration.delta("int32"),  // array→array: before the bytes codec
 *                 BytesConfiguration.LITTLE_ENDIAN,
 *                 NumcodecsConfiguration.zlib(5))         // bytes→bytes: after it
 *         .create(store, "/x");
 * }</pre>
 *
 * <p>numpy data types are given as numpy names ({@code "int32"}) or type strings ({@code "<i4"}).
 *
 * @param name          the codec's registered name, {@code numcodecs.<id>}
 * @param configuration the configuration fields (copied; never modified)
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record NumcodecsConfiguration(String name, ObjectNode configuration) implements CodecConfiguration {
    /** The prefix zarr-python gives numcodecs' codec ids. */
    public static final String PREFIX = "numcodecs.";

    /**
     * @throws IllegalArgumentException when the name does not start with {@value #PREFIX}
     */
    public NumcodecsConfiguration {
        Objects.requireNonNull(name, "name");
        if (!name.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a numcodecs codec name starts with '" + PREFIX + "': " + name);
        }
        configuration = configuration == null ? JsonNodeFactory.instance.objectNode() : configuration.deepCopy();
    }

    private static NumcodecsConfiguration of(String id, ObjectNode configuration) {
        return new NumcodecsConfiguration(PREFIX + id, configuration);
    }

    private static ObjectNode node() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** {@code numcodecs.zlib} at a level from -1 (zlib's default) to 9. */
    public static NumcodecsConfiguration zlib(int level) {
        return of("zlib", node().put("level", level));
    }

    /** {@code numcodecs.bz2} with a block size level from 1 to 9. */
    public static NumcodecsConfiguration bz2(int level) {
        return of("bz2", node().put("level", level));
    }

    /** {@code numcodecs.lzma}: the xz format, CRC64 check, a preset from 0 to 9. */
    public static NumcodecsConfiguration lzma(int preset) {
        return of("lzma", node().put("format", 1).put("check", -1).put("preset", preset).putNull("filters"));
    }

    /** {@code numcodecs.lz4} with an acceleration (1 is numcodecs' default). */
    public static NumcodecsConfiguration lz4(int acceleration) {
        return of("lz4", node().put("acceleration", acceleration));
    }

    /** {@code numcodecs.adler32}, the checksum before the data (numcodecs' default). */
    public static NumcodecsConfiguration adler32() {
        return of("adler32", node());
    }

    /** {@code numcodecs.crc32}, the checksum before the data (numcodecs' default). */
    public static NumcodecsConfiguration crc32() {
        return of("crc32", node());
    }

    /** {@code numcodecs.fletcher32}, the HDF5 checksum after the data. */
    public static NumcodecsConfiguration fletcher32() {
        return of("fletcher32", node());
    }

    /** {@code numcodecs.shuffle} of elements of {@code elementsize} bytes. */
    public static NumcodecsConfiguration shuffle(int elementsize) {
        return of("shuffle", node().put("elementsize", elementsize));
    }

    /** {@code numcodecs.delta} of data of numpy type {@code dtype}. */
    public static NumcodecsConfiguration delta(String dtype) {
        return of("delta", node().put("dtype", dtype));
    }

    /** {@code numcodecs.fixedscaleoffset}: stores {@code round((x - offset) * scale)} as {@code astype}. */
    public static NumcodecsConfiguration fixedScaleOffset(double offset, double scale, String dtype, String astype) {
        return of("fixedscaleoffset", node().put("offset", offset).put("scale", scale).put("dtype", dtype)
                .put("astype", astype));
    }

    /** {@code numcodecs.quantize} keeping {@code digits} decimal digits of float data of type {@code dtype}. */
    public static NumcodecsConfiguration quantize(int digits, String dtype) {
        return of("quantize", node().put("digits", digits).put("dtype", dtype));
    }

    /** {@code numcodecs.bitround} keeping {@code keepbits} mantissa bits. */
    public static NumcodecsConfiguration bitround(int keepbits) {
        return of("bitround", node().put("keepbits", keepbits));
    }

    /** {@code numcodecs.astype}: stores the data as {@code encodeDtype}. */
    public static NumcodecsConfiguration astype(String encodeDtype, String decodeDtype) {
        return of("astype", node().put("encode_dtype", encodeDtype).put("decode_dtype", decodeDtype));
    }

    /** {@code numcodecs.packbits}: bool data as bits. */
    public static NumcodecsConfiguration packbits() {
        return of("packbits", node());
    }

    /**
     * {@code numcodecs.zfpy} in fixed-accuracy mode: values within {@code tolerance}; a negative
     * tolerance means reversible (lossless). Needs the system's zfp library.
     */
    public static NumcodecsConfiguration zfpyAccuracy(double tolerance) {
        return of("zfpy", node().put("mode", 4).put("tolerance", tolerance).put("rate", -1.0).put("precision", -1));
    }

    /** The configuration fields; a fresh copy owned by the caller. */
    @Override
    public ObjectNode configuration() {
        return configuration.deepCopy();
    }

    @Override
    public ObjectNode configurationJson() {
        return configuration.deepCopy();
    }
}
