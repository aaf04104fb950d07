package dev.zarrj.codec.sharding.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code uint64}, the element type of a shard index, as the index codecs see it. The SPI gives
 * plugins no access to core's data types, and the index needs nothing beyond size, byte order and
 * kind, so this module carries its own.
 */
final class IndexDataType implements DataType {
    static final IndexDataType UINT64 = new IndexDataType();

    /** The index's fill value: the empty marker 2^64 − 1 in every element. */
    static final FillValue EMPTY_MARKER = FillValue.ofBytes(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});

    private static final BigInteger MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private IndexDataType() {}

    @Override
    public String name() {
        return "uint64";
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public int size() {
        return 8;
    }

    @Override
    public int byteOrderUnit() {
        return 8;
    }

    @Override
    public ElementKind kind() {
        return ElementKind.UINT;
    }

    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        if (!json.isIntegralNumber() || json.bigIntegerValue().signum() < 0 || json.bigIntegerValue().compareTo(MAX) > 0) {
            throw new InvalidMetadataException(pointer, "a uint64 fill value must be an integer in [0, 2^64 - 1], found "
                    + json);
        }
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        b.putLong(0, json.bigIntegerValue().longValue());
        return FillValue.ofBytes(b.array());
    }

    @Override
    public JsonNode fillValueToJson(FillValue value) {
        long v = ByteBuffer.wrap(value.bytes()).order(ByteOrder.nativeOrder()).getLong(0);
        return BigIntegerNode.valueOf(new BigInteger(Long.toUnsignedString(v)));
    }

    @Override
    public String toString() {
        return "uint64";
    }
}
