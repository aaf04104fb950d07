package dev.zarrj.core.internal.codec.transpose;

import static dev.zarrj.core.internal.testing.TestConfigs.NO_CONTEXT;
import static dev.zarrj.core.internal.testing.TestConfigs.config;
import static dev.zarrj.core.internal.testing.TestConfigs.json;
import static dev.zarrj.core.internal.testing.TestDataTypes.COMPLEX128;
import static dev.zarrj.core.internal.testing.TestDataTypes.COMPLEX64;
import static dev.zarrj.core.internal.testing.TestDataTypes.FLOAT32;
import static dev.zarrj.core.internal.testing.TestDataTypes.INT16;
import static dev.zarrj.core.internal.testing.TestDataTypes.R24;
import static dev.zarrj.core.internal.testing.TestDataTypes.UINT8;
import static dev.zarrj.core.internal.testing.TestDataTypes.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.datatype.DataType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TransposeCodecTest {
    private static final String POINTER = "/codecs/0/configuration";

    private static ArrayToArrayCodec codec(String configuration) {
        return (ArrayToArrayCodec) new TransposeCodecProvider()
                .create(config("transpose", configuration, POINTER), NO_CONTEXT);
    }

    private static ArrayToArrayCodec codec(int... order) {
        return codec("{\"order\": " + Arrays.toString(order) + "}");
    }

    /** Distinct bytes in every element, so that any misplaced byte shows. */
    private static NdArray distinct(DataType type, long... shape) {
        NdArray a = NdArray.allocate(type, shape);
        ByteBuffer b = a.bytes();
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (i * 31 + 7));
        }
        return a;
    }

    /** The spec's definition, one element at a time: B[B_pos] = A[A_pos] with B_pos[i] = A_pos[order[i]]. */
    private static NdArray reference(NdArray a, int[] order) {
        long[] aShape = a.shape();
        int rank = aShape.length;
        long[] bShape = new long[rank];
        for (int i = 0; i < rank; i++) {
            bShape[i] = aShape[order[i]];
        }
        NdArray b = NdArray.allocate(a.dataType(), bShape);
        int es = a.dataType().size();
        long[] aPos = new long[rank];
        long[] bPos = new long[rank];
        for (long flat = 0; flat < a.elementCount(); flat++) {
            long rest = flat;
            for (int d = rank - 1; d >= 0; d--) {
                aPos[d] = rest % aShape[d];
                rest /= aShape[d];
            }
            for (int i = 0; i < rank; i++) {
                bPos[i] = aPos[order[i]];
            }
            long bFlat = b.flatIndex(bPos);
            for (int k = 0; k < es; k++) {
                b.bytes().put((int) (bFlat * es + k), a.bytes().get((int) (flat * es + k)));
            }
        }
        return b;
    }

    @Test
    void order201OnAThreeDimensionalArray() {
        int[] order = {2, 0, 1};
        ArrayToArrayCodec c = codec(order);
        ChunkSpec decoded = spec(INT16, 2, 3, 4);
        assertArrayEquals(new long[] {4, 2, 3}, c.encodedSpec(decoded).shape());
        NdArray a = distinct(INT16, 2, 3, 4);
        NdArray b = c.encode(a, decoded);
        assertTrue(reference(a, order).contentEquals(b));
        // A[1, 2, 3] lands at B[3, 1, 2].
        assertEquals(a.getLong(a.flatIndex(1, 2, 3)), b.getLong(b.flatIndex(3, 1, 2)));
        assertTrue(a.contentEquals(c.decode(b, decoded)));
    }

    @Test
    void everyPermutationOfFourDimensionsMatchesTheReference() {
        long[] shape = {2, 3, 1, 4};
        for (DataType type : new DataType[] {UINT8, INT16, FLOAT32, COMPLEX64, COMPLEX128, R24}) {
            NdArray a = distinct(type, shape);
            ChunkSpec decoded = spec(type, shape);
            for (int[] order : permutations(4)) {
                ArrayToArrayCodec c = codec(order);
                NdArray b = c.encode(a, decoded);
                String what = type.name() + " " + Arrays.toString(order);
                assertTrue(reference(a, order).contentEquals(b), what);
                assertTrue(a.contentEquals(c.decode(b, decoded)), what);
            }
        }
    }

    @Test
    void partialDecoderAsksForThePermutedRegionOnly() {
        int[] order = {2, 0, 1};
        ArrayToArrayCodec codec = codec(order);
        ChunkSpec spec = spec(INT16, 4, 5, 6);
        NdArray a = distinct(INT16, 4, 5, 6);
        NdArray b = codec.encode(a, spec);
        List<Region> asked = new ArrayList<>();
        ArrayPartialDecoder encoded = region -> {
            asked.add(region);
            return Optional.of(b.region(region));
        };
        ArrayPartialDecoder d = codec.partialDecoder(encoded, spec).orElseThrow();
        assertTrue(asked.isEmpty(), "creating it reads nothing");
        java.util.Random random = new java.util.Random(13);
        for (int trial = 0; trial < 200; trial++) {
            long[] offset = new long[3];
            long[] shape = new long[3];
            for (int k = 0; k < 3; k++) {
                offset[k] = random.nextInt((int) spec.shape()[k] + 1);
                shape[k] = random.nextInt((int) (spec.shape()[k] - offset[k]) + 1);
            }
            Region region = Region.of(offset, shape);
            asked.clear();
            NdArray part = d.decode(region).orElseThrow();
            assertTrue(a.region(region).contentEquals(part), region.toString());
            assertEquals(List.of(region.permute(order)), asked);
            NdArray into = NdArray.allocate(INT16, 6, 7, 8);
            assertTrue(d.decodeInto(region, into, new long[] {1, 1, 1}));
            assertTrue(a.region(region).contentEquals(into.region(region.at(new long[] {1, 1, 1}))), region.toString());
        }
        assertThrows(IllegalArgumentException.class, () -> d.decode(Region.of(new long[] {3, 0, 0}, new long[] {2, 1, 1})));
    }

    @Test
    void partialDecoderPassesAbsenceOn() {
        ChunkSpec spec = spec(INT16, 4, 5);
        ArrayPartialDecoder d = codec(1, 0).partialDecoder(region -> Optional.empty(), spec).orElseThrow();
        assertTrue(d.decode(Region.whole(4, 5)).isEmpty());
        NdArray dst = NdArray.allocate(INT16, 4, 5);
        assertEquals(false, d.decodeInto(Region.whole(4, 5), dst, new long[2]));
        assertThrows(InvalidMetadataException.class,
                () -> codec(1, 0).partialDecoder(region -> Optional.empty(), spec(INT16, 4, 5, 6)));
    }

    @Test
    void trailingDimensionsInPlaceAreCopiedAsRuns() {
        // [1, 0, 2, 3] keeps the last two dimensions together: runs of 5 * 6 elements.
        int[] order = {1, 0, 2, 3};
        NdArray a = distinct(FLOAT32, 3, 4, 5, 6);
        ChunkSpec decoded = spec(FLOAT32, 3, 4, 5, 6);
        NdArray b = codec(order).encode(a, decoded);
        assertTrue(reference(a, order).contentEquals(b));
        assertTrue(a.contentEquals(codec(order).decode(b, decoded)));
    }

    @Test
    void identityOrderDoesNotCopy() {
        NdArray a = distinct(INT16, 2, 3);
        ChunkSpec decoded = spec(INT16, 2, 3);
        ArrayToArrayCodec c = codec(0, 1);
        assertSame(a, c.encode(a, decoded));
        assertSame(a, c.decode(a, decoded));
    }

    @Test
    void permutingOnlyLengthOneDimensionsKeepsTheBytes() {
        NdArray a = distinct(INT16, 1, 5, 1);
        ChunkSpec decoded = spec(INT16, 1, 5, 1);
        NdArray b = codec(2, 1, 0).encode(a, decoded);
        assertArrayEquals(new long[] {1, 5, 1}, b.shape());
        assertArrayEquals(a.toByteArray(), b.toByteArray());
    }

    @Test
    void zeroSizedAndZeroDimensionalChunks() {
        ChunkSpec empty = spec(INT16, 3, 0, 2);
        NdArray b = codec(2, 0, 1).encode(NdArray.allocate(INT16, 3, 0, 2), empty);
        assertArrayEquals(new long[] {2, 3, 0}, b.shape());
        ChunkSpec scalar = spec(FLOAT32);
        NdArray s = distinct(FLOAT32);
        ArrayToArrayCodec c = codec("{\"order\": []}");
        assertArrayEquals(new long[0], c.encodedSpec(scalar).shape());
        assertTrue(s.contentEquals(c.decode(c.encode(s, scalar), scalar)));
    }

    @Test
    void rankMismatchIsRefused() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> codec(1, 0).encodedSpec(spec(INT16, 2, 3, 4)));
        assertEquals("/codecs/0/configuration/order", e.pointer());
        assertTrue(e.getMessage().contains("2 entries") && e.getMessage().contains("rank 3"), e.getMessage());
    }

    @Test
    void encodedArrayOfTheWrongShapeIsCorrupt() {
        ChunkSpec decoded = spec(INT16, 2, 3);
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> codec(1, 0).decode(NdArray.allocate(INT16, 2, 3), decoded));
        assertTrue(e.getMessage().contains("[2, 3]") && e.getMessage().contains("[3, 2]"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "{\"order\": [0, 0, 1]};      /codecs/0/configuration/order/1;  appears twice",
        "{\"order\": [0, 3, 1]};      /codecs/0/configuration/order/1;  out of range",
        "{\"order\": [1, -1]};        /codecs/0/configuration/order/1;  -1",
        "{\"order\": [0, 1.5]};       /codecs/0/configuration/order/1;  1.5",
        "{\"order\": \"X\"};          /codecs/0/configuration/order;    found \"X\"",
        "{\"order\": 2};              /codecs/0/configuration/order;    array",
        "{};                          /codecs/0/configuration/order;    missing",
        "{\"order\": [0], \"x\": 1};  /codecs/0/configuration/x;        unknown"})
    void badOrdersAreRefused(String configuration, String pointer, String message) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> codec(configuration));
        assertEquals(pointer, e.pointer());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void ofChecksThePermutationToo() {
        assertThrows(InvalidMetadataException.class, () -> TransposeCodec.of(1, 1));
        assertEquals(codec(2, 0, 1), TransposeCodec.of(2, 0, 1));
    }

    @Test
    void configurationRoundTrips() {
        ArrayToArrayCodec c = codec(2, 0, 1);
        assertEquals(json("{\"name\": \"transpose\", \"configuration\": {\"order\": [2, 0, 1]}}"), c.toJson());
        assertEquals(c, codec(c.configuration().toString()));
    }

    private static List<int[]> permutations(int n) {
        List<int[]> out = new ArrayList<>();
        permute(new int[n], new boolean[n], 0, out);
        return out;
    }

    private static void permute(int[] current, boolean[] used, int at, List<int[]> out) {
        if (at == current.length) {
            out.add(current.clone());
            return;
        }
        for (int v = 0; v < current.length; v++) {
            if (!used[v]) {
                used[v] = true;
                current[at] = v;
                permute(current, used, at + 1, out);
                used[v] = false;
            }
        }
    }
}
