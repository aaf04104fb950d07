package dev.zarrj.spark.internal.read;

import dev.zarrj.spark.ZarrOptions;
import org.apache.spark.sql.types.StructType;

/** Placeholder: the arrays a read covers (lands with the read path). */
public final class ArraySet {
    public static ArraySet open(ZarrOptions options) {
        throw new UnsupportedOperationException("read path not yet built");
    }

    public StructType schema() {
        throw new UnsupportedOperationException();
    }
}
