package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code cast_value} (zarr-extensions): converts each element's numerical value to
 * {@code data_type} on encoding and back on decoding, in the specification's order: the scalar
 * map's entry for the value (the first one), else the value itself when the other type holds it,
 * else the value rounded per {@code rounding} and, beyond the range, handled per
 * {@code out_of_range} ({@link Cast}). The fill value is cast the same way and must come back
 * unchanged; an array whose fill value does not is refused when it is opened. A value that cannot
 * be cast is refused on encoding ({@link IllegalArgumentException}) and is corrupt data on
 * decoding.
 *
 * <p>Both types must be among the registry's integer and float types ({@link RealType}). Lossy
 * in general (rounding, clamping, the scalar map); decoded values are a fixed point whenever the
 * configuration maps every value it produces back onto itself. Immutable and thread-safe.
 */
final class CastValueCodec implements ArrayToArrayCodec {
    static final String NAME = "cast_value";

    private final RealType target;
    private final Cast cast;
    private final ObjectNode scalarMap;
    private final boolean roundingGiven;
    private final String pointer;
    /** Plans by input type and fill value, made when first asked. */
    private final Map<String, Plan> plans = new ConcurrentHashMap<>();

    /**
     * @param target        the encoded data type
     * @param cast          rounding and out-of-range rules
     * @param scalarMap     the {@code scalar_map} member as given (null when absent)
     * @param roundingGiven whether {@code rounding} was written (it is written back only then)
     */
    CastValueCodec(RealType target, Cast cast, ObjectNode scalarMap, boolean roundingGiven, String pointer) {
        this.target = target;
        this.cast = cast;
        this.scalarMap = scalarMap == null ? null : scalarMap.deepCopy();
        this.roundingGiven = roundingGiven;
        this.pointer = pointer;
    }

    /** One entry of a scalar map: a key value and the output element's bytes. */
    private record Entry(Number key, byte[] out) {}

    /** What an input type and fill value make of this codec: both scalar maps and the encoded fill value. */
    record Plan(RealType source, List<Entry> encode, List<Entry> decode, FillValue encodedFill) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.set("data_type", target.type.toJson());
        if (roundingGiven) {
            c.put("rounding", cast.rounding().json);
        }
        if (cast.outOfRange() != null) {
            c.put("out_of_range", cast.outOfRange().json);
        }
        if (scalarMap != null) {
            c.set("scalar_map", scalarMap.deepCopy());
        }
        return c;
    }

    @Override
    public boolean lossless() {
        return false;
    }

    private Plan plan(ChunkSpec decoded) {
        String key = decoded.dataType().name() + Arrays.toString(decoded.fillValue().bytes());
        Plan p = plans.get(key);
        if (p == null) {
            p = newPlan(decoded);
            plans.putIfAbsent(key, p);
        }
        return p;
    }

    private Plan newPlan(ChunkSpec decoded) {
        RealType source = RealType.of(decoded.dataType(), pointer, NAME, "the data type");
        List<Entry> encode = entries("encode", source, target);
        List<Entry> decode = entries("decode", target, source);
        NdArray fill = NdArray.wrap(source.type, ByteBuffer.wrap(decoded.fillValue().bytes())
                .order(ByteOrder.nativeOrder()));
        String what = "the fill value " + source.type.fillValueToJson(decoded.fillValue());
        NdArray encodedFill;
        NdArray back;
        try {
            encodedFill = convert(fill, source, target, encode);
            back = convert(encodedFill, target, source, decode);
        } catch (IllegalArgumentException e) {
            throw new InvalidMetadataException(pointer, NAME + ": " + what + " cannot be cast to " + target
                    + " and back: " + e.getMessage(), e);
        }
        if (!same(source, fill, back)) {
            throw new InvalidMetadataException(pointer, NAME + ": " + what + " comes back from " + target + " as "
                    + source.type.fillValueToJson(FillValue.ofBytes(back.toByteArray())));
        }
        return new Plan(source, encode, decode, FillValue.ofBytes(encodedFill.toByteArray()));
    }

    private static boolean same(RealType t, NdArray a, NdArray b) {
        if (t.integer) {
            return a.getLong(0) == b.getLong(0);
        }
        double x = a.getDouble(0);
        double y = b.getDouble(0);
        return x == y || Double.isNaN(x) && Double.isNaN(y);
    }

    /** The entries of {@code scalar_map.<direction>}, keys of type {@code from}, values of type {@code to}. */
    private List<Entry> entries(String direction, RealType from, RealType to) {
        List<Entry> out = new ArrayList<>();
        JsonNode list = scalarMap == null ? null : scalarMap.get(direction);
        if (list == null) {
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            String at = pointer + "/configuration/scalar_map/" + direction + "/" + i;
            JsonNode pair = list.get(i);
            FillValue k = from.type.parseFillValue(plusInfinity(pair.get(0)), at + "/0");
            FillValue v = to.type.parseFillValue(plusInfinity(pair.get(1)), at + "/1");
            out.add(new Entry(from.valueOf(k), v.bytes()));
        }
        return List.copyOf(out);
    }

    /** The README's own example writes {@code "+Infinity"}; the fill value encoding says {@code "Infinity"}. */
    private static JsonNode plusInfinity(JsonNode n) {
        return n.isTextual() && n.textValue().equals("+Infinity") ? TextNode.valueOf("Infinity") : n;
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return new ChunkSpec(target.type, decoded.shape(), plan(decoded).encodedFill());
    }

    @Override
    public NdArray encode(NdArray array, ChunkSpec decoded) {
        Plan p = plan(decoded);
        Shapes.checkInput(NAME, array, decoded);
        try {
            return convert(array, p.source(), target, p.encode());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(NAME + " to " + target + ": " + e.getMessage(), e);
        }
    }

    @Override
    public NdArray decode(NdArray encoded, ChunkSpec decoded) {
        Plan p = plan(decoded);
        Shapes.checkEncoded(NAME, encoded, target.type, decoded.shape());
        try {
            return convert(encoded, target, p.source(), p.decode());
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(NAME + " from " + target + " to " + p.source() + ": " + e.getMessage(), e);
        }
    }

    private NdArray convert(NdArray array, RealType from, RealType to, List<Entry> map) {
        Elements in = new Elements(array);
        Elements out = new Elements(NdArray.allocate(to.type, array.shape()));
        ByteBuffer o = out.array().bytes();
        int size = to.type.size();
        int n = Math.toIntExact(array.elementCount());
        for (int i = 0; i < n; i++) {
            Entry e = map.isEmpty() ? null : match(in, i, from, map);
            if (e != null) {
                o.put(i * size, e.out());
            } else {
                cast.convert(in, from, i, out, to);
            }
        }
        return out.array();
    }

    private static Entry match(Elements in, int i, RealType from, List<Entry> map) {
        if (from.integer) {
            long v = in.getLong(i);
            for (Entry e : map) {
                if (e.key().longValue() == v) {
                    return e;
                }
            }
        } else {
            double x = in.getDouble(i);
            for (Entry e : map) {
                double k = e.key().doubleValue();
                if (k == x || Double.isNaN(k) && Double.isNaN(x)) {
                    return e;
                }
            }
        }
        return null;
    }
}
