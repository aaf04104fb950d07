package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/** Every store operation against s3proxy, one bucket per test. */
@ExtendWith(S3Proxy.class)
class S3StoreTest {
    private static StoreKey k(String s) {
        return StoreKey.of(s);
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(Optional<ByteBuffer> b) {
        ByteBuffer v = b.orElseThrow();
        byte[] a = new byte[v.remaining()];
        v.duplicate().get(a);
        return new String(a, StandardCharsets.UTF_8);
    }

    private static Store open(String bucket, String prefix) {
        return S3Stores.open(S3Proxy.get().uri(bucket, prefix, ""), false, Map.of());
    }

    private static byte[] object(String bucket, String name) {
        return S3Proxy.get().admin().getObject(r -> r.bucket(bucket).key(name), AsyncResponseTransformer.toBytes())
                .join().asByteArray();
    }

    @Test
    void getSetSizeAndEraseUnderAPrefixMapKeysToObjectNamesExactly() {
        String bucket = S3Proxy.get().newBucket();
        try (Store s = open(bucket, "data.zarr")) {
            assertEquals(Optional.empty(), s.get(k("a/zarr.json")));
            assertEquals(OptionalLong.empty(), s.size(k("a/zarr.json")));
            s.set(k("a/zarr.json"), bytes("{}"));
            s.set(k("a/c/0 1+%"), bytes("odd name"));
            assertEquals("{}", text(s.get(k("a/zarr.json"))));
            assertEquals(OptionalLong.of(8), s.size(k("a/c/0 1+%")));
            assertTrue(s.exists(k("a/c/0 1+%")));
            assertEquals("odd name", new String(object(bucket, "data.zarr/a/c/0 1+%"), StandardCharsets.UTF_8),
                    "key 'a/c/0 1+%' is object 'data.zarr/a/c/0 1+%', unescaped");
            s.set(k("a/zarr.json"), bytes("{\"x\":1}"));
            assertEquals("{\"x\":1}", text(s.get(k("a/zarr.json"))));
            s.erase(k("a/zarr.json"));
            s.erase(k("a/zarr.json")); // absent: nothing happens
            assertEquals(Optional.empty(), s.get(k("a/zarr.json")));
            assertEquals(List.of(k("a/c/0 1+%")), s.list());
        }
    }

    @Test
    void rangedAndSuffixGetsReturnExactlyThoseBytes() {
        String bucket = S3Proxy.get().newBucket();
        try (Store s = open(bucket, "p")) {
            s.set(k("v"), bytes("0123456789"));
            assertEquals("234", text(s.get(k("v"), ByteRange.of(2, 3))));
            assertEquals("789", text(s.get(k("v"), ByteRange.suffix(3))));
            assertEquals("56789", text(s.get(k("v"), ByteRange.from(5))));
            assertEquals("", text(s.get(k("v"), ByteRange.from(10))));
            assertEquals("", text(s.get(k("v"), ByteRange.of(10, 0))));
            assertEquals("", text(s.get(k("v"), ByteRange.suffix(0))));
            assertEquals("0123456789", text(s.get(k("v"), ByteRange.suffix(10))));
            assertEquals(Optional.empty(), s.get(k("absent"), ByteRange.of(0, 3)));
            StoreException past = assertThrows(StoreException.class, () -> s.get(k("v"), ByteRange.of(8, 5)));
            assertTrue(past.getMessage().contains("'v'"), past.getMessage());
            assertThrows(StoreException.class, () -> s.get(k("v"), ByteRange.of(11, 1)));
            assertThrows(StoreException.class, () -> s.get(k("v"), ByteRange.suffix(11)));
        }
    }

    @Test
    void getPartialValuesKeepsOrderWithRepeatsAndAbsentKeys() {
        String bucket = S3Proxy.get().newBucket();
        try (Store s = open(bucket, "")) {
            s.set(k("a"), bytes("abcdef"));
            s.set(k("b"), bytes("uvwxyz"));
            List<KeyRange> ranges = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                ranges.add(new KeyRange(k(i % 2 == 0 ? "a" : "b"), ByteRange.of(i % 6, 1)));
            }
            ranges.add(new KeyRange(k("none"), ByteRange.all()));
            List<Optional<ByteBuffer>> got = s.getPartialValues(ranges);
            for (int i = 0; i < 40; i++) {
                assertEquals(String.valueOf((i % 2 == 0 ? "abcdef" : "uvwxyz").charAt(i % 6)), text(got.get(i)), "item " + i);
            }
            assertEquals(Optional.empty(), got.get(40));
        }
    }

