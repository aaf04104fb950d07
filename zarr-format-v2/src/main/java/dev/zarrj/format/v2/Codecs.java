package dev.zarrj.format.v2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.UnsupportedFormatException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * numcodecs codec configurations ({@code {"id": "blosc", ...}}) and their v3 codecs: {@code blosc},
 * {@code zstd} and {@code gzip} become the v3 codecs of those names, every other id {@code X}
 * becomes {@code numcodecs.X} with the same configuration (what zarr-python 3 reads them as).
 */
final class Codecs {
    /** numcodecs filters that turn an array into an array. */
    static final Set<String> ARRAY_TO_ARRAY = Set.of("delta", "fixedscaleoffset", "quantize", "bitround", "astype",
            "packbits");
    /** numcodecs ids that turn bytes into bytes. */
    static final Set<String> BYTES_TO_BYTES = Set.of("zlib", "gzip", "bz2", "lzma", "lz4", "adler32", "crc32", "crc32c",
            "fletcher32", "jenkins_lookup3", "shuffle", "blosc", "zstd");
    /** numcodecs' object codecs: the first filter of an object ({@code |O}) array. */
    static final Set<String> OBJECT_CODECS = Set.of("vlen-utf8", "vlen-bytes", "vlen-array", "pickle", "json2", "msgpack2",
            "json", "msgpack", "categorize");
    private static final String[] SHUFFLES = {"noshuffle", "shuffle", "bitshuffle"};

    private Codecs() {}

    /** The codec's id, checked: a JSON object with a string {@code id}. */
    static String id(JsonNode codec, Loc loc, String pointer) {
        if (!codec.isObject()) {
            throw loc.invalid(pointer, "a codec must be a JSON object with an \"id\", found " + Json.abbreviate(codec));
        }
        JsonNode id = codec.get("id");
        if (id == null || !id.isTextual() || id.textValue().isEmpty()) {
            throw loc.invalid(pointer + "/id", "a codec needs its numcodecs id as a non-empty string, found "
                    + Json.abbreviate(id));
        }
        return id.textValue();
    }

    /**
     * The v3 codec for a numcodecs configuration.
     *
     * @param itemSize the size of the elements that reach it, for blosc's {@code typesize}
     */
    static ObjectNode toV3(ObjectNode codec, int itemSize, Loc loc, String pointer) {
        String id = codec.get("id").textValue();
        ObjectNode out = Json.F.objectNode();
        ObjectNode c = Json.F.objectNode();
        switch (id) {
            case "blosc": {
                only(codec, loc, pointer, "cname", "clevel", "shuffle", "blocksize");
                String cname = text(codec, "cname", "lz4", loc, pointer);
                int clevel = integer(codec, "clevel", 5, loc, pointer);
                int shuffle = integer(codec, "shuffle", 1, loc, pointer);
                if (shuffle < -1 || shuffle > 2) {
                    throw loc.invalid(pointer + "/shuffle", "blosc's shuffle must be -1 (auto), 0 (none), 1 (byte) or 2"
                            + " (bit), found " + shuffle);
                }
                if (shuffle == -1) {    // numcodecs' AUTOSHUFFLE
                    shuffle = itemSize == 1 ? 2 : 1;
                }
                // c-blosc treats a type size above 255 as 1.
                int typesize = itemSize > 255 ? 1 : itemSize;
                c.put("cname", cname).put("clevel", clevel).put("shuffle", SHUFFLES[shuffle]).put("typesize", typesize)
                        .put("blocksize", integer(codec, "blocksize", 0, loc, pointer));
                return out.put("name", "blosc").set("configuration", c);
            }
            case "zstd": {
                only(codec, loc, pointer, "level", "checksum");
                c.put("level", integer(codec, "level", 1, loc, pointer));
                JsonNode checksum = codec.path("checksum");
                if (!checksum.isMissingNode() && !checksum.isBoolean()) {
                    throw loc.invalid(pointer + "/checksum", "zstd's checksum must be true or false, found "
                            + Json.abbreviate(checksum));
                }
                c.put("checksum", checksum.asBoolean(false));
                return out.put("name", "zstd").set("configuration", c);
            }
            case "gzip": {
                only(codec, loc, pointer, "level");
                c.put("level", integer(codec, "level", 1, loc, pointer));
                return out.put("name", "gzip").set("configuration", c);
            }
            default: {
                for (Map.Entry<String, JsonNode> e : codec.properties()) {
                    if (!e.getKey().equals("id")) {
                        c.set(e.getKey(), e.getValue().deepCopy());
                    }
                }
                return out.put("name", "numcodecs." + id).set("configuration", c);
            }
        }
    }

