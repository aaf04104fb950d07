package dev.zarrj.format.v2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.UnsupportedFormatException;
import java.util.Map;
import java.util.Set;

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
        String id = filter.get("id").textValue();
        String dtype = switch (id) {
            case "astype" -> filter.path("encode_dtype").asText(null);
            case "delta", "fixedscaleoffset", "quantize" -> filter.path("astype").asText(filter.path("dtype").asText(null));
            default -> null;
        };
        if (id.equals("packbits")) {
            return 1;
        }
        DType t = dtype == null ? null : DType.parseOrNull(dtype);
        return t == null ? size : t.itemSize();
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
