package dev.zarrj.ext.datetime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.datetime.DateTimeUnit;
import dev.zarrj.ext.datetime.NumpyTimeType;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** Configurations: both fields required, the spec's units only, scale in [1, 2^31 - 1]. */
class NumpyTimeProvidersTest {
    private static final ProviderContext NO_CONTEXT = (codecs, pointer) -> {
        throw new UnsupportedOperationException();
    };

    private static NumpyTimeType create(String config) throws Exception {
        ObjectNode c = (ObjectNode) new ObjectMapper().readTree(config);
        return (NumpyTimeType) new DateTime64Provider().create(
                ExtensionConfig.of("numpy.datetime64", c, "/data_type/configuration"), NO_CONTEXT);
    }

    private static void rejected(String config, String pointer, String... parts) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> create(config), config);
        assertEquals(pointer, e.pointer(), e.getMessage());
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), e.getMessage() + " should name " + p);
        }
    }

    @Test
    void everySpecUnitIsAccepted() throws Exception {
        assertEquals(DateTimeUnit.MICROSECOND, create("{\"unit\": \"\u03bcs\", \"scale_factor\": 1}").unit());
        assertEquals("\u03bcs", create("{\"unit\": \"\u03bcs\", \"scale_factor\": 1}").configuration().get("unit").asText());
        assertEquals(DateTimeUnit.GENERIC, create("{\"unit\": \"generic\", \"scale_factor\": 1}").unit());
        assertEquals(Integer.MAX_VALUE, create("{\"unit\": \"as\", \"scale_factor\": 2147483647}").scaleFactor());
    }

    @Test
    void brokenConfigurationsNameTheField() {
        rejected("{\"scale_factor\": 1}", "/data_type/configuration/unit", "unit", "missing");
        rejected("{\"unit\": \"s\"}", "/data_type/configuration/scale_factor", "scale_factor", "missing");
        rejected("{\"unit\": \"sec\", \"scale_factor\": 1}", "/data_type/configuration/unit", "\"sec\"", "\"ms\"");
        rejected("{\"unit\": \"s\", \"scale_factor\": 0}", "/data_type/configuration/scale_factor", "[1, 2147483647]");
        rejected("{\"unit\": \"s\", \"scale_factor\": 2147483648}", "/data_type/configuration/scale_factor");
        rejected("{\"unit\": \"s\", \"scale_factor\": 1.5}", "/data_type/configuration/scale_factor");
        rejected("{\"unit\": \"s\", \"scale_factor\": 1, \"endian\": \"little\"}", "/data_type/configuration/endian",
                "endian");
    }

    @Test
    void foundByServiceLoader() {
        getClass().getModule().addUses(DataTypeProvider.class);
        assertTrue(ServiceLoader.load(DataTypeProvider.class).stream().anyMatch(p -> p.type() == DateTime64Provider.class));
        assertTrue(ServiceLoader.load(DataTypeProvider.class).stream().anyMatch(p -> p.type() == TimeDelta64Provider.class));
    }
}