    @Test
    void valuesAboveTheThresholdAreUploadedInParts() {
        String bucket = S3Proxy.get().newBucket();
        byte[] big = new byte[(11 << 20) + 12345];
        new Random(7).nextBytes(big);
        try (Store s = S3Stores.open(S3Proxy.get().uri(bucket, "m", "&multipart-threshold=1048576&part-size=5242880"),
                false, Map.of())) {
            s.set(k("big"), ByteBuffer.wrap(big));
            assertArrayEquals(big, object(bucket, "m/big"));
            String etag = S3Proxy.get().admin().headObject(r -> r.bucket(bucket).key("m/big")).join().eTag();
            assertTrue(etag.replace("\"", "").endsWith("-3"), "a multipart ETag names its 3 parts: " + etag);
            assertEquals(OptionalLong.of(big.length), s.size(k("big")));
            ByteBuffer tail = s.get(k("big"), ByteRange.suffix(100)).orElseThrow();
            byte[] t = new byte[100];
            tail.get(t);
            assertArrayEquals(java.util.Arrays.copyOfRange(big, big.length - 100, big.length), t);
        }
    }

    @Test
    void smallValuesAreSingleUploads() {
        String bucket = S3Proxy.get().newBucket();
        try (Store s = S3Stores.open(S3Proxy.get().uri(bucket, "m", "&multipart-threshold=1048576"), false, Map.of())) {
            s.set(k("small"), ByteBuffer.wrap(new byte[1 << 20]));
            String etag = S3Proxy.get().admin().headObject(r -> r.bucket(bucket).key("m/small")).join().eTag();
            assertFalse(etag.contains("-"), "a value at the threshold is one PutObject: " + etag);
        }
    }

    @Test
    void eraseValuesDeletesInBatchesOfAThousand() {
        String bucket = S3Proxy.get().newBucket();
        try (Store s = open(bucket, "x")) {
            List<StoreKey> keys = new ArrayList<>();
            List<java.util.concurrent.CompletableFuture<?>> puts = new ArrayList<>();
            for (int i = 0; i < 2100; i++) {
                String name = String.format("c/%04d", i);
                keys.add(k(name));
                puts.add(S3Proxy.get().admin().putObject(r -> r.bucket(bucket).key("x/" + name),
                        AsyncRequestBody.fromString("v")));
            }
            puts.forEach(java.util.concurrent.CompletableFuture::join);
            s.set(k("keep"), bytes("k"));
            assertEquals(2101, s.list().size(), "listing pages through more than 1000 objects");
            List<StoreKey> erase = new ArrayList<>(keys.subList(0, 2050));
            erase.add(k("never-there"));
            s.eraseValues(erase);
            List<StoreKey> left = s.list();
            assertEquals(51, left.size());
            assertEquals(k("c/2050"), left.get(0));
            assertEquals(k("keep"), left.get(50));
        }
    }

    @Test
    void erasePrefixAndListingsStayInsideTheStorePrefix() {
        String bucket = S3Proxy.get().newBucket();
        S3Proxy.get().admin().putObject(r -> r.bucket(bucket).key("outside"), AsyncRequestBody.fromString("o")).join();
        S3Proxy.get().admin().putObject(r -> r.bucket(bucket).key("pre-sibling/a"), AsyncRequestBody.fromString("o")).join();
        S3Proxy.get().admin().putObject(r -> r.bucket(bucket).key("pre/folder//x"), AsyncRequestBody.fromString("")).join();
        try (Store s = open(bucket, "pre")) {
            for (String key : List.of("zarr.json", "a/zarr.json", "a/c/0", "a/c/1", "b/c/0", "ab")) {
                s.set(k(key), bytes(key));
            }
            assertEquals(List.of(k("a/c/0"), k("a/c/1"), k("a/zarr.json"), k("ab"), k("b/c/0"), k("zarr.json")), s.list(),
                    "'pre/folder//x' (an empty segment) is no key; 'pre-sibling/a' and 'outside' are outside the prefix");
            assertEquals(List.of(k("a/c/0"), k("a/c/1"), k("a/zarr.json")), s.listPrefix("a/"));
            ListDirResult root = s.listDir("");
            assertEquals(List.of(k("ab"), k("zarr.json")), root.keys());
            assertEquals(List.of("a/", "b/", "folder/"), root.prefixes(), "'folder/' holds an object, though not a key");
            ListDirResult a = s.listDir("a/");
            assertEquals(List.of(k("a/zarr.json")), a.keys());
            assertEquals(List.of("a/c/"), a.prefixes());
            s.erasePrefix("a/");
            assertEquals(List.of(k("ab"), k("b/c/0"), k("zarr.json")), s.list());
            s.erasePrefix("");
            assertEquals(List.of(), s.list());
        }
        assertEquals("o", new String(object(bucket, "outside"), StandardCharsets.UTF_8));
        assertEquals("o", new String(object(bucket, "pre-sibling/a"), StandardCharsets.UTF_8));
    }

