package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.core.DataTypes;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Facts the contracts share: the kit's version and the data types a contract exercises unless
 * the plugin under test narrows them.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ConformanceKit {
    /** The version of the rules in RULES.md that this kit checks. */
    public static final String RULES_VERSION = "9";

    private ConformanceKit() {}

    /** Every core data type of data-types.rst, with {@code r8} and {@code r24} for the raw family. */
    public static List<DataType> coreDataTypes() {
        return List.of(DataTypes.BOOL, DataTypes.INT8, DataTypes.INT16, DataTypes.INT32, DataTypes.INT64,
                DataTypes.UINT8, DataTypes.UINT16, DataTypes.UINT32, DataTypes.UINT64, DataTypes.FLOAT16,
                DataTypes.FLOAT32, DataTypes.FLOAT64, DataTypes.COMPLEX64, DataTypes.COMPLEX128,
                DataTypes.raw(8), DataTypes.raw(24));
    }
}
