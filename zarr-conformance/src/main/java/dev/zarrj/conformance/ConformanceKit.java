package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.conformance.internal.extension.Extensions;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import dev.zarrj.core.registry.ProviderInfo;
import java.util.ArrayList;
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
    public static final String RULES_VERSION = "14";

    private ConformanceKit() {}

    /** Every core data type of data-types.rst, with {@code r8} and {@code r24} for the raw family. */
    public static List<DataType> coreDataTypes() {
        return List.of(DataTypes.BOOL, DataTypes.INT8, DataTypes.INT16, DataTypes.INT32, DataTypes.INT64,
                DataTypes.UINT8, DataTypes.UINT16, DataTypes.UINT32, DataTypes.UINT64, DataTypes.FLOAT16,
                DataTypes.FLOAT32, DataTypes.FLOAT64, DataTypes.COMPLEX64, DataTypes.COMPLEX128,
                DataTypes.raw(8), DataTypes.raw(24));
    }

    /**
     * The data types the codec contracts sample by default: the {@link #coreDataTypes()}, then
     * every {@linkplain dev.zarrj.api.datatype.ElementKind#isVariableLength() variable-length} type
     * ({@code string}, {@code bytes}) and every type that names the codec storing it
     * ({@link DataType#arrayToBytesCodec()}: {@code optional}) that the registry's data type
     * providers create from their example configurations (or their name alone). A codec for such
     * elements ({@code vlen-utf8}, {@code optional}) is so checked on them wherever their provider
     * is installed, and every other codec must refuse them cleanly or handle them.
     *
     * @since 0.15
     */
    public static List<DataType> codecDataTypes(ExtensionRegistry registry) {
        List<DataType> out = new ArrayList<>(coreDataTypes());
        for (ProviderInfo info : registry.report().providers()) {
            if (info.point() != ExtensionPoint.DATA_TYPE || !(info.provider() instanceof DataTypeProvider p)) {
                continue;
            }
            for (ExtensionConfig config : Extensions.defaultConfigurations(p, "/data_type")) {
                DataType t;
                try {
                    t = p.create(config, Extensions.NO_CODECS);
                } catch (RuntimeException e) {
                    continue; // the data type contract reports a provider that cannot create its examples
                }
                // Types whose elements only their own codec stores: without them that codec is never exercised.
                if (t != null && t.kind() != null && (t.kind().isVariableLength() || t.arrayToBytesCodec().isPresent())
                        && !out.contains(t)) {
                    out.add(t);
                }
            }
        }
        return out;
    }
}