    /**
     * The size of the elements a filter hands on: its {@code astype} or encoded dtype, 1 for
     * {@code packbits}, the same otherwise.
     */
    static int sizeAfter(ObjectNode filter, int size) {
        if (filter.get("id").textValue().equals("packbits")) {
            return 1;
        }
        String field = outputField(filter);
        NumpyDtype t = field == null ? null : NumpyDtype.of(filter.get(field));
        return t == null ? size : t.size();
    }

    /**
     * The byte order of the elements a filter hands on, given the order of those that reach it:
     * numcodecs filters work on NumPy arrays, so the order is the one of the dtype the filter
     * declares for its output ({@code null} for one-byte types and {@code packbits}' bytes), the
     * same as what reaches it for filters that declare none.
     */
    static String endianAfter(ObjectNode filter, String endian) {
        if (filter.get("id").textValue().equals("packbits")) {
            return null;
        }
        String field = outputField(filter);
        NumpyDtype t = field == null ? null : NumpyDtype.of(filter.get(field));
        return t == null ? endian : t.endian();
    }

    /**
     * The field naming the dtype a filter hands on ({@code astype}, which defaults to
     * {@code dtype}; {@code encode_dtype}), or null for filters without one.
     */
    static String outputField(ObjectNode filter) {
        return switch (filter.get("id").textValue()) {
            case "astype" -> "encode_dtype";
            case "delta", "fixedscaleoffset", "quantize" -> filter.has("astype") ? "astype" : "dtype";
            default -> null;
        };
    }

    /** The field naming the dtype a filter views its input as, or null for filters without one. */
    static String inputField(ObjectNode filter) {
        return switch (filter.get("id").textValue()) {
            case "astype" -> "decode_dtype";
            case "delta", "fixedscaleoffset", "quantize" -> "dtype";
            default -> null;
        };
    }

    /** The dtype fields of the numcodecs filters that have them. */
    private static List<String> dtypeFields(String id) {
        return switch (id) {
            case "astype" -> List.of("encode_dtype", "decode_dtype");
            case "delta", "fixedscaleoffset", "quantize" -> List.of("dtype", "astype");
            default -> List.of();
        };
    }

    /**
     * A copy of a numcodecs filter configuration whose dtype fields are spelled in byte order
     * {@code endian} ({@code "little"} or {@code "big"}); one-byte types and, for little endian,
     * names such as {@code "float64"} stay as they are.
     *
     * @param id the numcodecs id
     * @return the copy, or the field whose value has no spelling in that order
     */
    static Reordered inByteOrder(ObjectNode filter, String id, String endian) {
        ObjectNode out = filter.deepCopy();
        for (String field : dtypeFields(id)) {
            JsonNode v = filter.get(field);
            if (v == null || v.isNull()) {
                continue;
            }
            String spelled = NumpyDtype.spelledIn(v, endian);
            if (spelled == null) {
                return new Reordered(null, field);
            }
            out.put(field, spelled);
        }
        return new Reordered(out, null);
    }

    /** A filter configuration in another byte order, or the dtype field that prevented it. */
    record Reordered(ObjectNode filter, String failedField) {}

    /**
     * A dtype as numcodecs configurations spell it ({@code "<f8"}, {@code ">i2"}, {@code "|u1"},
     * {@code "float64"}), as far as byte order goes.
     *
     * @param size   bytes per element
     * @param endian {@code "little"} or {@code "big"}, null for one-byte types; names and
     *               {@code "="} are native, taken as little endian as on the machines zarr-python runs on
     */
    record NumpyDtype(char code, int size, String endian) {
        private static final Pattern STR = Pattern.compile("([<>|=]?)([biuf])(\\d{1,2})");
        private static final Pattern NAME = Pattern.compile("(u?int|float)(8|16|32|64)");

