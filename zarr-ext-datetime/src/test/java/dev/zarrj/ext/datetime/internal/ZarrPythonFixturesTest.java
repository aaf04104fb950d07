package dev.zarrj.ext.datetime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.ext.datetime.DateTimeUnit;
import dev.zarrj.ext.datetime.NumpyTimeType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** zarr-python's metadata fixtures for the two types (packages/zarr-metadata/tests/v3) are accepted as meant. */
class ZarrPythonFixturesTest {
    private static final Zarr ZARR = Zarr.defaults();

    private static Path fixtures() {
        Optional<Path> root = NumpyTimeVectorsTest.vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found");
        return root.get().resolve("zarr-python/metadata_fixtures/v3");
    }

    private static JsonNode read(Path p) throws IOException {
        return new ObjectMapper().readTree(p.toFile());
    }

    private static long count(FillValue v) {
        return ByteBuffer.wrap(v.bytes()).order(ByteOrder.nativeOrder()).getLong();
    }

    @Test
    void dataTypesAndFillValuesParse() throws IOException {
        Path dir = fixtures().resolve("data_type");
        for (String[] f : new String[][] {{"numpy_datetime64", "12345"}, {"numpy_timedelta64", "42"}}) {
            JsonNode dt = read(dir.resolve(f[0]).resolve("data_type.json"));
            ObjectNode doc = (ObjectNode) read(fixtures().resolve("array/datatype_named_config.json"));
            doc.set("data_type", dt);
            Store store = ZARR.openStore("memory:");
            ZarrArray a = ZARR.createArray(store, "/a", doc, false);
            NumpyTimeType t = assertInstanceOf(NumpyTimeType.class, a.dataType());
            assertEquals(dt, t.toJson());
            JsonNode fills = read(dir.resolve(f[0]).resolve("fill_values.json"));
            assertEquals(Long.parseLong(f[1]), count(t.parseFillValue(fills.get("int"), "/fill_value")));
            assertEquals(NumpyTimeType.NAT, count(t.parseFillValue(fills.get("nat"), "/fill_value")));
        }
    }

    @Test
    void theNamedConfigArrayOpens() throws IOException {
        ObjectNode doc = (ObjectNode) read(fixtures().resolve("array/datatype_named_config.json"));
        Store store = ZARR.openStore("memory:");
        ZARR.createArray(store, "/a", doc, false);
        ZarrArray a = ZARR.openArray(store, "/a");
        assertEquals(NumpyTimeType.datetime64(DateTimeUnit.NANOSECOND, 1), a.dataType());
        assertEquals(0, a.read().getLong(3), "fill value 0, the epoch");
    }
}
