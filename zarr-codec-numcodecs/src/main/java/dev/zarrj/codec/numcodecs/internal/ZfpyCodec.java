package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * {@code numcodecs.zfpy}: numcodecs' {@code ZFPY}, an array→bytes codec (as zarr-python 3 runs it)
 * writing zfpy's format: a full zfp header (magic, type and dimensions, mode) followed by the zfp
 * stream of the C-ordered chunk (numpy's last dimension is zfp's x). On the system's zfp library
 * ({@code libzfp}, Debian's {@code libzfp1}), bound with JNA, so the bytes are numcodecs'.
 *
 * <p>Configuration: {@code mode} (zfp's: 2 fixed rate, 3 fixed precision, 4 fixed accuracy, 5
 * reversible; numcodecs' default 4) and its parameter {@code rate}, {@code precision} or
 * {@code tolerance} (-1: unset; an unset parameter means reversible, lossless compression, as in
 * zfpy); {@code compression_kwargs}, which numcodecs writes and recomputes, is kept as given. Data
 * types int32, int64, float32, float64; 1 to 4 dimensions. Decoding checks the header's type and
 * dimensions against the chunk. Lossy except in reversible mode. Without the library, using the
 * codec fails naming it. Immutable and thread-safe.
 */
final class ZfpyCodec implements ArrayToBytesCodec {
    static final String NAME = "numcodecs.zfpy";
    static final int MODE_FIXED_RATE = 2;
    static final int MODE_FIXED_PRECISION = 3;
    static final int MODE_FIXED_ACCURACY = 4;
    static final int MODE_REVERSIBLE = 5;

    private final int mode;
    private final double tolerance;
    private final double rate;
    private final int precision;
    private final JsonNode compressionKwargs;
    private final String pointer;

    ZfpyCodec(int mode, double tolerance, double rate, int precision, JsonNode compressionKwargs, String pointer) {
        if (mode < MODE_FIXED_RATE || mode > MODE_REVERSIBLE) {
            throw new InvalidMetadataException(pointer + "/mode", NAME + ": 'mode' must be 2 (fixed rate), 3 (fixed"
                    + " precision), 4 (fixed accuracy) or 5 (reversible), found " + mode);
        }
        this.mode = mode;
        this.tolerance = tolerance;
        this.rate = rate;
        this.precision = precision;
        this.compressionKwargs = compressionKwargs == null ? null : compressionKwargs.deepCopy();
        this.pointer = pointer;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("mode", mode);
        if (compressionKwargs != null) {
            node.set("compression_kwargs", compressionKwargs.deepCopy());
        }
        node.put("tolerance", tolerance);
        node.put("rate", rate);
        node.put("precision", precision);
        return node;
    }

    @Override
    public boolean lossless() {
        return mode == MODE_REVERSIBLE || parameter() < 0;
    }

    /** The parameter of the mode, as numcodecs passes it to zfpy (-1 when unset). */
    private double parameter() {
        return switch (mode) {
            case MODE_FIXED_ACCURACY -> tolerance;
            case MODE_FIXED_RATE -> rate;
            case MODE_FIXED_PRECISION -> precision;
            default -> -1;
        };
    }

    static ZfpLibrary library() {
        return ZfpLibrary.Holder.LIBRARY.orElseThrow(() -> new UnsupportedFormatException("/codecs", NAME
                + " needs the zfp library (libzfp; Debian: apt-get install libzfp1), which could not be loaded: "
                + ZfpLibrary.Holder.PROBLEM));
    }

    private static int zfpType(NumpyType t) {
        return switch (t) {
            case INT32 -> ZfpLibrary.TYPE_INT32;
            case INT64 -> ZfpLibrary.TYPE_INT64;
            case FLOAT32 -> ZfpLibrary.TYPE_FLOAT;
            case FLOAT64 -> ZfpLibrary.TYPE_DOUBLE;
            default -> 0;
        };
    }

    @Override
    public void checkSupported(ChunkSpec decoded) {
        NumpyType t = NumpyType.of(decoded.dataType()).orElse(NumpyType.BOOL);
        if (zfpType(t) == 0) {
            throw new InvalidMetadataException(pointer, NAME + " compresses int32, int64, float32 and float64 data, not "
                    + decoded.dataType().name());
        }
        if (decoded.rank() < 1 || decoded.rank() > 4) {
            throw new InvalidMetadataException(pointer, NAME + " compresses arrays of 1 to 4 dimensions, not "
                    + decoded.rank());
        }
    }

    @Override
    public EncodedSize encodedSize(ChunkSpec decoded) {
        checkSupported(decoded);
        return EncodedSize.unbounded();
    }

    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded) {
        checkSupported(decoded);
        ZfpLibrary zfp = library();
        int type = zfpType(NumpyType.of(decoded.dataType()).orElseThrow());
        long[] shape = decoded.shape();
        int bytes = array.byteSize();
        if (bytes == 0) {
            throw new InvalidMetadataException(pointer, NAME + " cannot compress an empty chunk");
        }
        Memory data = new Memory(bytes);
        data.write(0, Buffers.toArray(array.bytes()), 0, bytes);
        Pointer field = field(zfp, data, type, shape);
        Pointer stream = zfp.zfp_stream_open(null);
        Pointer bits = null;
        try {
            double p = parameter();
            if (p >= 0 && mode == MODE_FIXED_ACCURACY) {
                zfp.zfp_stream_set_accuracy(stream, p);
            } else if (p >= 0 && mode == MODE_FIXED_RATE) {
                zfp.zfp_stream_set_rate(stream, p, 0, shape.length, 0); // zfpy passes no type: no minimum bits
            } else if (p >= 0 && mode == MODE_FIXED_PRECISION) {
                zfp.zfp_stream_set_precision(stream, (int) p);
            } else {
                zfp.zfp_stream_set_reversible(stream);
            }
            long max = zfp.zfp_stream_maximum_size(stream, field);
            Memory out = new Memory(max);
            bits = zfp.stream_open(out, max);
            zfp.zfp_stream_set_bit_stream(stream, bits);
            zfp.zfp_stream_rewind(stream);
            if (zfp.zfp_write_header(stream, field, ZfpLibrary.HEADER_FULL) == 0) {
                throw new UnsupportedFormatException(pointer, NAME + ": zfp could not write the header for "
                        + decoded);
            }
            long size = zfp.zfp_compress(stream, field);
            if (size == 0) {
                throw new UnsupportedFormatException(pointer, NAME + ": zfp could not compress " + decoded);
            }
            return ByteBuffer.wrap(out.getByteArray(0, (int) size));
        } finally {
            zfp.zfp_field_free(field);
            zfp.zfp_stream_close(stream);
            if (bits != null) {
                zfp.stream_close(bits);
            }
        }
    }

    private static Pointer field(ZfpLibrary zfp, Pointer data, int type, long[] s) {
        return switch (s.length) {
            case 1 -> zfp.zfp_field_1d(data, type, s[0]);
            case 2 -> zfp.zfp_field_2d(data, type, s[1], s[0]);
            case 3 -> zfp.zfp_field_3d(data, type, s[2], s[1], s[0]);
            default -> zfp.zfp_field_4d(data, type, s[3], s[2], s[1], s[0]);
        };
    }

    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        checkSupported(decoded);
        ZfpLibrary zfp = library();
        int n = encoded.remaining();
        if (n == 0) {
            throw new CorruptDataException(NAME + ": empty input, expected a zfp header");
        }
        // zfp's bit stream reads without bounds checks, so a truncated or corrupt stream could make it
        // read past the input: the input is copied into memory at least as large as the most this
        // stream can need (zfp_stream_maximum_size for the field and mode in its header), zero padded.
        byte[] input = Buffers.toArray(encoded);
        Memory in = padded(input, n + 64L);
        Pointer field = zfp.zfp_field_alloc();
        Pointer bits = zfp.stream_open(in, in.size());
        Pointer stream = zfp.zfp_stream_open(bits);
        try {
            if (zfp.zfp_read_header(stream, field, ZfpLibrary.HEADER_FULL) == 0) {
                throw new CorruptDataException(NAME + ": not a zfp stream with a full header");
            }
            // The header must describe this chunk before anything is sized from it: a header
            // claiming a field of gigabytes would otherwise have that much padding allocated.
            checkField(zfp, field, decoded);
            long max = zfp.zfp_stream_maximum_size(stream, field);
            if (max <= 0 || max > Buffers.MAX_BUFFER) {
                throw new CorruptDataException(NAME + ": the zfp header describes an impossible stream");
            }
            if (max + 8 > in.size()) {
                zfp.zfp_stream_close(stream);
                zfp.stream_close(bits);
                in = padded(input, max + 8);
                bits = zfp.stream_open(in, in.size());
                stream = zfp.zfp_stream_open(bits);
                if (zfp.zfp_read_header(stream, field, ZfpLibrary.HEADER_FULL) == 0) {
                    throw new CorruptDataException(NAME + ": not a zfp stream with a full header");
                }
            }
            long bytes = decoded.byteSize();
            Memory out = new Memory(bytes);
            zfp.zfp_field_set_pointer(field, out);
            long read = zfp.zfp_decompress(stream, field);
            if (read == 0 || read > n) {
                // Reading into the padding: the stream is truncated.
                throw new CorruptDataException(NAME + ": stream truncated: zfp needed " + read + " bytes, the"
                        + " input has " + n);
            }
            NdArray result = NdArray.allocate(decoded.dataType(), decoded.shape());
            result.bytes().put(out.getByteBuffer(0, bytes));
            return result;
        } finally {
            zfp.zfp_field_free(field);
            zfp.zfp_stream_close(stream);
            zfp.stream_close(bits);
        }
    }

    /** Refuses a zfp header whose field's type or shape is not the chunk's. */
    private static void checkField(ZfpLibrary zfp, Pointer field, ChunkSpec decoded) {
        int type = zfp.zfp_field_type(field);
        int dims = zfp.zfp_field_dimensionality(field);
        Memory size = new Memory(4 * 8);
        size.clear();
        zfp.zfp_field_size(field, size);
        long[] shape = new long[Math.max(0, dims)];
        for (int d = 0; d < shape.length; d++) {
            shape[dims - 1 - d] = size.getLong(8L * d);
        }
        int expectedType = zfpType(NumpyType.of(decoded.dataType()).orElseThrow());
        if (type != expectedType || !Arrays.equals(shape, decoded.shape())) {
            throw new CorruptDataException(NAME + ": the zfp header describes type " + type + " and shape "
                    + Arrays.toString(shape) + ", but the chunk is " + decoded.dataType().name() + " "
                    + Arrays.toString(decoded.shape()));
        }
    }

    private static Memory padded(byte[] data, long size) {
        Memory m = new Memory(Math.max(size, data.length));
        m.clear();
        m.write(0, data, 0, data.length);
        return m;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ZfpyCodec c && c.configuration().equals(configuration());
    }

    @Override
    public int hashCode() {
        return Objects.hash(configuration());
    }

    @Override
    public String toString() {
        return NAME + configuration();
    }
}