    @Test
    void aReadOnlyStoreRefusesWrites() {
        String bucket = S3Proxy.get().newBucket();
        try (Store s = S3Stores.open(S3Proxy.get().uri(bucket, "r", ""), true, Map.of())) {
            assertFalse(s.capabilities().writable());
            assertThrows(ReadOnlyException.class, () -> s.set(k("a"), bytes("x")));
            assertThrows(ReadOnlyException.class, () -> s.erase(k("a")));
            assertThrows(ReadOnlyException.class, () -> s.eraseValues(List.of()));
            assertThrows(ReadOnlyException.class, () -> s.erasePrefix(""));
        }
    }

    @Test
    void errorsNameTheBucketKeyAndStatus() {
        try (Store s = open("no-such-bucket-zarrj", "p")) {
            // A missing bucket is an error, never an absent key.
            StoreException e = assertThrows(StoreException.class, () -> s.get(k("a/b")));
            assertTrue(e.getMessage().contains("no-such-bucket-zarrj"), e.getMessage());
            assertTrue(e.getMessage().contains("'a/b'"), e.getMessage());
            assertTrue(e.getMessage().contains("HTTP 404 NoSuchBucket"), e.getMessage());
            StoreException list = assertThrows(StoreException.class, s::list);
            assertTrue(list.getMessage().contains("no-such-bucket-zarrj") && list.getMessage().contains("HTTP 404"),
                    list.getMessage());
        }
        String bucket = S3Proxy.get().newBucket();
        S3Proxy.get().admin().putObject(r -> r.bucket(bucket).key("p/a"), AsyncRequestBody.fromString("private")).join();
        // Wrong credentials: the server answers 403, which is an error, never an absent key.
        try (Store s = S3Stores.open(S3Proxy.get().uri(bucket, "p", "&anonymous=true"), false, Map.of())) {
            StoreException e = assertThrows(StoreException.class, () -> s.get(k("a")));
            assertTrue(e.getMessage().contains("HTTP 403") && e.getMessage().contains(bucket), e.getMessage());
        }
    }

    @Test
    void aPublicReadBucketIsReadAnonymously() {
        String bucket = S3Proxy.get().newPublicBucket();
        S3Proxy.get().admin().putObject(r -> r.bucket(bucket).key("pub/zarr.json").acl(ObjectCannedACL.PUBLIC_READ),
                AsyncRequestBody.fromString("{\"zarr_format\":3}")).join();
        try (Store s = S3Stores.open(S3Proxy.get().uri(bucket, "pub", "&anonymous=true"), true, Map.of())) {
            assertEquals("{\"zarr_format\":3}", text(s.get(k("zarr.json"))));
            assertEquals("zarr", text(s.get(k("zarr.json"), ByteRange.of(2, 4))));
        }
    }

    @Test
    void theEndpointComesFromTheAwsEnvironmentVariables() {
        String bucket = S3Proxy.get().newBucket();
        String endpoint = S3Proxy.get().endpoint().toString();
        try (Store s = S3Stores.open(java.net.URI.create("s3://" + bucket + "/e"), false,
                Map.of("AWS_ENDPOINT_URL_S3", endpoint, "AWS_ENDPOINT_URL", "http://127.0.0.1:1"))) {
            s.set(k("a"), bytes("env"));
            assertEquals("env", text(s.get(k("a"))));
        }
        try (Store s = S3Stores.open(java.net.URI.create("s3://" + bucket + "/e"), true,
                Map.of("AWS_ENDPOINT_URL", endpoint))) {
            assertEquals("env", text(s.get(k("a"))));
        }
    }
}
