package dev.zarrj.spark.internal.write;

import java.util.List;
import java.io.Serializable;

/** What one task stored: the keys of the objects (shards or chunks) it wrote, and its row count. */
record WrittenObjects(List<String> keys, long rows) implements Serializable {
    WrittenObjects {
        keys = List.copyOf(keys);
    }
}
