package dev.zarrj.conformance.internal.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.RegionCopy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Encodings the kit computes on its own, straight from the spec, for codecs whose format it knows
 * by name: {@code bytes}, {@code vlen-utf8}, {@code vlen-bytes}, {@code transpose} and
 * {@code crc32c} exactly, and {@code gzip}
 * through the JDK's independent gzip streams. A plugin that registers one of these names (for
 * example a faster {@code bytes}) must agree with them.
 */
public final class References {
    /** A reference encoding of some kind of codec. */
    public interface Reference {
        /** Where the reference comes from, for messages. */
        String source();
    }

    /** An exact reference: its encoding is the only correct one. */
    public interface Exact<D, E> extends Reference {
        E encode(ObjectNode configuration, D decoded);
    }

    /** A reference for a bytes→bytes codec. */
    public interface BytesToBytes extends Reference {
        /** Whether {@link #encode} gives the only correct encoding (not just one valid encoding). */
        boolean exact();

        ByteBuffer encode(ObjectNode configuration, ByteBuffer decoded);

        ByteBuffer decode(ObjectNode configuration, ByteBuffer encoded);
    }

    /** An exact reference for an array→bytes codec. */
    public interface ArrayToBytes extends Exact<NdArray, ByteBuffer> {
        NdArray decode(ObjectNode configuration, ByteBuffer encoded, ChunkSpec spec);
    }

    /** An exact reference for an array→array codec. */
    public interface ArrayToArray extends Exact<NdArray, NdArray> {
        NdArray decode(ObjectNode configuration, NdArray encoded, ChunkSpec spec);
    }

    private References() {}

    /** The reference for a bytes→bytes codec name, if the kit has one. */
    public static Optional<BytesToBytes> bytesToBytes(String name) {
        return switch (name) {
            case "crc32c" -> Optional.of(new Crc32c());
            case "gzip" -> Optional.of(new Gzip());
            default -> Optional.empty();
        };
    }

    /** The reference for an array→bytes codec name, if the kit has one. */
    public static Optional<ArrayToBytes> arrayToBytes(String name) {
        return switch (name) {
            case "bytes" -> Optional.of(new Bytes());
            case "vlen-utf8" -> Optional.of(new Vlen(name, true));
            case "vlen-bytes" -> Optional.of(new Vlen(name, false));
            default -> Optional.empty();
        };
    }

    /** The reference of a variable-length codec name ({@code vlen-utf8}, {@code vlen-bytes}), if it is one. */
    public static Optional<Vlen> variableLength(String name) {
        return arrayToBytes(name).filter(Vlen.class::isInstance).map(Vlen.class::cast);
    }

    /** The reference for an array→array codec name, if the kit has one. */
    public static Optional<ArrayToArray> arrayToArray(String name) {
        return name.equals("transpose") ? Optional.of(new Transpose()) : Optional.empty();
    }

    /** codecs-crc32c.rst: the bytes, then their CRC32C as a 4-byte little-endian integer. */
    private static final class Crc32c implements BytesToBytes {
        @Override
        public String source() {
            return "codecs-crc32c.rst (java.util.zip.CRC32C)";
        }

        @Override
        public boolean exact() {
            return true;
        }

        @Override
        public ByteBuffer encode(ObjectNode configuration, ByteBuffer decoded) {
            CRC32C crc = new CRC32C();
            crc.update(decoded.duplicate());
            ByteBuffer out = ByteBuffer.allocate(decoded.remaining() + 4).order(ByteOrder.LITTLE_ENDIAN);
            out.put(decoded.duplicate()).putInt((int) crc.getValue());
            return out.flip();
        }

        @Override
        public ByteBuffer decode(ObjectNode configuration, ByteBuffer encoded) {
            int n = encoded.remaining() - 4;
            if (n < 0) {
                throw new IllegalArgumentException("shorter than the checksum");
            }
            ByteBuffer payload = Buffers.prefix(encoded, n);
            CRC32C crc = new CRC32C();
            crc.update(payload.duplicate());
            int stored = encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(encoded.position() + n);
            if (stored != (int) crc.getValue()) {
                throw new IllegalArgumentException(String.format("checksum 0x%08x stored, 0x%08x computed", stored,
                        (int) crc.getValue()));
            }
            return payload;
        }
    }

    /** codecs-gzip.rst: RFC 1952, through the JDK's GZIPOutputStream / GZIPInputStream. */
    private static final class Gzip implements BytesToBytes {
        @Override
        public String source() {
            return "RFC 1952 (java.util.zip.GZIPOutputStream / GZIPInputStream)";
        }

        @Override
        public boolean exact() {
            return false;
        }

        @Override
        public ByteBuffer encode(ObjectNode configuration, ByteBuffer decoded) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                gz.write(Buffers.toArray(decoded));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return ByteBuffer.wrap(out.toByteArray());
        }