        static NumpyDtype of(JsonNode v) {
            if (v == null || !v.isTextual()) {
                return null;
            }
            String s = v.textValue();
            if (s.equals("bool") || s.equals("?")) {
                return new NumpyDtype('b', 1, null);
            }
            Matcher m = NAME.matcher(s);
            if (m.matches()) {
                int size = Integer.parseInt(m.group(2)) / 8;
                char code = m.group(1).equals("float") ? 'f' : m.group(1).equals("int") ? 'i' : 'u';
                return new NumpyDtype(code, size, size == 1 ? null : "little");
            }
            m = STR.matcher(s);
            if (!m.matches()) {
                return null;
            }
            int size = Integer.parseInt(m.group(3));
            String order = m.group(1);
            return new NumpyDtype(m.group(2).charAt(0), size, size == 1 || order.equals("|") ? null
                    : order.equals(">") ? "big" : "little");
        }

        /** {@code v} spelled in byte order {@code endian}, or null when it is no dtype this knows. */
        static String spelledIn(JsonNode v, String endian) {
            NumpyDtype t = of(v);
            if (t == null) {
                return null;
            }
            String s = v.textValue();
            if (t.endian == null || t.endian.equals(endian)) {
                return s;
            }
            return (endian.equals("big") ? ">" : "<") + t.code + t.size;
        }
    }

    /**
     * The numcodecs configuration of a v3 codec used as a v2 filter or compressor.
     *
     * @throws UnsupportedFormatException naming {@code pointer} when it has no numcodecs id
     */
    static ObjectNode toV2(JsonNode codec, String pointer) {
        String name = Json.name(codec);
        ObjectNode c = Json.configuration(codec);
        ObjectNode out = Json.F.objectNode();
        switch (name) {
            case "blosc": {
                String shuffle = c.path("shuffle").asText("noshuffle");
                int s = java.util.List.of(SHUFFLES).indexOf(shuffle);
                out.put("blocksize", c.path("blocksize").asInt(0)).put("clevel", c.path("clevel").asInt())
                        .put("cname", c.path("cname").asText()).put("id", "blosc").put("shuffle", Math.max(s, 0));
                return out;
            }
            case "zstd":
                if (c.path("checksum").asBoolean(false)) {
                    out.put("checksum", true);
                }
                out.put("id", "zstd").put("level", c.path("level").asInt(0));
                return Json.sorted(out);
            case "gzip":
                return out.put("id", "gzip").put("level", c.path("level").asInt(6));
            case "crc32c":
                throw new UnsupportedFormatException(pointer, "the crc32c codec has no numcodecs id zarr-python 2 reads"
                        + " (numcodecs 0.11 lacks crc32c), so Zarr v2 cannot store it");
            default:
                if (name.startsWith("numcodecs.") && name.length() > "numcodecs.".length()) {
                    out.setAll(c);
                    out.put("id", name.substring("numcodecs.".length()));
                    return Json.sorted(out);
                }
                throw new UnsupportedFormatException(pointer, "the codec \"" + name + "\" has no numcodecs id, so Zarr v2"
                        + " cannot store it; v2 stores blosc, zstd, gzip and the numcodecs.* codecs");
        }
    }

    private static void only(ObjectNode codec, Loc loc, String pointer, String... allowed) {
        Set<String> ok = Set.of(allowed);
        for (Map.Entry<String, JsonNode> e : codec.properties()) {
            if (!e.getKey().equals("id") && !ok.contains(e.getKey())) {
                throw loc.unsupported(pointer + "/" + Loc.escape(e.getKey()), "the " + codec.get("id").textValue()
                        + " codec's field \"" + e.getKey() + "\" is not supported; it takes " + String.join(", ", allowed));
            }
        }
    }

    private static int integer(ObjectNode codec, String field, int absent, Loc loc, String pointer) {
        JsonNode v = codec.get(field);
        if (v == null) {
            return absent;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw loc.invalid(pointer + "/" + field, "the " + codec.get("id").textValue() + " codec's " + field
                    + " must be an integer, found " + Json.abbreviate(v));
        }
        return v.intValue();
    }

    private static String text(ObjectNode codec, String field, String absent, Loc loc, String pointer) {
        JsonNode v = codec.get(field);
        if (v == null) {
            return absent;
        }
        if (!v.isTextual()) {
            throw loc.invalid(pointer + "/" + field, "the " + codec.get("id").textValue() + " codec's " + field
                    + " must be a string, found " + Json.abbreviate(v));
        }
        return v.textValue();
    }
}
