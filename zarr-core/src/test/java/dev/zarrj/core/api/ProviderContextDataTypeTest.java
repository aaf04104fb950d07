package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import org.junit.jupiter.api.Test;

/**
 * {@link ProviderContext#dataType}: the registry creates a nested data type with the rules of an
 * array's {@code data_type} (name or object, unknown names and bad configurations named by
 * pointer); a context without a registry refuses with an {@code InvalidMetadataException}.
 */
class ProviderContextDataTypeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theRegistryCreatesDataTypesByNameOrObject() throws Exception {
        ProviderContext context = Zarr.defaults().providerContext();
        assertEquals(DataTypes.UINT8, context.dataType(JSON.readTree("\"uint8\""), "/x"));
        assertEquals(DataTypes.FLOAT32, context.dataType(JSON.readTree("{\"name\": \"float32\"}"), "/x"));
        assertEquals(DataTypes.raw(24), context.dataType(JSON.readTree("\"r24\""), "/x"));
        UnknownExtensionException unknown = assertThrows(UnknownExtensionException.class,
                () -> context.dataType(JSON.readTree("\"uint7\""), "/data_type/configuration"));
        assertEquals("/data_type/configuration", unknown.pointer());
        InvalidMetadataException config = assertThrows(InvalidMetadataException.class,
                () -> context.dataType(JSON.readTree("{\"name\": \"uint8\", \"configuration\": {\"x\": 1}}"), "/d"));
        assertEquals("/d/configuration/x", config.pointer(), config.getMessage());
        InvalidMetadataException form = assertThrows(InvalidMetadataException.class,
                () -> context.dataType(JSON.readTree("7"), "/d"));
        assertEquals("/d", form.pointer());
    }

    @Test
    void zarrsOptionalWithoutItsModuleNamesTheModule() throws Exception {
        for (String name : new String[] {"optional", "zarrs.optional"}) {
            UnknownExtensionException e = assertThrows(UnknownExtensionException.class, () -> Zarr.defaults()
                    .providerContext().dataType(JSON.readTree("{\"name\": \"" + name + "\", \"configuration\":"
                            + " {\"name\": \"uint8\", \"configuration\": {}}}"), "/data_type"));
            assertTrue(e.getMessage().contains("zarr-ext-optional"), e.getMessage());
        }
    }

    @Test
    void aContextWithoutRegistryRefuses() throws Exception {
        ProviderContext none = (codecs, pointer) -> {
            throw new UnsupportedOperationException();
        };
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> none.dataType(JSON.readTree("\"uint8\""), "/data_type/configuration"));
        assertEquals("/data_type/configuration", e.pointer());
    }
}
