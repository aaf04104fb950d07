package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Writes sharded arrays for other implementations to read, each directory with an
 * {@code expected.json} in the format of {@code interop/zarrita/verify.mjs}, under {@code target}
 * (or the directory in the system property {@code zarrj.interop.out}):
 *
 * <pre>{@code
 * cd interop/zarrita && npm ci && node verify.mjs ../../zarr-codec-sharding/target/interop-sharding
 * }</pre>
 *
 * <p>{@code interop-sharding} holds one-level shards with the index at the end (crc32c, gzip,
 * transpose with big endian, edge shards, empty inner chunks, shards rewritten in part);
 * {@code interop-sharding-start-nested} holds shards with the index at the start and shards inside
 * shards, which zarrita 0.7.5 does not read (it always fetches the index from the end and has no
 * inner sharding codec). Here the test checks only that zarrj reads back what it wrote.
 */
class ShardInteropWriteTest {
    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    private static final String BE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}";
    private static final String CRC = "{\"name\":\"crc32c\"}";
    private static final String GZIP = "{\"name\":\"gzip\",\"configuration\":{\"level\":5}}";

    @Test
    void writeArraysForOtherImplementations() throws Exception {
        Path base = Path.of(System.getProperty("zarrj.interop.out", "target")).toAbsolutePath();
        Random rnd = new Random(11);
        String t = "{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},";
        // Index at the end, one level: what every implementation reads (zarrita 0.7.5 reads only these).
        writeAll(base.resolve("interop-sharding"), rnd, new Object[][] {
                {"/end_crc_gzip", DataTypes.INT32, new long[] {23, 17}, new long[] {8, 12},
                        ShardingRoundTripTest.sharding("[4,3]", LE + "," + GZIP, LE + "," + CRC, "end"), true},
                {"/end_partial_writes", DataTypes.INT16, new long[] {10, 10}, new long[] {10, 10},
                        ShardingRoundTripTest.sharding("[5,2]", LE, LE + "," + CRC, "end"), false},
                {"/transpose_big_endian", DataTypes.UINT16, new long[] {6, 9}, new long[] {6, 9},
                        ShardingRoundTripTest.sharding("[3,3]", t + BE, BE + "," + CRC, "end"), false},
                {"/three_d_edges", DataTypes.UINT8, new long[] {5, 7, 9}, new long[] {4, 4, 6},
                        ShardingRoundTripTest.sharding("[2,2,3]", "{\"name\":\"bytes\"}", LE + "," + CRC, "end"), true}});
        // The index at the start, and shards inside shards.
        writeAll(base.resolve("interop-sharding-start-nested"), rnd, new Object[][] {
                {"/start_partial_writes", DataTypes.INT16, new long[] {10, 10}, new long[] {10, 10},
                        ShardingRoundTripTest.sharding("[5,2]", LE, LE + "," + CRC, "start"), false},
                {"/start_three_d_edges", DataTypes.UINT8, new long[] {5, 7, 9}, new long[] {4, 4, 6},
                        ShardingRoundTripTest.sharding("[2,2,3]", "{\"name\":\"bytes\"}", LE + "," + CRC, "start"), true},
                {"/nested", DataTypes.FLOAT64, new long[] {16, 16}, new long[] {16, 16},
                        ShardingRoundTripTest.sharding("[8,8]", ShardingRoundTripTest.sharding("[4,4]", LE, LE, "start"),
                                LE + "," + CRC, "end"), true}});
    }

    private static void writeAll(Path out, Random rnd, Object[][] arrays) throws Exception {
        Files.createDirectories(out);
        Zarr zarr = Zarr.defaults();
        Store store = zarr.openStore(out.toString());
        ObjectMapper json = new ObjectMapper();
        ObjectNode expected = json.createObjectNode();
        ArrayNode list = expected.putArray("arrays");
        for (Object[] a : arrays) {
            list.add(write(zarr, store, (String) a[0], (DataType) a[1], (long[]) a[2], (long[]) a[3], (String) a[4], rnd,
                    (Boolean) a[5]));
        }
        json.writerWithDefaultPrettyPrinter().writeValue(out.resolve("expected.json").toFile(), expected);
        System.out.println("sharded arrays for other implementations written to " + out);
    }

    /**
     * Writes an array and returns its expected.json entry. {@code wholeThenHoles}: write it whole,
     * then overwrite a block with the fill value (empty inner chunks); otherwise build it from
     * random partial writes.
     */
    private static ObjectNode write(Zarr zarr, Store store, String path, DataType type, long[] shape, long[] chunks,
                                    String codec, Random rnd, boolean wholeThenHoles) {
        ZarrArray a = zarr.array(type, shape).chunks(chunks).codecs("[" + codec + "]").fillValue(0).overwrite(true)
                .create(store, path);
        int n = (int) java.util.Arrays.stream(shape).reduce(1, Math::multiplyExact);
        NdArray reference = NdArray.allocate(type, shape);
        if (wholeThenHoles) {
            for (int i = 0; i < n; i++) {
                reference.setDouble(i, value(type, i));
            }
            a.write(reference);
            long[] off = new long[shape.length];
            long[] ext = new long[shape.length];
            for (int d = 0; d < shape.length; d++) {
                ext[d] = Math.min(shape[d], chunks[d] / 2 + 1);
            }
            NdArray zeros = NdArray.allocate(type, ext);
            a.write(off, zeros);
            RegionCopy.copy(zeros, Region.of(new long[shape.length], ext), reference, off);
        } else {
            for (int round = 0; round < 12; round++) {
                long[] off = new long[shape.length];
                long[] ext = new long[shape.length];
                for (int d = 0; d < shape.length; d++) {
                    off[d] = rnd.nextInt((int) shape[d]);
                    ext[d] = 1 + rnd.nextInt((int) (shape[d] - off[d]));
                }
                NdArray part = NdArray.allocate(type, ext);
                for (long i = 0; i < part.elementCount(); i++) {
                    part.setDouble(i, value(type, rnd.nextInt(1000)));
                }
                a.write(off, part);
                RegionCopy.copy(part, Region.of(new long[shape.length], ext), reference, off);
            }
        }
        assertTrue(reference.contentEquals(zarr.openArray(store, path).read()), path);
        ObjectNode entry = new ObjectMapper().createObjectNode();
        entry.put("path", path);
        entry.put("data_type", type.name());
        ArrayNode s = entry.putArray("shape");
        for (long d : shape) {
            s.add(d);
        }
        ArrayNode values = entry.putArray("values");
        for (long i = 0; i < n; i++) {
            if (type.kind() == dev.zarrj.api.datatype.ElementKind.FLOAT) {
                values.add(reference.getDouble(i));
            } else {
                values.add(reference.getLong(i));
            }
        }
        return entry;
    }

    private static double value(DataType type, int i) {
        return switch (type.name()) {
            case "float64" -> i * 0.5 - 7.25;
            case "uint8" -> 1 + i % 250;
            case "uint16" -> 1 + i * 7 % 60000;
            case "int16" -> i - 20;
            default -> i * 3 - 100;
        };
    }
}
