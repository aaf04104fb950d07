package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * A multipart upload that its writer never completed nor aborted (the process was killed in the
 * middle of a large {@code set}) is a leftover: listed with its parts' size, never a key, and
 * aborted by {@code removeLeftovers}, which leaves uploads outside the store's prefix alone.
 * (On S3Mock 4.11.0 aborting an upload also deletes an object of the same name, which AWS does
 * not do, so the unfinished uploads here are of names without an object.)
 */
@ExtendWith(S3Mock.class)
class S3LeftoversTest {
    @Test
    void anUnfinishedMultipartUploadIsALeftoverThatRemoveLeftoversAborts() {
        S3AsyncClient admin = S3Mock.get().admin();
        String bucket = S3Mock.get().newBucket();
        String inside = unfinishedUpload(admin, bucket, "data.zarr/a/c/0/0", 1000);
        String outside = unfinishedUpload(admin, bucket, "other.zarr/a/c/0/0", 10);
        try (Store s = S3Stores.open(S3Mock.get().uri(bucket, "data.zarr", ""), true, Map.of())) {
            List<Leftover> found = s.leftovers();
            assertEquals(1, found.size(), found.toString());
            Leftover l = found.get(0);
            assertEquals("s3://" + bucket + "/data.zarr/a/c/0/0?uploadId=" + inside, l.location());
            assertEquals(1000, l.size());
            assertFalse(l.live(), "no writer of this JVM is uploading it");
            assertEquals(List.of(), s.list(), "an unfinished upload is not a key");

            assertEquals(List.of(), s.removeLeftovers(Duration.ofHours(1)), "younger than the minimum age: kept");
            assertEquals(List.of(l), s.removeLeftovers(Duration.ZERO), "allowed on a read-only store");
            assertEquals(List.of(), s.leftovers());
        }
        List<String> remaining = admin.listMultipartUploads(r -> r.bucket(bucket)).join().uploads().stream()
                .map(MultipartUpload::uploadId).toList();
        assertEquals(List.of(outside), remaining, "the upload outside the prefix is left alone");
    }

    @Test
    void aCompletedUploadLeavesNothing() {
        String bucket = S3Mock.get().newBucket();
        try (Store s = S3Stores.open(S3Mock.get().uri(bucket, "data.zarr", "&multipart-threshold=5242880&part-size=5242880"),
                false, Map.of())) {
            s.set(StoreKey.of("big"), ByteBuffer.allocate((5 << 20) + 10));
            assertTrue(s.exists(StoreKey.of("big")));
            assertEquals(List.of(), s.leftovers());
        }
    }

    /** Starts an upload of {@code name} with one part of {@code size} bytes, and leaves it unfinished; its id. */
    private static String unfinishedUpload(S3AsyncClient admin, String bucket, String name, int size) {
        String id = admin.createMultipartUpload(r -> r.bucket(bucket).key(name)).join().uploadId();
        admin.uploadPart(r -> r.bucket(bucket).key(name).uploadId(id).partNumber(1).contentLength((long) size),
                AsyncRequestBody.fromBytes(new byte[size])).join();
        return id;
    }
}
