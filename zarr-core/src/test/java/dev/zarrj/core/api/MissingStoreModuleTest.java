package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.core.Zarr;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A URI whose store module is not installed names the module to add (zarr-core alone has none of these). */
class MissingStoreModuleTest {
    @ParameterizedTest
    @CsvSource({"s3://bucket/data.zarr, zarr-store-s3", "https://example.org/data.zarr, zarr-store-http",
            "http://example.org/data.zarr, zarr-store-http", "zip:/tmp/x.zip, zarr-store-zip"})
    void theErrorNamesTheModule(String location, String module) {
        StoreException e = assertThrows(StoreException.class, () -> Zarr.defaults().openStore(location));
        assertTrue(e.getMessage().contains("add " + module), e.getMessage());
    }
}
