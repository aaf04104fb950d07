package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Store#listPrefixSizes} on S3 takes the sizes from ListObjectsV2's answer: a request per
 * page of up to a thousand keys, no HEAD request per key (which {@code zarr info} and
 * {@code zarr ls -l} would otherwise send for every chunk).
 */
class S3ListingSizesTest {
    private static String object(String key, long size) {
        return "<Contents><Key>" + key + "</Key><Size>" + size + "</Size><ETag>\"e\"</ETag>"
                + "<StorageClass>STANDARD</StorageClass></Contents>";
    }

    private static byte[] page(boolean truncated, String token, String... contents) {
        return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>bucket</Name>"
                + "<Prefix>p/a/</Prefix><KeyCount>" + contents.length + "</KeyCount><MaxKeys>1000</MaxKeys>"
                + "<IsTruncated>" + truncated + "</IsTruncated>"
                + (token != null ? "<NextContinuationToken>" + token + "</NextContinuationToken>" : "")
                + String.join("", contents) + "</ListBucketResult>").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void sizesComeFromTheListingPagesWithoutAHeadRequestPerKey() throws Exception {
        byte[] first = page(true, "next-page", object("p/a/c/0", 120), object("p/a/c/1", 0),
                object("p/a/folder//x", 7));
        byte[] second = page(false, null, object("p/a/c/2", 3_000_000_000L), object("p/a/zarr.json", 321));
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> new ScriptedHttpServer.Answer(200,
                List.of("Content-Type: application/xml"), head.contains("continuation-token=next-page") ? second : first));
                Store s = S3Stores.open(URI.create("s3://bucket/p?region=us-east-1&anonymous=true&endpoint="
                        + server.endpoint()), true, Map.of())) {
            assertEquals(List.of(
                    new KeySize(StoreKey.of("a/c/0"), 120), new KeySize(StoreKey.of("a/c/1"), 0),
                    new KeySize(StoreKey.of("a/c/2"), 3_000_000_000L), new KeySize(StoreKey.of("a/zarr.json"), 321)),
                    s.listPrefixSizes("a/"), "'a/folder//x' (an empty segment) is no key");
            assertEquals(2, server.requests.size(), "one request per page: " + server.requests);
            for (String r : server.requests) {
                assertTrue(r.startsWith("GET /bucket?") && r.contains("list-type=2") && r.contains("prefix=p%2Fa%2F"), r);
            }
        }
    }
}
