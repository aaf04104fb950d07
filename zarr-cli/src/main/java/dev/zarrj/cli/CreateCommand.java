package dev.zarrj.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ArrayBuilder;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.ext.strings.FixedLengthUtf32Type;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code zarr create}: an array from a metadata document or from options, or a group. */
@Command(name = "create",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr create d.zarr --path /t --shape 800,600 --chunks 100,100 --dtype float32",
                "  zarr create d.zarr --path /s --shape 4096 --chunks 64 --shard 512 --dtype int8",
                "  zarr create d.zarr --path /runs --group --attrs '{\"owner\":\"me\"}'"}, mixinStandardHelpOptions = true,
        description = "Create an array (from --metadata, or from --shape/--chunks/--dtype...) or a group (--group).")
final class CreateCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "STORE")
    String store;

    @Option(names = "--path", required = true, description = "Where to create the node.")
    String path;

    @Option(names = "--group", description = "Create a group instead of an array.")
    boolean group;

    @Option(names = "--metadata", paramLabel = "FILE", description = "A complete array zarr.json, written as given after validation.")
    Path metadata;

    @Option(names = "--shape", description = "Comma-separated, e.g. 1000,2000.")
    String shape;

    @Option(names = "--chunks", description = "Chunk shape (inner chunk shape with --shard).")
    String chunks;

    @Option(names = "--shard", description = "Shard shape: chunks are stored as inner chunks of sharding_indexed.")
    String shard;

    @Option(names = "--dtype", description = "The data type: a core one (bool, int8..uint64, float16/32/64, "
            + "complex64/128, r<bits>), any installed type by name (e.g. bfloat16, string, bytes), NumPy's time types as "
            + "numpy.datetime64[10ms] or numpy.timedelta64[s] (scale optional; no brackets: the generic unit), "
            + "fixed_length_utf32[<U12] (at most 12 code points; also fixed_length_utf32[12]), or the "
            + "data_type JSON, e.g. '{\"name\": \"numpy.datetime64\", \"configuration\": {\"unit\": \"s\", "
            + "\"scale_factor\": 1}}'.")
    String dtype;

    @Option(names = "--codecs", paramLabel = "JSON", description = "The codec chain (inner chain with --shard) as a JSON array.")
    String codecs;

    @Option(names = "--fill", paramLabel = "V", description = "Fill value: a number, true/false, NaN, Infinity, -Infinity, "
            + "0x..., NaT, or JSON; for string types the text itself (or a JSON string), for bytes base64 text.")
    String fill;

    @Option(names = "--attrs", paramLabel = "JSON", description = "Attributes as a JSON object.")
    String attrs;

    @Option(names = "--dimension-names", split = ",", description = "Comma-separated dimension names.")
    String[] dimensionNames;

    @Option(names = "--overwrite", description = "Replace an existing node at the path.")
    boolean overwrite;

    @Option(names = "--zarr-format", paramLabel = "N", description = "3 (zarr.json) or 2 (Zarr v2: .zarray or .zgroup, "
            + "and .zattrs; chunk keys v2 '.' unless the metadata say otherwise). Default: the format of the nearest "
            + "existing group above the path, else 3. What Zarr v2 cannot express (sharding, codecs it has no place "
            + "for, ...) is refused, naming it.")
    Integer formatOption;

    /** The format the node is created in: {@code --zarr-format}, else the nearest existing ancestor's. */
    private int zarrFormat;

    @Mixin
    WaitOption waitOption;

    @Override
    public Integer call() throws IOException {
        if (formatOption != null && formatOption != 2 && formatOption != 3) {
            throw new UserError("--zarr-format must be 2 or 3, not " + formatOption);
        }
        Store s = root.openStore(waitOption.apply(store), false);
        zarrFormat = formatOption != null ? formatOption : ancestorFormat(s);
        if (group) {
            root.zarr().createGroup(s, path, attrs == null ? null : object(attrs, "--attrs"), zarrFormat);
            root.closeStore(s);
            root.out().println("created group " + path + " in " + s.describe() + (zarrFormat == 3 ? "" : " as Zarr v" + zarrFormat));
            return 0;
        }
        ZarrArray a;
        if (metadata != null) {
            if (shape != null || chunks != null || dtype != null || codecs != null || shard != null) {
                throw new UserError("--metadata takes the whole document; drop --shape/--chunks/--dtype/--codecs/--shard");
            }
            JsonNode doc = parse(Files.readString(metadata), "--metadata " + metadata);
            if (!doc.isObject()) {
                throw new UserError("--metadata " + metadata + " is not a JSON object");
            }
            a = cannotExpress(() -> root.zarr().createArray(s, path, (ObjectNode) doc, overwrite, zarrFormat));
        } else {
            if (shape == null || dtype == null) {
                throw new UserError("an array needs --shape and --dtype (or --metadata FILE)");
            }
            ArrayBuilder b = builder().overwrite(overwrite).zarrFormat(zarrFormat);
            a = cannotExpress(() -> b.create(s, path));
        }
        root.closeStore(s);
        root.out().println("created " + a + " in " + s.describe() + (zarrFormat == 3 ? "" : " as Zarr v" + zarrFormat));
        return 0;
    }

    /**
     * The Zarr format of the nearest existing group above the path (a node created below a Zarr v2
     * group is v2 too, as its parent lists it), else 3.
     */
    private int ancestorFormat(Store s) {
        String p = path.replaceAll("/+$", "");
        while (!p.isEmpty()) {
            p = p.substring(0, Math.max(0, p.lastIndexOf('/')));
            String parent = p.isEmpty() ? "/" : p;
            if (root.zarr().exists(s, parent)) {
                return root.zarr().open(s, parent).zarrFormat();
            }
        }
        return 3;
    }

    /** Creates the array, naming it and the format in what the format cannot express. */
    private ZarrArray cannotExpress(Supplier<ZarrArray> create) {
        try {
            return create.get();
        } catch (UnsupportedFormatException e) {
            throw new UnsupportedFormatException("", "cannot create array " + path + " as Zarr v" + zarrFormat + ": "
                    + e.detail(), e);
        }
    }

    private ArrayBuilder builder() {
        DataType type = dataType(root.zarr(), dtype);
        long[] s = ZarrCli.longs(shape, "--shape");
        ArrayBuilder b = root.zarr().array(type, s);
        long[] c = ZarrCli.longs(chunks, "--chunks");
        long[] sh = ZarrCli.longs(shard, "--shard");
        ArrayNode chain = codecs == null ? null : array(codecs, "--codecs");
        if (sh != null) {
            b.chunks(sh);
            b.codecs(shardingChain(c != null ? c : sh, chain, type));
        } else {
            if (c != null) {
                b.chunks(c);
            }
            if (chain != null) {
                b.codecs(chain);
            }
        }
        if (fill != null) {
            b.fillValue(fillValue(fill, type));
        }
        if (attrs != null) {
            b.attributes(object(attrs, "--attrs"));
        }
        if (dimensionNames != null) {
            b.dimensionNames(dimensionNames);
        }
        return b;
    }

    /** A sharding_indexed chain whose inner chunks have {@code inner} shape and run {@code innerCodecs}. */
    static ArrayNode shardingChain(long[] inner, ArrayNode innerCodecs, DataType type) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode sharding = f.objectNode().put("name", "sharding_indexed");
        ObjectNode conf = sharding.putObject("configuration");
        ArrayNode cs = conf.putArray("chunk_shape");
        for (long d : inner) {
            cs.add(d);
        }
        if (innerCodecs != null) {
            conf.set("codecs", innerCodecs);
        } else if (type.kind().isVariableLength()) {
            conf.putArray("codecs").addObject().put("name", type.kind() == ElementKind.STRING ? "vlen-utf8" : "vlen-bytes");
        } else {
            ObjectNode bytes = conf.putArray("codecs").addObject().put("name", "bytes");
            if (type.byteOrderUnit() > 1) {
                bytes.putObject("configuration").put("endian", "little");
            }
        }
        ArrayNode index = conf.putArray("index_codecs");
        index.addObject().put("name", "bytes").putObject("configuration").put("endian", "little");
        index.addObject().put("name", "crc32c");
        conf.put("index_location", "end");
        return f.arrayNode().add(sharding);
    }

    /** {@code numpy.datetime64[10ms]}: NumPy's spelling of a time type, scale and unit in brackets. */
    private static final Pattern NUMPY_TIME =
            Pattern.compile("(?:numpy\\.)?(datetime64|timedelta64)(?:\\[([0-9]*)([A-Za-z\u03bc]+)\\])?");

    /** {@code fixed_length_utf32[<U12]} (as info prints it) or {@code fixed_length_utf32[12]}: at most 12 code points. */
    private static final Pattern FIXED_UTF32 = Pattern.compile("fixed_length_utf32\\[(?:<U)?([0-9]+)\\]");

    /**
     * The data type {@code --dtype} names: the data_type JSON ({@code {...}}), NumPy's spelling of
     * a time type, {@code fixed_length_utf32[<U12]}, a core type, or any installed type by name
     * (without configuration).
     *
     * @throws UserError when no installed type has the name
     * @throws dev.zarrj.api.InvalidMetadataException when its provider rejects the configuration
     */
    static DataType dataType(Zarr zarr, String text) {
        String name;
        JsonNode configuration = null;
        Matcher time = NUMPY_TIME.matcher(text);
        Matcher utf32 = FIXED_UTF32.matcher(text);
        if (text.startsWith("{")) {
            JsonNode doc = parse(text, "--dtype");
            if (!doc.isObject() || !doc.path("name").isTextual()) {
                throw new UserError("--dtype JSON must be an object with a \"name\" (and a \"configuration\"), got " + doc);
            }
            name = doc.get("name").asText();
            configuration = doc.get("configuration");
        } else if (time.matches()) {
            name = "numpy." + time.group(1);
            ObjectNode c = JsonNodeFactory.instance.objectNode();
            c.put("unit", time.group(3) == null ? "generic" : time.group(3));
            if (time.group(2) != null && !time.group(2).isEmpty()) {
                try {
                    c.put("scale_factor", Integer.parseInt(time.group(2)));
                } catch (NumberFormatException e) {
                    throw new UserError("--dtype '" + text + "': the scale factor must be at most 2147483647");
                }
            } else {
                c.put("scale_factor", 1);
            }
            configuration = c;
        } else if (utf32.matches()) {
            name = "fixed_length_utf32";
            long codePoints = utf32.group(1).length() > 10 ? Long.MAX_VALUE : Long.parseLong(utf32.group(1));
            if (codePoints < 1 || codePoints > (Integer.MAX_VALUE - 3) / 4) {
                throw new UserError("--dtype '" + text + "': a fixed_length_utf32 element holds 1 to "
                        + (Integer.MAX_VALUE - 3) / 4 + " code points");
            }
            configuration = JsonNodeFactory.instance.objectNode().put("length_bytes", 4 * (int) codePoints);
        } else {
            try {
                return DataTypes.of(text);
            } catch (IllegalArgumentException e) {
                name = text;
            }
        }
        Optional<DataTypeProvider> provider = zarr.registry().find(ExtensionPoint.DATA_TYPE, name, DataTypeProvider.class);
        if (provider.isEmpty()) {
            throw new UserError("unknown --dtype '" + text + "': no installed data type is named '" + name
                    + "' (zarr plugins lists them)");
        }
        return provider.get().create(ExtensionConfig.of(name, configuration, "/data_type/configuration"),
                zarr.providerContext());
    }

    /**
     * The JSON fill value {@code --fill} gives: for the string types (and {@code bytes}, as base64)
     * the text itself unless it is a JSON string literal, else as {@link #fillValue(String)}.
     */
    static JsonNode fillValue(String text, DataType type) {
        boolean textual = type.kind().isVariableLength() || type instanceof FixedLengthUtf32Type;
        if (textual && !text.startsWith("\"")) {
            return JsonNodeFactory.instance.textNode(text);
        }
        return fillValue(text);
    }

    static JsonNode fillValue(String text) {
        switch (text) {
            case "NaN", "Infinity", "-Infinity", "NaT" -> {
                return JsonNodeFactory.instance.textNode(text);
            }
            default -> {
                if (text.startsWith("0x")) {
                    return JsonNodeFactory.instance.textNode(text);
                }
                try {
                    return JSON.readTree(text);
                } catch (JsonProcessingException e) {
                    throw new UserError("--fill '" + text + "' is neither a number, true/false, NaN, Infinity, 0x..., NaT nor JSON");
                }
            }
        }
    }

    static JsonNode parse(String text, String what) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UserError(what + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    static ArrayNode array(String text, String what) {
        JsonNode n = parse(text, what);
        if (!n.isArray()) {
            throw new UserError(what + " must be a JSON array, got " + n);
        }
        return (ArrayNode) n;
    }

    static ObjectNode object(String text, String what) {
        JsonNode n = parse(text, what);
        if (!n.isObject()) {
            throw new UserError(what + " must be a JSON object, got " + n);
        }
        return (ObjectNode) n;
    }
}
