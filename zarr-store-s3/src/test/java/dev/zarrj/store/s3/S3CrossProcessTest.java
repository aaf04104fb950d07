package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.conformance.CrossProcessHarness;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs on one S3 prefix ({@link CrossProcessHarness}), with conditional writes on: partial
 * writes of one shard lose nothing, and of two creations of one array exactly one succeeds. On
 * S3Mock through a {@link PerObjectLockProxy}, which gives each object the atomicity AWS S3 has
 * and S3Mock 4.11.0 lacks. (With {@code conditional-writes=false} the same run loses elements.)
 */
@ExtendWith(S3Mock.class)
class S3CrossProcessTest {
    @TempDir
    Path dir;

    private static CrossProcessHarness harness(Path work, String options) {
        String bucket = S3Mock.get().newBucket();
        return CrossProcessHarness.of(S3Mock.get().linearizedUri(bucket, "x.zarr", "&region=us-east-1" + options).toString(),
                        work)
                .withJvmArgs("-Daws.accessKeyId=" + S3TestServer.IDENTITY, "-Daws.secretAccessKey=" + S3TestServer.CREDENTIAL);
    }

    @Test
    void twoJvmsWritingInnerChunksOfOneShardLoseNothing() throws Exception {
        CrossProcessHarness.Report r = harness(dir.resolve("w"), "&conditional-writes=true").shardedWrites();
        assertEquals(20L * 16 * 16, r.checked(), r::toString);
        assertTrue(r.passed(), r::toString);
    }

    @Test
    void ofTwoJvmsCreatingOneArrayExactlyOneSucceeds() throws Exception {
        CrossProcessHarness.Report r = harness(dir.resolve("c"), "&conditional-writes=true").withRounds(10).createOnce();
        assertEquals(20, r.checked(), r::toString);
        assertTrue(r.passed(), r::toString);
    }
}
