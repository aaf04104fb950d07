package dev.zarrj.cli;

import static dev.zarrj.cli.ZarrCliTest.zarr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ml_dtypes family on the command line: create by name, write and cat raw as the stored bytes,
 * cat json/csv as values; struct fails in one line naming the type.
 */
class NarrowTypesCliTest {
    @TempDir
    Path tmp;

    private ZarrCliTest.Result write(String store, String path, byte[] raw) throws Exception {
        Path f = tmp.resolve(path.substring(1) + ".raw");
        Files.write(f, raw);
        return zarr("write", store, "--path", path, "--raw", f.toString());
    }

    @Test
    void bfloat16Float8AndInt4RoundTripThroughTheCommands() throws Exception {
        String store = tmp.resolve("n.zarr").toString();
        assertEquals(0, zarr("create", store, "--path", "/bf", "--shape", "3", "--dtype", "bfloat16", "--fill", "NaN").code());
        assertEquals(0, write(store, "/bf", new byte[] {(byte) 0x80, 0x3f, 0x49, 0x40, 0x00, (byte) 0xbf}).code());
        assertEquals("[1.0,3.140625,-0.5]\n", zarr("cat", store, "--path", "/bf", "--format", "json").out());
        assertArrayEquals(new byte[] {(byte) 0x80, 0x3f, 0x49, 0x40, 0x00, (byte) 0xbf},
                zarr("cat", store, "--path", "/bf", "--format", "raw").stdout(), "raw: little-endian stored bits");

        assertEquals(0, zarr("create", store, "--path", "/f8", "--shape", "3", "--dtype", "float8_e4m3").code());
        assertEquals(0, write(store, "/f8", new byte[] {0x38, 0x7c, 0x78}).code());
        assertEquals("1.0\nNaN\nInfinity\n", zarr("cat", store, "--path", "/f8", "--format", "csv").out());

        assertEquals(0, zarr("create", store, "--path", "/i4", "--shape", "3", "--dtype", "int4", "--fill", "-8").code());
        assertEquals(0, write(store, "/i4", new byte[] {0x0f, 0x07, (byte) 0xf8}).code());
        assertEquals("[-1,7,-8]\n", zarr("cat", store, "--path", "/i4", "--format", "json").out());
        ZarrCliTest.Result info = zarr("info", store, "--path", "/i4");
        assertTrue(info.out().contains("int4 shape [3]") && info.out().contains("fill -8,"), info.out());

        assertEquals(0, zarr("create", store, "--path", "/c", "--shape", "1", "--dtype", "complex_float4_e2m1fn").code());
        assertEquals(0, write(store, "/c", new byte[] {0x07, 0x0f}).code());
        assertEquals("[[6.0,-6.0]]\n", zarr("cat", store, "--path", "/c", "--format", "json").out());
        assertEquals(2, zarr("cat", store, "--path", "/c", "--format", "csv").code(), "csv holds no complex pairs");
    }

    @Test
    void structFailsInOneLineNamingTheType() throws Exception {
        Path store = tmp.resolve("s.zarr");
        Files.createDirectories(store.resolve("a"));
        Files.writeString(store.resolve("a/zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [2],"
                + " \"data_type\": {\"name\": \"struct\", \"configuration\": {\"fields\": [{\"name\": \"x\", \"data_type\":"
                + " \"float32\"}]}}, \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}},"
                + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": {\"x\": 0.0}, \"codecs\": [{\"name\":"
                + " \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}");
        ZarrCliTest.Result r = zarr("cat", store.toString(), "--path", "/a", "--format", "json");
        assertEquals(2, r.code());
        assertTrue(r.stderr().contains("'struct'") && r.stderr().contains("not implemented"), r.stderr());
        assertEquals(1, r.stderr().strip().lines().count(), r.stderr());
    }
}
