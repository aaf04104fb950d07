package dev.zarrj.spark.internal.chunks;

import org.apache.spark.sql.connector.read.InputPartition;

/** One input partition of chunk rows: chunks of the grid by their C-order linear index. */
record ChunkPartition(long[] chunks) implements InputPartition {
}
