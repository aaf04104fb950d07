package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An array on a grid other than {@code regular} is refused, naming the grid, rather than misread. */
class NonRegularGridTest {
    @TempDir
    Path dir;

    @Test
    void anArrayOnAPluginsGridIsRefusedNamingIt() {
        try (Zarr zarr = Zarr.defaults()) {
            ObjectNode doc = zarr.array(DataTypes.INT16, 7, 5).toMetadata();
            ObjectNode grid = doc.putObject("chunk_grid");
            grid.put("name", "test_threes");
            grid.putObject("configuration").putArray("ranks").add(2);
            try (var store = zarr.openStore(dir.toString())) {
                ZarrArray a = zarr.createArray(store, "g", doc, false);
                a.write(new long[2], new long[] {7, 5}, new short[35]);
                assertEquals(3, a.chunkShape()[0], "the plugin's grid is in use");
            }
        }
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> TestSpark.session().read()
                .format("zarr").option("array", "g").load(dir.toString()).collectAsList());
        assertTrue(e.getMessage().contains("test_threes") && e.getMessage().contains("'/g'"), e.getMessage());
    }
}
