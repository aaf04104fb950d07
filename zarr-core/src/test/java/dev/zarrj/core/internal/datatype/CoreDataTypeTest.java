package dev.zarrj.core.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.datatype.ElementKind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CoreDataTypeTest {

    private static void assertShape(CoreDataType t, String name, int size, int unit, ElementKind kind) {
        assertEquals(name, t.name());
        assertEquals(size, t.size(), name);
        assertEquals(unit, t.byteOrderUnit(), name);
        assertEquals(kind, t.kind(), name);
        assertEquals(name, t.toString());
    }

    @Test
    void sizesUnitsAndKinds() {
        assertShape(CoreDataType.BOOL, "bool", 1, 1, ElementKind.BOOL);
        assertShape(CoreDataType.INT8, "int8", 1, 1, ElementKind.INT);
        assertShape(CoreDataType.INT16, "int16", 2, 2, ElementKind.INT);
        assertShape(CoreDataType.INT32, "int32", 4, 4, ElementKind.INT);
        assertShape(CoreDataType.INT64, "int64", 8, 8, ElementKind.INT);
        assertShape(CoreDataType.UINT8, "uint8", 1, 1, ElementKind.UINT);
        assertShape(CoreDataType.UINT16, "uint16", 2, 2, ElementKind.UINT);
        assertShape(CoreDataType.UINT32, "uint32", 4, 4, ElementKind.UINT);
        assertShape(CoreDataType.UINT64, "uint64", 8, 8, ElementKind.UINT);
        assertShape(CoreDataType.FLOAT16, "float16", 2, 2, ElementKind.FLOAT);
        assertShape(CoreDataType.FLOAT32, "float32", 4, 4, ElementKind.FLOAT);
        assertShape(CoreDataType.FLOAT64, "float64", 8, 8, ElementKind.FLOAT);
        assertShape(CoreDataType.COMPLEX64, "complex64", 8, 4, ElementKind.COMPLEX);
        assertShape(CoreDataType.COMPLEX128, "complex128", 16, 8, ElementKind.COMPLEX);
        assertShape(CoreDataType.raw(8), "r8", 1, 1, ElementKind.RAW);
        assertShape(CoreDataType.raw(24), "r24", 3, 1, ElementKind.RAW);
        assertShape(CoreDataType.raw(128), "r128", 16, 1, ElementKind.RAW);
    }

    @Test
    void writesItselfAsAPlainStringWithNoConfiguration() {
        assertEquals(TextNode.valueOf("float32"), CoreDataType.FLOAT32.toJson());
        assertEquals(TextNode.valueOf("r16"), CoreDataType.raw(16).toJson());
        assertTrue(CoreDataType.COMPLEX128.configuration().isEmpty());
        // The configuration is a fresh copy: changing one does not change the next.
        CoreDataType.BOOL.configuration().put("x", 1);
        assertTrue(CoreDataType.BOOL.configuration().isEmpty());
    }

    @Test
    void equalityIsByName() {
        assertEquals(CoreDataType.raw(16), CoreDataType.raw(16));
        assertEquals(CoreDataType.raw(16).hashCode(), CoreDataType.raw(16).hashCode());
        assertNotEquals(CoreDataType.raw(16), CoreDataType.raw(24));
        assertNotEquals(CoreDataType.raw(16), CoreDataType.INT16);
        assertNotEquals(CoreDataType.INT16, CoreDataType.UINT16);
    }

    @Test
    void rawRefusesWidthsThatAreNotPositiveMultiplesOf8() {
        for (int bits : new int[] {0, -8, 4, 12, 1, Integer.MAX_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CoreDataType.raw(bits));
            assertTrue(e.getMessage().contains(Integer.toString(bits)), e::getMessage);
        }
        assertEquals(CoreDataType.MAX_RAW_BITS / 8, CoreDataType.raw(CoreDataType.MAX_RAW_BITS).size());
    }

    @Test
    void byNameKnowsEveryCoreNameAndWellFormedRawNames() {
        for (CoreDataType t : List.of(CoreDataType.BOOL, CoreDataType.INT8, CoreDataType.INT16, CoreDataType.INT32,
                CoreDataType.INT64, CoreDataType.UINT8, CoreDataType.UINT16, CoreDataType.UINT32, CoreDataType.UINT64,
                CoreDataType.FLOAT16, CoreDataType.FLOAT32, CoreDataType.FLOAT64, CoreDataType.COMPLEX64,
                CoreDataType.COMPLEX128)) {
            assertSame(t, CoreDataType.byName(t.name()).orElseThrow());
        }
        assertEquals(Optional.of(CoreDataType.raw(40)), CoreDataType.byName("r40"));
        for (String bad : List.of("", "r", "r0", "r08", "r12", "r-8", "R8", "r8 ", "rr8", "r2147483648",
                "r99999999999999999999999999", "int", "Int8", "float", "complex", "string", "r*")) {
            assertEquals(Optional.empty(), CoreDataType.byName(bad), bad);
        }
    }
}
