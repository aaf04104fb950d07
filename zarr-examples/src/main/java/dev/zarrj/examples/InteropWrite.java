package dev.zarrj.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ArrayBuilder;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.ext.strings.FixedLengthUtf32Type;
import dev.zarrj.ext.strings.StringTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

/**
 * Writes arrays with zarrj for another implementation to read: every data type zarrita reads,
 * both byte orders, transpose, crc32c, gzip, both key encodings, edge chunks, absent chunks and
 * fill values; text ({@code string} with {@code vlen-utf8}, alone, with gzip, transposed and
 * sharded, and {@code fixed_length_utf32}). Next to them, {@code expected.json} lists every element's expected value; the
 * script {@code interop/zarrita/verify.mjs} reads the arrays with zarrita and compares.
 *
 * <p>Usage: {@code ZARRJ_MAIN=dev.zarrj.examples.InteropWrite bin/zarr-demo DIR}.
 */
public final class InteropWrite {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private InteropWrite() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "interop.zarr");
        Zarr zarr = Zarr.defaults();
        Store store = zarr.openStore(dir.toString());
        zarr.erase(store, "/");
        zarr.createGroup(store, "/", F.objectNode().put("writer", "zarrj"));
        ObjectNode expected = F.objectNode();
        ArrayNode arrays = expected.putArray("arrays");
        expected.putArray("groups").addObject().put("path", "/").set("attributes", F.objectNode().put("writer", "zarrj"));
        Random rnd = new Random(7);

        String le = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
        String be = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}";
        add(arrays, zarr.array(DataTypes.INT16, 7, 9).chunks(3, 4).fillValue(-1), store, "/ints/i2_le_partial",
                "[" + le + "]", rnd, new long[] {1, 2}, new long[] {4, 5});
        add(arrays, zarr.array(DataTypes.FLOAT32, 20, 20).chunks(8, 8).fillValue("NaN"), store, "/floats/f4_be_gzip",
                "[" + be + ",{\"name\":\"gzip\",\"configuration\":{\"level\":5}}]", rnd, null, null);
        add(arrays, zarr.array(DataTypes.UINT8, 30).chunks(7).keyEncoding("v2", "."), store, "/u1_v2_crc32c",
                "[{\"name\":\"bytes\"},{\"name\":\"crc32c\"}]", rnd, null, null);
        // An order that is not its own inverse, and chunks that are not cubes, so that a reader
        // confusing the order with its inverse, or the decoded shape with the encoded one, fails.
        add(arrays, zarr.array(DataTypes.INT32, 4, 5, 7).chunks(2, 3, 4), store, "/i4_transpose_gzip",
                "[{\"name\":\"transpose\",\"configuration\":{\"order\":[2,0,1]}}," + le
                        + ",{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]", rnd, null, null);
        add(arrays, zarr.array(DataTypes.FLOAT64, 10).chunks(4).keyEncoding("default", ".").fillValue(0.5), store,
                "/f8_dot_keys", "[" + be + ",{\"name\":\"crc32c\"}]", rnd, new long[] {2}, new long[] {3});
        add(arrays, zarr.array(DataTypes.BOOL, 10).chunks(4).fillValue(true), store, "/b1",
                "[{\"name\":\"bytes\"}]", rnd, new long[] {0}, new long[] {6});
        add(arrays, zarr.array(DataTypes.INT64, 6).chunks(4), store, "/i8", "[" + be + "]", rnd, null, null);
        // Values up to 2^64-1 in chunks; the fill value stays small because JavaScript's JSON parser
        // (and so zarrita) cannot hold 2^64-1 exactly.
        add(arrays, zarr.array(DataTypes.UINT64, 5).chunks(2).fillValue(7), store, "/u8", "[" + le + "]", rnd,
                new long[] {0}, new long[] {3});
        add(arrays, zarr.array(DataTypes.INT8, 3, 3).chunks(2, 2), store, "/i1", "[{\"name\":\"bytes\"}]", rnd, null, null);
        add(arrays, zarr.array(DataTypes.UINT16, 12).chunks(5), store, "/u2_be", "[" + be + "]", rnd, null, null);
        add(arrays, zarr.array(DataTypes.UINT32, 2, 3).chunks(2, 3).attributes(Map.of("units", "m")), store,
                "/nested/deeper/u4", "[" + le + ",{\"name\":\"gzip\",\"configuration\":{\"level\":9}}]", rnd, null, null);
        ((ObjectNode) arrays.get(arrays.size() - 1)).set("attributes", F.objectNode().put("units", "m"));
        if (installed(zarr, "zstd")) {
            add(arrays, zarr.array(DataTypes.FLOAT32, 33, 17).chunks(10, 8), store, "/zstd/f4_checksum",
                    "[" + le + ",{\"name\":\"zstd\",\"configuration\":{\"level\":3,\"checksum\":true}}]", rnd, null, null);
            add(arrays, zarr.array(DataTypes.INT64, 40).chunks(16), store, "/zstd/i8_level_minus_3",
                    "[" + be + ",{\"name\":\"zstd\",\"configuration\":{\"level\":-3,\"checksum\":false}}]", rnd, null, null);
        }
        if (installed(zarr, "blosc")) {
            add(arrays, zarr.array(DataTypes.FLOAT64, 25, 9).chunks(8, 4), store, "/blosc/f8_zstd_shuffle",
                    "[" + le + ",{\"name\":\"blosc\",\"configuration\":{\"cname\":\"zstd\",\"clevel\":5,"
                            + "\"shuffle\":\"shuffle\",\"typesize\":8,\"blocksize\":0}}]", rnd, null, null);
            add(arrays, zarr.array(DataTypes.UINT16, 100).chunks(30), store, "/blosc/u2_lz4_bitshuffle",
                    "[" + le + ",{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\",\"clevel\":9,"
                            + "\"shuffle\":\"bitshuffle\",\"typesize\":2,\"blocksize\":0}}]", rnd, new long[] {5}, new long[] {60});
        }
        if (installed(zarr, "sharding_indexed")) {
            String inner = "[" + le + ",{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]";
            String index = "[" + le + ",{\"name\":\"crc32c\"}]";
            add(arrays, zarr.array(DataTypes.INT32, 20, 30).chunks(10, 12), store, "/sharded/end_partial",
                    "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[5,4],\"codecs\":" + inner
                            + ",\"index_codecs\":" + index + ",\"index_location\":\"end\"}}]", rnd,
                    new long[] {3, 5}, new long[] {9, 20});
            // zarrita 0.7.5 reads the index from the end only; index_location "start" is covered by
            // zarrj's own tests against hand-computed layouts.
            add(arrays, zarr.array(DataTypes.UINT8, 16, 16).chunks(8, 8), store, "/sharded/transposed_inner",
                    "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,2],\"codecs\":"
                            + "[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},{\"name\":\"bytes\"}]"
                            + ",\"index_codecs\":" + index + ",\"index_location\":\"end\"}}]", rnd, null, null);
        }

        if (installed(zarr, "vlen-utf8")) {
            // Text: every script, emoji (surrogate pairs in Java, 4 bytes of UTF-8), controls, empty
            // strings; chunks never written read as the fill value.
            String[] texts = {"", "hello", "Zo\u00eb", "\u65e5\u672c\u8a9e", "\ud83d\ude00 emoji \ud83c\udf89",
                "\u0410\u0411\u0412 \u03b1\u03b2\u03b3", "tab\tnewline\n", "nul\u0000inside", "\"quoted\" \\",
                "long " + "\u00e9\ud83d\ude00x".repeat(60)};
            String vlen = "[{\"name\":\"vlen-utf8\"}]";
            addText(arrays, zarr.array(StringTypes.STRING, 13).chunks(4), store, "/strings/vlen_utf8", vlen, texts,
                    new long[] {1}, new long[] {7});
            addText(arrays, zarr.array(StringTypes.STRING, 5, 6).chunks(2, 4).fillValue("\u2205 fill \ud83d\udca4"), store,
                    "/strings/vlen_utf8_2d_fill_gzip", "[{\"name\":\"vlen-utf8\"},{\"name\":\"gzip\",\"configuration\":"
                            + "{\"level\":5}}]", texts, new long[] {0, 1}, new long[] {3, 5});
            addText(arrays, zarr.array(StringTypes.STRING, 4, 7).chunks(3, 4), store, "/strings/vlen_utf8_transposed",
                    "[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}}," + vlen.substring(1), texts,
                    null, null);
            if (installed(zarr, "sharding_indexed")) {
                addText(arrays, zarr.array(StringTypes.STRING, 12, 10).chunks(6, 10), store, "/strings/sharded_vlen_utf8",
                        "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[3,5],\"codecs\":" + vlen
                                + ",\"index_codecs\":[" + le + ",{\"name\":\"crc32c\"}],\"index_location\":\"end\"}}]",
                        texts, new long[] {2, 0}, new long[] {7, 5});
            }
            // NumPy's <U8 as zarr-python 3.1 writes it: 8 UTF-32 code units per element, little-endian.
            addText(arrays, zarr.array(StringTypes.fixedLengthUtf32(8), 10).chunks(4).fillValue("fill"), store,
                    "/strings/fixed_length_utf32", "[" + le + "]", new String[] {"", "abc", "Zo\u00eb",
                        "\u65e5\u672c\u8a9e", "\ud83d\ude00\ud83c\udf89", "eight ch", "a\u0000b"}, new long[] {0}, new long[] {7});
        }

        Files.write(dir.resolve("expected.json"), new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(expected));
        System.out.println("wrote " + arrays.size() + " arrays and expected.json to " + dir);
    }

    private static boolean installed(Zarr zarr, String codec) {
        return zarr.registry().names(dev.zarrj.core.registry.ExtensionPoint.CODEC).contains(codec);
    }

    /** Creates an array, writes random values into a region (or all of it), and records every element. */
    private static void add(ArrayNode out, ArrayBuilder builder, Store store, String path, String codecs, Random rnd,
                            long[] offset, long[] shape) {
        ZarrArray a = builder.codecs(codecs).create(store, path);
        long[] off = offset != null ? offset : new long[a.rank()];
        long[] ext = shape != null ? shape : a.shape();
        NdArray data = NdArray.allocate(a.dataType(), ext);
        for (long i = 0; i < data.elementCount(); i++) {
            randomElement(data, i, rnd);
        }
        if (a.dataType().kind() == ElementKind.UINT && a.dataType().size() == 8) {
            data.setLong(0, -1L); // 2^64 - 1
        }
        a.write(off, data);
        NdArray all = a.read();
        ObjectNode entry = out.addObject();
        entry.put("path", path);
        entry.put("data_type", a.dataType().name());
        ArrayNode s = entry.putArray("shape");
        for (long d : a.shape()) {
            s.add(d);
        }
        ArrayNode values = entry.putArray("values");
        DataType t = a.dataType();
        for (long i = 0; i < all.elementCount(); i++) {
            switch (t.kind()) {
                case BOOL -> values.add(all.getBoolean(i));
                case FLOAT -> {
                    double v = all.getDouble(i);
                    if (Double.isNaN(v)) {
                        values.add("NaN");
                    } else {
                        values.add(v);
                    }
                }
                default -> {
                    long v = all.getLong(i);
                    if (t.size() == 8) {
                        values.add(t.kind() == ElementKind.UINT ? Long.toUnsignedString(v) : Long.toString(v));
                    } else {
                        values.add(v);
                    }
                }
            }
        }
    }

    /**
     * Creates a text array, writes {@code texts} (cycled) into a region (or all of it), and records
     * every element as read back: a string, or the text of a {@code fixed_length_utf32} element.
     */
    private static void addText(ArrayNode out, ArrayBuilder builder, Store store, String path, String codecs,
                                String[] texts, long[] offset, long[] shape) {
        ZarrArray a = builder.codecs(codecs).create(store, path);
        long[] off = offset != null ? offset : new long[a.rank()];
        long[] ext = shape != null ? shape : a.shape();
        long n = 1;
        for (long d : ext) {
            n *= d;
        }
        String[] values = new String[(int) n];
        for (int i = 0; i < values.length; i++) {
            values[i] = texts[(i * 3 + 1) % texts.length];
        }
        FixedLengthUtf32Type fixed = a.dataType() instanceof FixedLengthUtf32Type f ? f : null;
        a.write(off, fixed != null ? fixed.copyOf(values, ext) : NdArray.copyOf(a.dataType(), values, ext));
        NdArray all = a.read();
        String[] back = fixed != null ? fixed.toStringArray(all) : all.toStringArray();
        ObjectNode entry = out.addObject();
        entry.put("path", path);
        entry.put("data_type", a.dataType().name());
        if (fixed != null) {
            entry.put("length_bytes", fixed.lengthBytes());
        }
        ArrayNode s = entry.putArray("shape");
        for (long d : a.shape()) {
            s.add(d);
        }
        ArrayNode v = entry.putArray("values");
        for (String t : back) {
            v.add(t);
        }
    }

    private static void randomElement(NdArray data, long i, Random rnd) {
        DataType t = data.dataType();
        switch (t.kind()) {
            case BOOL -> data.setBoolean(i, rnd.nextBoolean());
            case FLOAT -> data.setDouble(i, t.size() == 4 ? (double) (rnd.nextFloat() * 200 - 100) : rnd.nextDouble() * 1e6);
            default -> data.setLong(i, rnd.nextLong());
        }
    }
}
