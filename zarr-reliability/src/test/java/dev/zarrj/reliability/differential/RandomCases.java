package dev.zarrj.reliability.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * zarrj's side of the differential test: a seeded generator of random array cases (data type,
 * shape, chunking, sharding, codec chain, fill value, overlapping writes, chunks never written),
 * each with its expected contents worked out here, independently of zarrj's codec pipeline.
 * Case {@code n} of seed {@code s} depends on nothing else, so one case replays alone.
 *
 * <p>What zarrita 0.7.5 cannot read is left out, each with the zarrita behaviour and the spec
 * text (see {@link #shape}, {@link #sharding}, {@link #fill} and {@link #TYPES}).
 */
final class RandomCases {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Every v3 core data type zarrita has, and {@code string} (vlen-utf8). Not complex64 or
     * complex128: zarrita has no typed array for them and refuses the data types (core.rst lists
     * both among the core data types).
     */
    static final List<String> TYPES = List.of("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
            "uint64", "float16", "float32", "float64", "string");

    /** One write: its offset and shape, and the elements (little-endian bytes, or strings). */
    record Write(long[] offset, long[] shape, byte[] bytes, String[] strings) {
        String describe() {
            return Arrays.toString(offset) + "+" + Arrays.toString(shape);
        }
    }

    /**
     * One case: the array's zarr.json document (without attributes), the writes in order, and the
     * expected contents (little-endian bytes in C order, or strings) and fill value.
     */
    record Case(long seed, int number, String dataType, long[] shape, ObjectNode metadata, List<Write> writes,
            byte[] expected, String[] expectedStrings, byte[] fillBytes, String fillString) {
        String path() {
            return "case-" + number;
        }

        boolean strings() {
            return expectedStrings != null;
        }

        /** Everything needed to see what the case is, for failure messages. */
        String describe() {
            return "seed " + seed + " case " + number + ": " + dataType + " shape " + Arrays.toString(shape) + " chunks "
                    + metadata.at("/chunk_grid/configuration/chunk_shape") + " fill " + metadata.get("fill_value")
                    + " codecs " + metadata.get("codecs") + " writes "
                    + writes.stream().map(Write::describe).collect(Collectors.joining(", ", "[", "]"));
        }
    }

    private RandomCases() {}

    /** Case {@code number} of {@code seed}. */
    static Case generate(long seed, int number) {
        SplittableRandom rnd = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (number + 1L)));
        // Burn the first values: nearby seeds start differently.
        rnd = rnd.split();
        String type = TYPES.get(rnd.nextInt(TYPES.size()));
        boolean strings = type.equals("string");
        int size = strings ? 0 : sizeOf(type);
        long[] shape = shape(rnd);
        int rank = shape.length;

        ObjectNode meta = JSON.objectNode();
        meta.put("zarr_format", 3);
        meta.put("node_type", "array");
        meta.set("shape", longs(shape));
        meta.put("data_type", type);
        long[] chunks = new long[rank];
        ArrayNode codecs;
        // At most a few hundred chunks per case, also for large arrays.
        boolean large = Arrays.stream(shape).reduce(1, Math::multiplyExact) > 2000;
        if (rank > 0 && rnd.nextInt(10) < 3) {
            long[] inner = new long[rank];
            for (int d = 0; d < rank; d++) {
                inner[d] = large ? ceilDiv(shape[d], 8) + rnd.nextLong(shape[d] - ceilDiv(shape[d], 8) + 1)
                        : 1 + rnd.nextInt((int) Math.max(1, Math.min(3, shape[d])));
                chunks[d] = inner[d] * (1 + rnd.nextInt(3));
            }
            codecs = JSON.arrayNode().add(sharding(rnd, type, inner));
        } else {
            for (int d = 0; d < rank; d++) {
                long min = large ? ceilDiv(shape[d], 20) : 1;
                chunks[d] = min + rnd.nextLong(Math.max(2, shape[d] + 1) - min + 1);
            }
            codecs = chain(rnd, type, rank);
        }
        ObjectNode grid = meta.putObject("chunk_grid");
        grid.put("name", "regular");
        grid.putObject("configuration").set("chunk_shape", longs(chunks));
        ObjectNode keys = meta.putObject("chunk_key_encoding");
        keys.put("name", "default");
        keys.putObject("configuration").put("separator", rnd.nextBoolean() ? "/" : ".");
        meta.set("codecs", codecs);

        Object[] fill = fill(rnd, type);
        meta.set("fill_value", (JsonNode) fill[0]);
        int n = Math.toIntExact(Arrays.stream(shape).reduce(1, Math::multiplyExact));
        byte[] expected = null;
        String[] expectedStrings = null;
        if (strings) {
            expectedStrings = new String[n];
            Arrays.fill(expectedStrings, (String) fill[1]);
        } else {
            expected = new byte[n * size];
            for (int i = 0; i < n; i++) {
                System.arraycopy((byte[]) fill[1], 0, expected, i * size, size);
            }
        }

        List<Write> writes = new ArrayList<>();
        if (n > 0) {
            for (int k = rnd.nextInt(4); k > 0; k--) {
                long[] offset = new long[rank];
                long[] wshape = new long[rank];
                for (int d = 0; d < rank; d++) {
                    offset[d] = rnd.nextLong(shape[d]);
                    wshape[d] = 1 + rnd.nextLong(shape[d] - offset[d]);
                }
                int m = Math.toIntExact(Arrays.stream(wshape).reduce(1, Math::multiplyExact));
                byte[] bytes = null;
                String[] values = null;
                // Sometimes the fill value throughout: chunks it covers whole may be erased.
                boolean fillOnly = rnd.nextInt(100) < 15;
                if (strings) {
                    values = new String[m];
                    for (int i = 0; i < m; i++) {
                        values[i] = fillOnly ? (String) fill[1] : randomString(rnd);
                    }
                } else {
                    bytes = new byte[m * size];
                    for (int i = 0; i < m; i++) {
                        System.arraycopy(fillOnly ? (byte[]) fill[1] : value(rnd, type), 0, bytes, i * size, size);
                    }
                }
                Write w = new Write(offset, wshape, bytes, values);
                writes.add(w);
                apply(w, shape, size, expected, expectedStrings);
            }
        }
        return new Case(seed, number, type, shape, meta, List.copyOf(writes), expected, expectedStrings,
                strings ? null : (byte[]) fill[1], strings ? (String) fill[1] : null);
    }

    /** Copies a write into the expected contents, element by element in C order. */
    private static void apply(Write w, long[] shape, int size, byte[] expected, String[] expectedStrings) {
        int rank = shape.length;
        long[] idx = new long[rank];
        int m = Math.toIntExact(Arrays.stream(w.shape()).reduce(1, Math::multiplyExact));
        for (int i = 0; i < m; i++) {
            long flat = 0;
            for (int d = 0; d < rank; d++) {
                flat = flat * shape[d] + w.offset()[d] + idx[d];
            }
            if (expectedStrings != null) {
                expectedStrings[(int) flat] = w.strings()[i];
            } else {
                System.arraycopy(w.bytes(), i * size, expected, (int) flat * size, size);
            }
            for (int d = rank - 1; d >= 0; d--) {
                if (++idx[d] < w.shape()[d]) {
                    break;
                }
                idx[d] = 0;
            }
        }
    }

    /**
     * Rank 0 to 4, with length-0 and length-1 dimensions. (zarrita 0.7.5 throws on reading an array
     * with a length-0 dimension; differential.mjs then compares the metadata alone, as there is no
     * element.)
     */
    private static long[] shape(SplittableRandom rnd) {
        if (rnd.nextInt(100) < 3) {
            // Now and then a larger array (up to 40,000 elements): compressors over more than a few bytes.
            int rank = 1 + rnd.nextInt(3);
            long[] shape = new long[rank];
            for (int d = 0; d < rank; d++) {
                shape[d] = 20 + rnd.nextInt(new int[] {0, 39_980, 180, 14}[rank]);
            }
            return shape;
        }
        int rank = rnd.nextInt(5);
        int max = new int[] {1, 12, 8, 6, 4}[rank];
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) {
            int r = rnd.nextInt(100);
            shape[d] = r < 7 ? 0 : r < 22 ? 1 : 2 + rnd.nextInt(max - 1);
        }
        return shape;
    }

    /**
     * A sharding codec with a random inner chain, index codecs (little or big endian, with or
     * without crc32c) and the index at the start or the end. (zarrita 0.7.5 ignores
     * {@code index_location} and always reads the index from the shard's last bytes, though the
     * sharding spec allows "start"; differential.mjs hands it the first bytes for those arrays.)
     * Neither sharding inside sharding nor a transpose before the sharding codec: zarrita handles
     * sharding only as an array's first and only codec (its codec registry has no
     * sharding_indexed), while the sharding spec lets it be any array-to-bytes codec of a chain.
     */
    private static ObjectNode sharding(SplittableRandom rnd, String type, long[] inner) {
        ObjectNode c = JSON.objectNode();
        c.put("name", "sharding_indexed");
        ObjectNode conf = c.putObject("configuration");
        conf.set("chunk_shape", longs(inner));
        conf.set("codecs", chain(rnd, type, inner.length));
        ArrayNode index = conf.putArray("index_codecs");
        index.add(bytes(rnd.nextBoolean() ? "little" : "big"));
        if (rnd.nextBoolean()) {
            index.addObject().put("name", "crc32c");
        }
        conf.put("index_location", rnd.nextBoolean() ? "start" : "end");
        return c;
    }

    /** transpose (sometimes), bytes or vlen-utf8, then up to two compressors and maybe crc32c. */
    private static ArrayNode chain(SplittableRandom rnd, String type, int rank) {
        ArrayNode chain = JSON.arrayNode();
        if (rank >= 2 && rnd.nextInt(10) < 3) {
            List<Integer> order = new ArrayList<>();
            for (int d = 0; d < rank; d++) {
                order.add(d);
            }
            for (int i = rank - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                order.set(i, order.set(j, order.get(i)));
            }
            ObjectNode t = chain.addObject();
            t.put("name", "transpose");
            ArrayNode o = t.putObject("configuration").putArray("order");
            order.forEach(o::add);
        }
        if (type.equals("string")) {
            chain.addObject().put("name", "vlen-utf8");
        } else if (sizeOf(type) == 1) {
            chain.add(rnd.nextBoolean() ? JSON.objectNode().put("name", "bytes") : bytes("little"));
        } else {
            chain.add(bytes(rnd.nextBoolean() ? "little" : "big"));
        }
        int typeSize = type.equals("string") ? 1 : sizeOf(type);
        int compressors = new int[] {0, 0, 1, 1, 2}[rnd.nextInt(5)];
        for (int k = 0; k < compressors; k++) {
            ObjectNode c = chain.addObject();
            switch (rnd.nextInt(3)) {
                case 0 -> c.put("name", "gzip").putObject("configuration").put("level", rnd.nextInt(10));
                case 1 -> c.put("name", "zstd").putObject("configuration").put("level", rnd.nextInt(15) - 5)
                        .put("checksum", rnd.nextBoolean());
                default -> c.put("name", "blosc").putObject("configuration")
                        .put("cname", pick(rnd, "lz4", "lz4hc", "blosclz", "zstd", "zlib"))
                        .put("clevel", rnd.nextInt(10))
                        .put("shuffle", pick(rnd, "noshuffle", "shuffle", "bitshuffle"))
                        .put("typesize", typeSize)
                        .put("blocksize", 0);
            }
        }
        if (rnd.nextInt(10) < 3) {
            int at = chain.size() - compressors + rnd.nextInt(compressors + 1);
            chain.insert(at, JSON.objectNode().put("name", "crc32c"));
        }
        return chain;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static ObjectNode bytes(String endian) {
        ObjectNode b = JSON.objectNode().put("name", "bytes");
        b.putObject("configuration").put("endian", endian);
        return b;
    }

    private static String pick(SplittableRandom rnd, String... xs) {
        return xs[rnd.nextInt(xs.length)];
    }

    private static ArrayNode longs(long[] xs) {
        ArrayNode a = JSON.arrayNode();
        for (long x : xs) {
            a.add(x);
        }
        return a;
    }

    static int sizeOf(String type) {
        return switch (type) {
            case "bool", "int8", "uint8" -> 1;
            case "int16", "uint16", "float16" -> 2;
            case "int32", "uint32", "float32" -> 4;
            case "int64", "uint64", "float64" -> 8;
            default -> throw new IllegalArgumentException(type);
        };
    }

    private static final String[] STRING_PIECES = {"", "a", "zarr", "é", "日本", "🦀", " ", "\u0000", "x".repeat(40),
        "\"quoted\"", "line\nbreak"};

    private static String randomString(SplittableRandom rnd) {
        StringBuilder s = new StringBuilder();
        for (int k = rnd.nextInt(4); k > 0; k--) {
            s.append(STRING_PIECES[rnd.nextInt(STRING_PIECES.length)]);
        }
        return s.toString();
    }

    /**
     * One element's little-endian bytes: often an extreme or special value (NaN, ±Infinity, -0.0,
     * the largest and smallest magnitudes), else random bits (which include NaNs with payloads and
     * subnormals for the floating-point types).
     */
    private static byte[] value(SplittableRandom rnd, String type) {
        int size = sizeOf(type);
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        if (type.equals("bool")) {
            return new byte[] {(byte) (rnd.nextBoolean() ? 1 : 0)};
        }
        if (rnd.nextInt(5) == 0) {
            long[] specials = specialBits(type);
            long bits = specials[rnd.nextInt(specials.length)];
            for (int i = 0; i < size; i++) {
                b.put((byte) (bits >>> (8 * i)));
            }
            return b.array();
        }
        long bits = rnd.nextLong();
        for (int i = 0; i < size; i++) {
            b.put((byte) (bits >>> (8 * i)));
        }
        return b.array();
    }

    private static long[] specialBits(String type) {
        return switch (type) {
            case "int8" -> new long[] {0x80, 0x7f, 0, 0xff};
            case "uint8" -> new long[] {0, 0xff};
            case "int16" -> new long[] {0x8000, 0x7fff, 0, 0xffff};
            case "uint16" -> new long[] {0, 0xffff};
            case "int32" -> new long[] {0x80000000L, 0x7fffffffL, 0, 0xffffffffL};
            case "uint32" -> new long[] {0, 0xffffffffL};
            case "int64" -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1};
            case "uint64" -> new long[] {0, -1};
            // NaN, -NaN, +Inf, -Inf, -0, max, smallest subnormal
            case "float16" -> new long[] {0x7e00, 0xfe00, 0x7c00, 0xfc00, 0x8000, 0x7bff, 0x0001};
            case "float32" -> new long[] {0x7fc00000L, 0xffc00000L, 0x7f800000L, 0xff800000L, 0x80000000L, 0x7f7fffffL, 1};
            case "float64" -> new long[] {0x7ff8000000000000L, 0xfff8000000000000L, 0x7ff0000000000000L,
                0xfff0000000000000L, 0x8000000000000000L, 0x7fefffffffffffffL, 1};
            default -> throw new IllegalArgumentException(type);
        };
    }

    /**
     * The fill value: {JSON value, its little-endian bytes (or the string)}. Zero, extremes and
     * random values; for floating-point types also "NaN", "Infinity", "-Infinity" and -0.0.
     *
     * <p>Not the hexadecimal forms ("0x7fc00001"), which core.rst allows for floating-point fill
     * values ("a string of the form 0xYYYYYYYY ... the raw byte representation"): zarrita 0.7.5
     * maps only "NaN", "Infinity" and "-Infinity" and leaves any other string as is, so the array
     * fills with a string. 64-bit integers stay within ±(2^53 - 1): zarrita parses zarr.json with
     * JSON.parse, so larger integers lose their low bits before they become a BigInt (core.rst:
     * the fill value of an integer type is a JSON number that is a value of the data type).
     */
    private static Object[] fill(SplittableRandom rnd, String type) {
        switch (type) {
            case "bool" -> {
                boolean v = rnd.nextBoolean();
                return new Object[] {JSON.booleanNode(v), new byte[] {(byte) (v ? 1 : 0)}};
            }
            case "string" -> {
                String v = pick(rnd, "", "fill", "é🦀");
                return new Object[] {JSON.textNode(v), v};
            }
            case "float16", "float32", "float64" -> {
                return floatFill(rnd, type);
            }
            default -> {
                int size = sizeOf(type);
                boolean signed = type.startsWith("int");
                BigInteger min = signed ? BigInteger.ONE.shiftLeft(size * 8 - 1).negate() : BigInteger.ZERO;
                BigInteger max = signed ? BigInteger.ONE.shiftLeft(size * 8 - 1).subtract(BigInteger.ONE)
                        : BigInteger.ONE.shiftLeft(size * 8).subtract(BigInteger.ONE);
                if (size == 8) {
                    BigInteger lim = BigInteger.valueOf((1L << 53) - 1);
                    min = signed ? lim.negate() : BigInteger.ZERO;
                    max = lim;
                }
                BigInteger v = switch (rnd.nextInt(4)) {
                    case 0 -> BigInteger.ZERO;
                    case 1 -> min;
                    case 2 -> max;
                    default -> min.add(BigInteger.valueOf(rnd.nextLong(1L << 40))
                            .mod(max.subtract(min).add(BigInteger.ONE)));
                };
                long bits = v.longValue();
                byte[] le = new byte[size];
                for (int i = 0; i < size; i++) {
                    le[i] = (byte) (bits >>> (8 * i));
                }
                return new Object[] {JSON.numberNode(v), le};
            }
        }
    }

    private static Object[] floatFill(SplittableRandom rnd, String type) {
        double v = switch (rnd.nextInt(8)) {
            case 0 -> Double.NaN;
            case 1 -> Double.POSITIVE_INFINITY;
            case 2 -> Double.NEGATIVE_INFINITY;
            case 3 -> -0.0;
            case 4 -> 0.0;
            case 5 -> switch (type) {
                case "float16" -> 65504.0;
                case "float32" -> Float.MAX_VALUE;
                default -> Double.MAX_VALUE;
            };
            case 6 -> switch (type) {
                case "float16" -> Math.scalb(1.0, -24);
                case "float32" -> Float.MIN_VALUE;
                default -> Double.MIN_VALUE;
            };
            default -> type.equals("float16") ? halfToDouble(rnd.nextInt(0x7c00) | (rnd.nextBoolean() ? 0x8000 : 0))
                    : (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(10) - 3);
        };
        long bits;
        int size = sizeOf(type);
        switch (type) {
            case "float16" -> bits = doubleToHalf(v);
            case "float32" -> {
                float f = (float) v;
                v = f;
                bits = Float.floatToRawIntBits(f) & 0xffffffffL;
            }
            default -> bits = Double.doubleToRawLongBits(v);
        }
        byte[] le = new byte[size];
        for (int i = 0; i < size; i++) {
            le[i] = (byte) (bits >>> (8 * i));
        }
        JsonNode json;
        if (Double.isNaN(v)) {
            json = JSON.textNode("NaN");
        } else if (Double.isInfinite(v)) {
            json = JSON.textNode(v > 0 ? "Infinity" : "-Infinity");
        } else {
            // The shortest decimal that reads back as the double; exact for the narrower types too.
            json = JSON.numberNode(v);
        }
        return new Object[] {json, le};
    }

    /** A binary16 value as a double (exact). */
    static double halfToDouble(int h) {
        int exp = (h >>> 10) & 0x1f;
        int mant = h & 0x3ff;
        double magnitude = exp == 0 ? Math.scalb((double) mant, -24)
                : exp == 31 ? (mant == 0 ? Double.POSITIVE_INFINITY : Double.NaN)
                : Math.scalb((double) (1024 + mant), exp - 25);
        return (h & 0x8000) != 0 ? -magnitude : magnitude;
    }

    /** The binary16 bits of a double that is a binary16 value, NaN or an infinity. */
    private static long doubleToHalf(double v) {
        if (Double.isNaN(v)) {
            return 0x7e00;
        }
        for (int h = 0; h < 0x10000; h++) {
            if (Double.doubleToRawLongBits(halfToDouble(h)) == Double.doubleToRawLongBits(v)) {
                return h;
            }
        }
        throw new IllegalArgumentException(v + " is not a binary16 value");
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
