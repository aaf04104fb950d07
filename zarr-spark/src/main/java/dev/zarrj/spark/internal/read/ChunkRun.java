package dev.zarrj.spark.internal.read;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One input partition: chunks of the storage grid (shards, when sharded), by their C-order
 * linear index; each is fetched by this partition's task only.
 */
record ChunkRun(long[] chunks) implements InputPartition {
}
