package dev.zarrj.conformance.selftest;

import static dev.zarrj.conformance.internal.extension.Extensions.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.api.grid.ChunkGridProvider;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.transformer.StorageTransformer;
import dev.zarrj.api.transformer.StorageTransformerProvider;
import dev.zarrj.conformance.ChunkGridContract;
import dev.zarrj.conformance.ChunkKeyEncodingContract;
import dev.zarrj.conformance.DataTypeContract;
import dev.zarrj.conformance.StorageTransformerContract;
import dev.zarrj.conformance.codec.VariableLengthFixture;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Deliberately broken data types, chunk grids, key encodings and storage transformers, each
 * breaking one rule of its contract, each run through the contract by {@link KitSelfTest}. Not run
 * by Surefire directly.
 */
public final class BrokenMetadata {
    private BrokenMetadata() {}

    // ---- data types ----

    /** A data type that passes everything to a core type; fixtures override what they break. */
    static class ForwardingDataType implements DataType {
        final DataType d;

        ForwardingDataType(DataType d) {
            this.d = d;
        }

        @Override public String name() { return d.name(); }
        @Override public ObjectNode configuration() { return d.configuration(); }
        @Override public JsonNode toJson() { return d.toJson(); }
        @Override public int size() { return d.size(); }
        @Override public int byteOrderUnit() { return d.byteOrderUnit(); }
        @Override public ElementKind kind() { return d.kind(); }
        @Override public FillValue parseFillValue(JsonNode json, String pointer) { return d.parseFillValue(json, pointer); }
        @Override public JsonNode fillValueToJson(FillValue value) { return d.fillValueToJson(value); }
        @Override public java.util.Optional<ObjectNode> arrayToBytesCodec() { return d.arrayToBytesCodec(); }
        @Override public boolean equals(Object o) { return o != null && o.getClass() == getClass() && ((ForwardingDataType) o).d.equals(d); }
        @Override public int hashCode() { return d.hashCode(); }
        @Override public String toString() { return getClass().getSimpleName() + "(" + d + ")"; }
    }

    /** A data type contract over one fixture type, created fresh by each {@code create}. */
    abstract static class TypeFixture extends DataTypeContract {
        abstract DataType make();

        @Override
        protected DataTypeProvider provider() {
            return new DataTypeProvider() {
                @Override public String name() { return make().name(); }

                @Override public DataType create(ExtensionConfig config, ProviderContext context) {
                    if (!unknownFieldsAccepted()) {
                        config.rejectUnknownFields();
                    }
                    return make();
                }
            };
        }

        boolean unknownFieldsAccepted() {
            return false;
        }
    }

