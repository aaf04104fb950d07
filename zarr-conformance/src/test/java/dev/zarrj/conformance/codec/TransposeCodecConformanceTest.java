package dev.zarrj.conformance.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.ArrayToArrayCodecContract;
import dev.zarrj.conformance.ConformanceKit;
import java.util.ArrayList;
import java.util.List;

/**
 * zarr-core's {@code transpose} against the array→array contract, with orders of rank 0 to 3:
 * each order applies to the sample shapes of its rank and refuses the others. Arrays of the
 * variable-length test types (objects, not bytes) are transposed too.
 */
class TransposeCodecConformanceTest extends ArrayToArrayCodecContract {
    @Override
    protected CodecProvider provider() {
        return Providers.codec("transpose");
    }

    @Override
    protected List<ObjectNode> configurations() {
        return Configs.of("{\"order\": []}", "{\"order\": [0]}", "{\"order\": [1, 0]}", "{\"order\": [0, 1]}",
                "{\"order\": [2, 0, 1]}", "{\"order\": [1, 2, 0]}", "{\"order\": [0, 2, 1]}");
    }

    @Override
    protected List<DataType> dataTypes() {
        List<DataType> out = new ArrayList<>(ConformanceKit.coreDataTypes());
        out.add(VariableLengthFixture.STRING);
        out.add(VariableLengthFixture.BYTES);
        return out;
    }
}