        @Override
        public ByteBuffer decode(ObjectNode configuration, ByteBuffer encoded) {
            try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(Buffers.toArray(encoded)))) {
                return ByteBuffer.wrap(gz.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * codecs-bytes.rst: each element in C order, in the configured byte order applied to each
     * {@code byteOrderUnit} bytes; no {@code endian} is allowed only for types without a byte order.
     */
    private static final class Bytes implements ArrayToBytes {
        @Override
        public String source() {
            return "codecs-bytes.rst";
        }

        private static boolean swaps(ObjectNode configuration, ChunkSpec spec) {
            int unit = spec.dataType().byteOrderUnit();
            JsonNode endian = configuration.get("endian");
            if (unit <= 1) {
                return false;
            }
            if (endian == null || !endian.isTextual()) {
                throw Failures.violation("codecs-bytes.rst requires \"endian\" for " + spec.dataType().name()
                        + " (" + unit + "-byte byte order unit), yet the codec accepted " + configuration);
            }
            ByteOrder order = endian.asText().equals("big") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            return order != ByteOrder.nativeOrder();
        }

        private static byte[] swapped(byte[] b, int unit) {
            byte[] out = b.clone();
            for (int o = 0; o < out.length; o += unit) {
                for (int k = 0; k < unit; k++) {
                    out[o + k] = b[o + unit - 1 - k];
                }
            }
            return out;
        }

        @Override
        public ByteBuffer encode(ObjectNode configuration, NdArray decoded) {
            ChunkSpec spec = new ChunkSpec(decoded.dataType(), decoded.shape(), decoded.dataType().defaultFillValue());
            byte[] b = Buffers.toArray(decoded.bytes());
            return ByteBuffer.wrap(swaps(configuration, spec) ? swapped(b, spec.dataType().byteOrderUnit()) : b);
        }

        @Override
        public NdArray decode(ObjectNode configuration, ByteBuffer encoded, ChunkSpec spec) {
            byte[] b = Buffers.toArray(encoded);
            byte[] n = swaps(configuration, spec) ? swapped(b, spec.dataType().byteOrderUnit()) : b;
            return NdArray.wrap(spec.dataType(), ByteBuffer.wrap(n), spec.shape());
        }
    }

    /**
     * zarr-extensions {@code codecs/vlen-utf8} and {@code codecs/vlen-bytes} (numcodecs' VLenUTF8 and
     * VLenBytes): the element count as a 4-byte little-endian unsigned integer, then for each
     * element in C order its length in bytes (the same form) and its bytes: a string's UTF-8, a
     * byte string itself. Nothing follows the last element.
     */
    public static final class Vlen implements ArrayToBytes {
        private final String name;
        private final boolean text;

        Vlen(String name, boolean text) {
            this.name = name;
            this.text = text;
        }

        @Override
        public String source() {
            return "zarr-extensions codecs/" + name + " (numcodecs " + (text ? "VLenUTF8" : "VLenBytes") + ")";
        }

        @Override
        public ByteBuffer encode(ObjectNode configuration, NdArray decoded) {
            int n = (int) decoded.elementCount();
            byte[][] items = new byte[n][];
            for (int i = 0; i < n; i++) {
                items[i] = decoded.getBytes(i);
            }
            return layout(n, items);
        }

        /** The format of {@code count} and {@code items} (which need not agree: damaged forms). */
        static ByteBuffer layout(int count, byte[][] items) {
            long size = 4;
            for (byte[] item : items) {
                size += 4 + item.length;
            }
            ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(size)).order(ByteOrder.LITTLE_ENDIAN);
            out.putInt(count);
            for (byte[] item : items) {
                out.putInt(item.length).put(item);
            }
            return out.flip().order(ByteOrder.BIG_ENDIAN);
        }

        @Override
        public NdArray decode(ObjectNode configuration, ByteBuffer encoded, ChunkSpec spec) {
            ByteBuffer in = encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            long n = Integer.toUnsignedLong(in.getInt());
            if (n != spec.elementCount()) {
                throw new IllegalArgumentException(n + " elements for a chunk of " + spec.elementCount());
            }
            NdArray out = NdArray.allocate(spec.dataType(), spec.shape());
            for (int i = 0; i < n; i++) {
                byte[] item = new byte[in.getInt()];
                in.get(item);
                out.setBytes(i, item);
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes after the last element");
            }
            return out;
        }

        /**
         * Encodings of {@code x} that break the format, each of which a decoder must reject: an
         * element count one more and one less than the chunk's, an element's length past the end,
         * bytes after the last element (one byte; four zero bytes, the form of one more empty
         * element), and for text an element of malformed UTF-8 (a stray continuation byte, a
         * truncated sequence, overlong forms, an encoded surrogate, a code point past U+10FFFF,
         * a byte UTF-8 never uses).
         */
        public java.util.List<Damage.Damaged> malformed(NdArray x) {
            int n = (int) x.elementCount();
            byte[][] items = new byte[n][];
            for (int i = 0; i < n; i++) {
                items[i] = x.getBytes(i);
            }
            ByteBuffer good = layout(n, items);
            java.util.List<Damage.Damaged> out = new java.util.ArrayList<>();
            out.add(new Damage.Damaged("the encoding with the element count " + (n + 1L) + " for " + n + " elements",
                    layout(n + 1, items)));
            if (n > 0) {
                out.add(new Damage.Damaged("the encoding with the element count " + (n - 1) + " for " + n
                        + " elements", layout(n - 1, items)));
                ByteBuffer past = Buffers.copy(good).order(ByteOrder.LITTLE_ENDIAN);
                int lastLength = good.remaining() - items[n - 1].length - 4;
                past.putInt(lastLength, items[n - 1].length + 1);
                out.add(new Damage.Damaged("the encoding whose last element's length is one byte past the end",
                        past.order(ByteOrder.BIG_ENDIAN)));
            }
            out.add(new Damage.Damaged("the encoding followed by one byte", Buffers.append(good, new byte[] {0x41})));
            out.add(new Damage.Damaged("the encoding followed by four zero bytes (one more empty element's form)",
                    Buffers.append(good, new byte[4])));
            if (text && n > 0) {
                byte[][] invalid = {{(byte) 0x80}, {0x61, (byte) 0xc3}, {(byte) 0xe2, (byte) 0x82}, {(byte) 0xc0, (byte) 0x80},
                        {(byte) 0xe0, (byte) 0x80, (byte) 0xaf}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                        {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {0x61, (byte) 0xff, 0x62}};
                for (byte[] bad : invalid) {
                    byte[][] damaged = items.clone();
                    damaged[n / 2] = bad;
                    out.add(new Damage.Damaged("the encoding with element " + (n / 2) + " the malformed UTF-8 "
                            + java.util.HexFormat.of().formatHex(bad), layout(n, damaged)));
                }
            }
            return out;
        }
    }

    /**
     * codecs-transpose.rst: the encoded array {@code B} of {@code A} has
     * {@code B.shape[i] = A.shape[order[i]]} and {@code B[j] = A[i]} where {@code j[k] = i[order[k]]}.
     */
    private static final class Transpose implements ArrayToArray {
        @Override
        public String source() {
            return "codecs-transpose.rst";
        }

        private static int[] order(ObjectNode configuration, int rank) {
            JsonNode o = configuration.get("order");
            if (o == null || !o.isArray() || o.size() != rank) {
                throw Failures.violation("codecs-transpose.rst needs \"order\" with one entry per dimension (" + rank
                        + "), yet the codec accepted " + configuration);
            }
            int[] order = new int[rank];
            for (int i = 0; i < rank; i++) {
                order[i] = o.get(i).asInt();
            }
            return order;
        }

        @Override
        public NdArray encode(ObjectNode configuration, NdArray decoded) {
            long[] a = decoded.shape();
            int[] order = order(configuration, a.length);
            long[] b = new long[a.length];
            for (int i = 0; i < b.length; i++) {
                b[i] = a[order[i]];
            }
            // Walk B in C order; B's dimension i moves along A's dimension order[i].
            long[] aStride = RegionCopy.strides(a);
            long[] step = new long[b.length];
            for (int i = 0; i < b.length; i++) {
                step[i] = aStride[order[i]];
            }
            return gather(decoded, b, step);
        }

        @Override
        public NdArray decode(ObjectNode configuration, NdArray encoded, ChunkSpec spec) {
            long[] a = spec.shape();
            int[] order = order(configuration, a.length);
            // Walk A in C order; A's dimension order[i] moves along B's dimension i.
            long[] bStride = RegionCopy.strides(encoded.shape());
            long[] step = new long[a.length];
            for (int i = 0; i < a.length; i++) {
                step[order[i]] = bStride[i];
            }
            return gather(encoded, a, step);
        }

        /** out[p] = in[sum(p[d] * step[d])] for every position p of {@code outShape} in C order. */
        private static NdArray gather(NdArray in, long[] outShape, long[] step) {
            NdArray out = NdArray.allocate(in.dataType(), outShape);
            if (in.holdsObjects()) {
                long[] idx = new long[outShape.length];
                long from = 0;
                for (long flat = 0; flat < out.elementCount(); flat++) {
                    out.setBytes(flat, in.getBytes(from));
                    for (int d = outShape.length - 1; d >= 0; d--) {
                        idx[d]++;
                        from += step[d];
                        if (idx[d] < outShape[d]) {
                            break;
                        }
                        from -= idx[d] * step[d];
                        idx[d] = 0;
                    }
                }
                return out;
            }
            int es = in.dataType().size();
            long count = out.elementCount();
            ByteBuffer src = in.bytes();
            ByteBuffer dst = out.bytes();
            long[] idx = new long[outShape.length];
            long from = 0;
            for (long flat = 0; flat < count; flat++) {
                dst.put((int) (flat * es), src, (int) (from * es), es);
                for (int d = outShape.length - 1; d >= 0; d--) {
                    idx[d]++;
                    from += step[d];
                    if (idx[d] < outShape[d]) {
                        break;
                    }
                    from -= idx[d] * step[d];
                    idx[d] = 0;
                }
            }
            return out;
        }
    }
}