    /** DT01: every NaN is written as "NaN", so a NaN with a payload loses it on the way back. */
    public static class NanPayloadLost extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(DataTypes.FLOAT32) {
                @Override public JsonNode fillValueToJson(FillValue value) {
                    float f = ByteBuffer.wrap(value.bytes()).order(ByteOrder.nativeOrder()).getFloat();
                    return Float.isNaN(f) ? TextNode.valueOf("NaN") : d.fillValueToJson(value);
                }
            };
        }
    }

    /** DT02: an int32 fill value with a fraction (1.5) is truncated instead of refused. */
    public static class IntegerFractionTruncated extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(DataTypes.INT32) {
                @Override public FillValue parseFillValue(JsonNode json, String pointer) {
                    return d.parseFillValue(json.isNumber() ? IntNode.valueOf(json.asInt()) : json, pointer);
                }
            };
        }
    }

    /** DT03: complex64 says its byte-order unit is the whole pair (8) instead of a component (4). */
    public static class ComplexUnitIsThePair extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(DataTypes.COMPLEX64) {
                @Override public int byteOrderUnit() { return 8; }
            };
        }
    }

    /** DT04: equality by identity, so a type read back from its metadata is not equal to itself. */
    public static class EqualityByIdentity extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(DataTypes.FLOAT64) {
                @Override public boolean equals(Object o) { return this == o; }
                @Override public int hashCode() { return System.identityHashCode(this); }
            };
        }
    }

    /** DT05: hex fill values go through float, which canonicalises NaN payloads at parse time. */
    public static class HexThroughFloat extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(DataTypes.FLOAT32) {
                @Override public FillValue parseFillValue(JsonNode json, String pointer) {
                    FillValue v = d.parseFillValue(json, pointer);
                    float f = ByteBuffer.wrap(v.bytes()).order(ByteOrder.nativeOrder()).getFloat();
                    return FillValue.ofBytes(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder())
                            .putInt(Float.floatToIntBits(f)).array());
                }
            };
        }
    }

    /** DT06: the provider accepts configuration fields it does not know. */
    public static class DataTypeUnknownFieldAccepted extends TypeFixture {
        @Override DataType make() {
            return DataTypes.INT16;
        }

        @Override boolean unknownFieldsAccepted() {
            return true;
        }
    }

    /**
     * DT07: a one-byte format of halves (pattern / 2) whose {@code set} truncates instead of
     * rounding to nearest, so 0.375 (between 0 and 0.5, nearer 0.5) is stored as 0.
     */
    public static class NumericSetTruncates extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(DataTypes.UINT8) {
                @Override public String name() { return "halves"; }
                @Override public JsonNode toJson() { return TextNode.valueOf("halves"); }
                @Override public ElementKind kind() { return ElementKind.OTHER; }
                @Override public java.util.Optional<dev.zarrj.api.datatype.NumericEncoding> numericEncoding() {
                    return java.util.Optional.of(new dev.zarrj.api.datatype.NumericEncoding() {
                        @Override public int components() { return 1; }
                        @Override public boolean isInteger() { return false; }
                        @Override public double get(ByteBuffer data, int offset) { return (data.get(offset) & 0xff) / 2.0; }
                        @Override public void set(ByteBuffer data, int offset, double value) {
                            data.put(offset, (byte) (int) (value * 2));
                        }
                    });
                }
            };
        }
    }

    /** DT05: a string type that holds its fill value as Latin-1, not UTF-8 ("Zo\u00eb" gives other bytes). */
    public static class StringFillValueLatin1 extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(VariableLengthFixture.STRING) {
                @Override public FillValue parseFillValue(JsonNode json, String pointer) {
                    return json.isTextual() ? FillValue.ofBytes(json.textValue().getBytes(StandardCharsets.ISO_8859_1))
                            : d.parseFillValue(json, pointer);
                }

                @Override public JsonNode fillValueToJson(FillValue value) {
                    return TextNode.valueOf(new String(value.bytes(), StandardCharsets.ISO_8859_1));
                }
            };
        }
    }

    /** DT02: a string type that stores a lone surrogate (which has no UTF-8) as '?' instead of refusing it. */
    public static class StringLoneSurrogateAccepted extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(VariableLengthFixture.STRING) {
                @Override public FillValue parseFillValue(JsonNode json, String pointer) {
                    return json.isTextual() ? FillValue.ofBytes(json.textValue().getBytes(StandardCharsets.UTF_8))
                            : d.parseFillValue(json, pointer);
                }
            };
        }
    }

    /** DT02: a bytes type whose integer-array fill value wraps 256 to 0 and -1 to 255. */
    public static class BytesIntegersWrap extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(VariableLengthFixture.BYTES) {
                @Override public FillValue parseFillValue(JsonNode json, String pointer) {
                    if (!json.isArray() || !json.elements().hasNext() || !json.get(0).isIntegralNumber()) {
                        return d.parseFillValue(json, pointer);
                    }
                    byte[] out = new byte[json.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = (byte) json.get(i).asInt();
                    }
                    return FillValue.ofBytes(out);
                }
            };
        }
    }

    /** DT03: a bytes type whose default fill value is a run of zero bytes, not the empty byte string. */
    public static class VariableLengthDefaultNotEmpty extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(VariableLengthFixture.BYTES) {
                @Override public FillValue defaultFillValue() { return FillValue.ofBytes(new byte[size()]); }
            };
        }
    }

    /** DT08: a string type that names no codec, so arrays of it get bytes, which cannot store it. */
    public static class VariableLengthNamesNoCodec extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(VariableLengthFixture.STRING) {
                @Override public java.util.Optional<ObjectNode> arrayToBytesCodec() { return java.util.Optional.empty(); }
            };
        }
    }

    /** DT08: a bytes type whose codec entry has a configuration but no name. */
    public static class CodecEntryWithoutName extends TypeFixture {
        @Override DataType make() {
            return new ForwardingDataType(VariableLengthFixture.BYTES) {
                @Override public java.util.Optional<ObjectNode> arrayToBytesCodec() {
                    ObjectNode e = JsonNodeFactory.instance.objectNode();
                    e.putObject("configuration");
                    return java.util.Optional.of(e);
                }
            };
        }
    }

    // ---- chunk grids ----

    /** A regular grid written here (the core one is not exported); fixtures override what they break. */
    static class SimpleGrid implements ChunkGrid {
        final long[] c;

        SimpleGrid(long[] chunkShape) {
            this.c = chunkShape.clone();
        }

        @Override public String name() { return "test_grid"; }
        @Override public ObjectNode configuration() {
            ObjectNode n = JsonNodeFactory.instance.objectNode();
            Arrays.stream(c).forEach(n.putArray("chunk_shape")::add);
            return n;
        }
        @Override public int rank() { return c.length; }
        @Override public void validate(long[] arrayShape) {
            if (arrayShape.length != c.length) {
                throw new InvalidMetadataException("/chunk_grid/configuration/chunk_shape", "rank " + c.length
                        + " does not fit the shape " + Arrays.toString(arrayShape));
            }
        }
        @Override public long gridLength(int d, long len) { return (len + chunk(d) - 1) / chunk(d); }
        @Override public long chunkIndex(int d, long x) { return x / chunk(d); }
        @Override public long chunkStart(int d, long i) { return i * chunk(d); }
        @Override public long chunkLength(int d, long i) { return chunk(d); }
        long chunk(int d) { return c[d]; }
        @Override public boolean equals(Object o) { return o instanceof SimpleGrid g && Arrays.equals(g.c, c); }
        @Override public int hashCode() { return Arrays.hashCode(c); }
        @Override public String toString() { return getClass().getSimpleName() + Arrays.toString(c); }
    }

    /** A grid contract over {@link SimpleGrid}s made by {@link #make}. */
    abstract static class GridFixture extends ChunkGridContract {
        abstract SimpleGrid make(long[] chunkShape);

        boolean unknownFieldsAccepted() {
            return false;
        }

        @Override
        protected ChunkGridProvider provider() {
            return new ChunkGridProvider() {
                @Override public String name() { return "test_grid"; }

                @Override public List<ObjectNode> exampleConfigurations() {
                    return List.of((ObjectNode) json("{\"chunk_shape\": [3]}"), (ObjectNode) json("{\"chunk_shape\": [2, 5]}"),
                            (ObjectNode) json("{\"chunk_shape\": []}"));
                }

                @Override public ChunkGrid create(ExtensionConfig config, ProviderContext context) {
                    if (!unknownFieldsAccepted()) {
                        config.rejectUnknownFields("chunk_shape");
                    }
                    return make(config.longArrayField("chunk_shape", 1, Long.MAX_VALUE));
                }
            };
        }
    }

    /** G02: chunks are spaced one element further apart than they are long, leaving a gap after each. */
    public static class GapBetweenChunks extends GridFixture {
        @Override SimpleGrid make(long[] s) {
            return new SimpleGrid(s) {
                @Override public long chunkStart(int d, long i) { return i * (chunk(d) + 1); }
                @Override public long chunkIndex(int d, long x) { return x / (chunk(d) + 1); }
                @Override public long gridLength(int d, long len) { return (len + chunk(d)) / (chunk(d) + 1); }
            };
        }
    }

    /** G01: chunkIndex rounds (x + 1) / chunk, putting the last element of each chunk in the next. */
    public static class ChunkIndexOffByOne extends GridFixture {
        @Override SimpleGrid make(long[] s) {
            return new SimpleGrid(s) {
                @Override public long chunkIndex(int d, long x) { return (x + 1) / chunk(d); }
            };
        }
    }

    /** G03: gridShape rounds down, disagreeing with gridLength at the edges. */
    public static class GridShapeRoundsDown extends GridFixture {
        @Override SimpleGrid make(long[] s) {
            return new SimpleGrid(s) {
                @Override public long[] gridShape(long[] arrayShape) {
                    long[] g = new long[arrayShape.length];
                    for (int d = 0; d < g.length; d++) {
                        g[d] = arrayShape[d] / chunk(d);
                    }
                    return g;
                }
            };
        }
    }

    /** G04: a zero-length dimension still has one chunk. */
    public static class ZeroLengthHasAChunk extends GridFixture {
        @Override SimpleGrid make(long[] s) {
            return new SimpleGrid(s) {
                @Override public long gridLength(int d, long len) { return Math.max(1, super.gridLength(d, len)); }
            };
        }
    }

    /** G05: validate accepts a shape of any rank. */
    public static class AnyRankAccepted extends GridFixture {
        @Override SimpleGrid make(long[] s) {
            return new SimpleGrid(s) {
                @Override public void validate(long[] arrayShape) { }
            };
        }
    }

    /** G06: the chunk shape is applied to the dimensions in reverse order (consistently, so only the spec example shows it). */
    public static class DimensionsReversed extends GridFixture {
        @Override SimpleGrid make(long[] s) {
            return new SimpleGrid(s) {
                @Override long chunk(int d) { return c[c.length - 1 - d]; }
            };
        }

        @Override protected List<GridExample> specExamples() {
            return List.of(new GridExample((ObjectNode) json("{\"chunk_shape\": [5, 20, 400]}"),
                    new long[] {10, 200, 3000}, new long[] {2, 10, 8}, new long[] {7, 150, 900}, new long[] {1, 7, 2},
                    new long[] {2, 10, 100}));
        }
    }

    /** G07: equality by identity. */
    public static class GridEqualityByIdentity extends GridFixture {
        @Override SimpleGrid make(long[] s) {
            return new SimpleGrid(s) {
                @Override public boolean equals(Object o) { return this == o; }
                @Override public int hashCode() { return System.identityHashCode(this); }
            };
        }
    }

    /** G08: the provider accepts configuration fields it does not know. */
    public static class GridUnknownFieldAccepted extends GridFixture {
        @Override SimpleGrid make(long[] s) {
            return new SimpleGrid(s);
        }

        @Override boolean unknownFieldsAccepted() {
            return true;
        }
    }

    // ---- chunk key encodings ----

    /** The default encoding written here; fixtures override what they break. */
    static class SimpleEncoding implements ChunkKeyEncoding {
        final char sep;

        SimpleEncoding(char sep) {
            this.sep = sep;
        }

        @Override public String name() { return "test_keys"; }
        @Override public ObjectNode configuration() {
            return JsonNodeFactory.instance.objectNode().put("separator", String.valueOf(sep));
        }
        @Override public String encode(long[] c) {
            StringBuilder sb = new StringBuilder("c");
            for (long x : c) {
                sb.append(sep).append(x);
            }
            return sb.toString();
        }
        @Override public Optional<long[]> decode(String key, int rank) {
            String[] parts = key.split(java.util.regex.Pattern.quote(String.valueOf(sep)), -1);
            if (parts.length != rank + 1 || !parts[0].equals("c")) {
                return Optional.empty();
            }
            long[] out = new long[rank];
            for (int d = 0; d < rank; d++) {
                if (!parts[d + 1].matches("0|[1-9][0-9]{0,18}")) {
                    return Optional.empty();
                }
                try {
                    out[d] = Long.parseLong(parts[d + 1]);
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
            return Optional.of(out);
        }
        @Override public boolean equals(Object o) { return o instanceof SimpleEncoding e && e.sep == sep; }
        @Override public int hashCode() { return sep; }
        @Override public String toString() { return getClass().getSimpleName() + "(" + sep + ")"; }
    }

    /** A key encoding contract over {@link SimpleEncoding}s made by {@link #make}. */
    abstract static class EncodingFixture extends ChunkKeyEncodingContract {
        abstract SimpleEncoding make(char separator);

        boolean unknownFieldsAccepted() {
            return false;
        }

        char defaultSeparator() {
            return '/';
        }

        @Override
        protected ChunkKeyEncodingProvider provider() {
            return new ChunkKeyEncodingProvider() {
                @Override public String name() { return "test_keys"; }

                @Override public List<ObjectNode> exampleConfigurations() {
                    return List.of((ObjectNode) json("{\"separator\": \"/\"}"), (ObjectNode) json("{\"separator\": \".\"}"));
                }

                @Override public ChunkKeyEncoding create(ExtensionConfig config, ProviderContext context) {
                    if (!unknownFieldsAccepted()) {
                        config.rejectUnknownFields("separator");
                    }
                    return make(config.optionalStringField("separator", "/", ".").map(s -> s.charAt(0))
                            .orElse(defaultSeparator()));
                }
            };
        }
    }

    /** K01: the chunk of a 0-d array gets the empty key. */
    public static class EmptyKeyFor0d extends EncodingFixture {
        @Override SimpleEncoding make(char sep) {
            return new SimpleEncoding(sep) {
                @Override public String encode(long[] c) { return c.length == 0 ? "" : super.encode(c); }
                @Override public Optional<long[]> decode(String key, int rank) {
                    return rank == 0 ? (key.isEmpty() ? Optional.of(new long[0]) : Optional.empty()) : super.decode(key, rank);
                }
            };
        }
    }

    /** K02: indices are joined without the separator, so (1, 23) and (12, 3) collide. */
    public static class KeysCollide extends EncodingFixture {
        @Override SimpleEncoding make(char sep) {
            return new SimpleEncoding(sep) {
                @Override public String encode(long[] c) {
                    StringBuilder sb = new StringBuilder("c");
                    if (c.length > 0) {
                        sb.append(sep);
                    }
                    for (long x : c) {
                        sb.append(x);
                    }
                    return sb.toString();
                }
            };
        }
    }

    /** K03: decode returns the indices in reverse order. */
    public static class DecodeReversed extends EncodingFixture {
        @Override SimpleEncoding make(char sep) {
            return new SimpleEncoding(sep) {
                @Override public Optional<long[]> decode(String key, int rank) {
                    return super.decode(key, rank).map(c -> {
                        long[] r = new long[c.length];
                        for (int i = 0; i < c.length; i++) {
                            r[i] = c[c.length - 1 - i];
                        }
                        return r;
                    });
                }
            };
        }
    }

    /** K04: decode parses indices leniently ({@code 01}, {@code +1}), giving a chunk a second key. */
    public static class LenientDecode extends EncodingFixture {
        @Override SimpleEncoding make(char sep) {
            return new SimpleEncoding(sep) {
                @Override public Optional<long[]> decode(String key, int rank) {
                    String[] parts = key.split(java.util.regex.Pattern.quote(String.valueOf(sep)), -1);
                    if (parts.length != rank + 1 || !parts[0].equals("c")) {
                        return Optional.empty();
                    }
                    long[] out = new long[rank];
                    try {
                        for (int d = 0; d < rank; d++) {
                            out[d] = Long.parseLong(parts[d + 1]);
                        }
                    } catch (NumberFormatException e) {
                        return Optional.empty();
                    }
                    return Optional.of(out);
                }
            };
        }
    }

    /** K05: the separator defaults to "." where the default encoding's spec says "/". */
    public static class WrongDefaultSeparator extends EncodingFixture {
        @Override SimpleEncoding make(char sep) {
            return new SimpleEncoding(sep);
        }

        @Override char defaultSeparator() {
            return '.';
        }

        @Override protected List<KeyExample> specExamples() {
            return List.of(new KeyExample((ObjectNode) json("{}"), new long[] {1, 23, 45}, "c/1/23/45"));
        }
    }

    /** K06: the configuration is written without the separator, so "." reads back as "/". */
    public static class SeparatorNotWritten extends EncodingFixture {
        @Override SimpleEncoding make(char sep) {
            return new SimpleEncoding(sep) {
                @Override public ObjectNode configuration() { return JsonNodeFactory.instance.objectNode(); }
            };
        }
    }

    /** K07: the provider accepts configuration fields it does not know. */
    public static class EncodingUnknownFieldAccepted extends EncodingFixture {
        @Override SimpleEncoding make(char sep) {
            return new SimpleEncoding(sep);
        }

        @Override boolean unknownFieldsAccepted() {
            return true;
        }
    }

    // ---- storage transformers ----

    /** A transformer contract over a variant of the logging identity transformer. */
    abstract static class TransformerFixture extends StorageTransformerContract {
        abstract StorageTransformer make(StorageTransformer identity);

        boolean unknownFieldsAccepted() {
            return false;
        }

        @Override
        protected StorageTransformerProvider provider() {
            LoggingIdentityStorageTransformerProvider identity = new LoggingIdentityStorageTransformerProvider();
            return new StorageTransformerProvider() {
                @Override public String name() { return "test_broken_transformer"; }

                @Override public StorageTransformer create(ExtensionConfig config, ProviderContext context) {
                    ExtensionConfig c = config;
                    if (unknownFieldsAccepted()) {
                        ObjectNode known = config.json();
                        known.retain("label");
                        c = ExtensionConfig.of(config.name(), known, config.pointer());
                    }
                    return make(identity.create(c, context));
                }
            };
        }
    }

    /** Forwards to a transformer under another name; fixtures override what they break. */
    static class ForwardingTransformer implements StorageTransformer {
        final StorageTransformer t;

        ForwardingTransformer(StorageTransformer t) {
            this.t = t;
        }

        @Override public String name() { return "test_broken_transformer"; }
        @Override public ObjectNode configuration() { return t.configuration(); }
        @Override public Store apply(Store next, String prefix) { return t.apply(next, prefix); }
        @Override public boolean equals(Object o) { return o != null && o.getClass() == getClass() && ((ForwardingTransformer) o).t.equals(t); }
        @Override public int hashCode() { return t.hashCode(); }
    }

    /** ST01: whole values read through the transformer lose their last byte. */
    public static class TransformerDropsLastByte extends TransformerFixture {
        @Override StorageTransformer make(StorageTransformer identity) {
            return new ForwardingTransformer(identity) {
                @Override public Store apply(Store next, String prefix) {
                    return new ForwardingStore(next) {
                        @Override public Optional<ByteBuffer> get(StoreKey key) {
                            return delegate.get(key).map(b -> b.limit(Math.max(b.position(), b.limit() - 1)));
                        }

                        @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
                            return range.equals(ByteRange.all()) ? get(key) : delegate.get(key, range);
                        }
                    };
                }
            };
        }
    }

    /** ST03: equality by identity. */
    public static class TransformerEqualityByIdentity extends TransformerFixture {
        @Override StorageTransformer make(StorageTransformer identity) {
            return new ForwardingTransformer(identity) {
                @Override public boolean equals(Object o) { return this == o; }
                @Override public int hashCode() { return System.identityHashCode(this); }
            };
        }
    }

    /** ST04: the provider accepts configuration fields it does not know. */
    public static class TransformerUnknownFieldAccepted extends TransformerFixture {
        @Override StorageTransformer make(StorageTransformer identity) {
            return new ForwardingTransformer(identity);
        }

        @Override boolean unknownFieldsAccepted() {
            return true;
        }
    }
}
