package dev.zarrj.store.zip;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.core.Zarr;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A store location a provider does not understand is a {@link StoreException} naming it. */
class StoreLocationTest {
    @Test
    void locationsNoProviderUnderstandsAreStoreExceptionsNamingThem() {
        for (String bad : List.of("zip:relative/set.zip", "zip://host/set.zip", "zip:/set.zip?mode=r",
                "zip:/set.zip#frag", "zip:/set.zip?wait=forty", "zip:/set.zip!/a/../b", "zip:/set.zip!/a%E2%82",
                "file://host/data", "file:relative", "file:///data?x=1", "/data/a\0b", "/data/a\0b.zip")) {
            StoreException e = assertThrows(StoreException.class, () -> Zarr.defaults().openStore(bad, true), bad);
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }
}
