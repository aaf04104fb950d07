package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.conformance.CrossProcessHarness;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs on one file store ({@link CrossProcessHarness}): partial writes of one shard lose
 * nothing, and of two creations of one array exactly one succeeds — what the file store's
 * conditional writes, used by zarr-core, guarantee across processes. This module's tests see
 * zarr-core, the sharding codec, the file store and the harness.
 */
class CrossProcessFileStoreTest {
    @TempDir
    Path dir;

    private CrossProcessHarness harness() {
        return CrossProcessHarness.of("file:" + dir.resolve("x.zarr"), dir.resolve("work"));
    }

    @Test
    void twoJvmsWritingInnerChunksOfOneShardLoseNothing() throws Exception {
        CrossProcessHarness.Report r = harness().shardedWrites();
        assertEquals(20L * 16 * 16, r.checked(), r::toString);
        assertTrue(r.passed(), r::toString);
    }

    @Test
    void ofTwoJvmsCreatingOneArrayExactlyOneSucceeds() throws Exception {
        CrossProcessHarness.Report r = harness().createOnce();
        assertEquals(40, r.checked(), r::toString);
        assertTrue(r.passed(), r::toString);
    }
}
