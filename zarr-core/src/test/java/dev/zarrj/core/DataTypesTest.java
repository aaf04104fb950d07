package dev.zarrj.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.datatype.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataTypesTest {
    @Test
    void ofGivesTheConstantForEachCoreName() {
        List<DataType> all = List.of(DataTypes.BOOL, DataTypes.INT8, DataTypes.INT16, DataTypes.INT32, DataTypes.INT64,
                DataTypes.UINT8, DataTypes.UINT16, DataTypes.UINT32, DataTypes.UINT64, DataTypes.FLOAT16,
                DataTypes.FLOAT32, DataTypes.FLOAT64, DataTypes.COMPLEX64, DataTypes.COMPLEX128);
        assertEquals(14, all.stream().map(DataType::name).distinct().count());
        for (DataType t : all) {
            assertSame(t, DataTypes.of(t.name()));
        }
        assertEquals("float32", DataTypes.FLOAT32.name());
    }

    @Test
    void rawTypesByFactoryAndByName() {
        assertEquals(DataTypes.raw(24), DataTypes.of("r24"));
        assertEquals(3, DataTypes.raw(24).size());
        assertThrows(IllegalArgumentException.class, () -> DataTypes.raw(12));
    }

    @Test
    void otherNamesAreRefusedListingTheAllowedOnes() {
        for (String bad : List.of("float", "r12", "string", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DataTypes.of(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("complex128"),
                    e::getMessage);
        }
    }
}
