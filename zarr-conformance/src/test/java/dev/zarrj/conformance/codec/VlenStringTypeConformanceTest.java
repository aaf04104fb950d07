package dev.zarrj.conformance.codec;

import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.conformance.DataTypeContract;

/** The test-only variable-length {@code string} type passes the data type contract. */
class VlenStringTypeConformanceTest extends DataTypeContract {
    @Override
    protected DataTypeProvider provider() {
        return VariableLengthFixture.typeProvider(VariableLengthFixture.STRING);
    }
}
