package dev.zarrj.core.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoreDataTypeProvidersTest {
    private static final ProviderContext NO_CONTEXT = (codecs, pointer) -> {
        throw new AssertionError("a data type asked for a codec chain");
    };

    private static final Map<DataTypeProvider, CoreDataType> PLAIN = Map.ofEntries(
            Map.entry(new CoreDataTypeProviders.Bool(), CoreDataType.BOOL),
            Map.entry(new CoreDataTypeProviders.Int8(), CoreDataType.INT8),
            Map.entry(new CoreDataTypeProviders.Int16(), CoreDataType.INT16),
            Map.entry(new CoreDataTypeProviders.Int32(), CoreDataType.INT32),
            Map.entry(new CoreDataTypeProviders.Int64(), CoreDataType.INT64),
            Map.entry(new CoreDataTypeProviders.UInt8(), CoreDataType.UINT8),
            Map.entry(new CoreDataTypeProviders.UInt16(), CoreDataType.UINT16),
            Map.entry(new CoreDataTypeProviders.UInt32(), CoreDataType.UINT32),
            Map.entry(new CoreDataTypeProviders.UInt64(), CoreDataType.UINT64),
            Map.entry(new CoreDataTypeProviders.Float16(), CoreDataType.FLOAT16),
            Map.entry(new CoreDataTypeProviders.Float32(), CoreDataType.FLOAT32),
            Map.entry(new CoreDataTypeProviders.Float64(), CoreDataType.FLOAT64),
            Map.entry(new CoreDataTypeProviders.Complex64(), CoreDataType.COMPLEX64),
            Map.entry(new CoreDataTypeProviders.Complex128(), CoreDataType.COMPLEX128));

    private static ExtensionConfig config(String name, String json) {
        return ExtensionConfig.of(name, FillValueJson.json(json), "/data_type/configuration");
    }

    @Test
    void eachPlainProviderReturnsItsConstant() {
        PLAIN.forEach((provider, type) -> {
            assertEquals(type.name(), provider.name());
            assertTrue(provider.aliases().isEmpty(), provider.name());
            assertEquals(DataTypeProvider.BUILT_IN_PRIORITY, provider.priority(), provider.name());
            assertSame(type, provider.create(ExtensionConfig.empty(provider.name()), NO_CONTEXT));
            assertSame(type, provider.create(config(provider.name(), "{}"), NO_CONTEXT));
        });
    }

    @Test
    void everyProviderRejectsConfigurationFields() {
        List<DataTypeProvider> all = new java.util.ArrayList<>(PLAIN.keySet());
        all.add(new CoreDataTypeProviders.Raw());
        for (DataTypeProvider p : all) {
            String name = p.name().equals("r*") ? "r16" : p.name();
            InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                    () -> p.create(config(name, "{\"endian\": \"little\"}"), NO_CONTEXT), name);
            assertEquals("/data_type/configuration/endian", e.pointer());
            assertTrue(e.getMessage().contains("'endian'") && e.getMessage().contains("allowed: none"), e::getMessage);
        }
    }

    @Test
    void rawCreatesTheWidthItsNameGives() {
        DataTypeProvider raw = new CoreDataTypeProviders.Raw();
        assertEquals("r*", raw.name());
        for (int bits : new int[] {8, 16, 24, 64, 1024}) {
            DataType t = raw.create(ExtensionConfig.empty("r" + bits), NO_CONTEXT);
            assertEquals(CoreDataType.raw(bits), t);
            assertEquals(bits / 8, t.size());
        }
    }

    @Test
    void rawRefusesMalformedNamesNamingThem() {
        DataTypeProvider raw = new CoreDataTypeProviders.Raw();
        for (String bad : List.of("r12", "r0", "r08", "r", "r*", "rx", "r-8", "r8x", "r2147483648",
                "r99999999999999999999999999")) {
            InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                    () -> raw.create(config(bad, "{}"), NO_CONTEXT), bad);
            assertEquals("/data_type", e.pointer(), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e::getMessage);
            assertTrue(e.getMessage().contains("multiple of 8"), e::getMessage);
        }
    }
}
