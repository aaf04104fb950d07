package dev.zarrj.store.s3.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Parsing {@code s3:} URIs: prefixes, options, the AWS environment and path-style defaults. */
class S3LocationTest {
    private static S3Location parse(String uri) {
        return S3Location.parse(URI.create(uri), Map.of());
    }

    @Test
    void bucketAndPrefix() {
        S3Location l = parse("s3://my-bucket/data/set.zarr/");
        assertEquals("my-bucket", l.bucket());
        assertEquals("data/set.zarr/", l.prefix());
        assertEquals("", parse("s3://my-bucket").prefix());
        assertEquals("", parse("s3://my-bucket/").prefix());
        assertEquals("a b/", parse("s3://b/a%20b").prefix(), "percent-escapes are decoded");
        assertFalse(l.anonymous());
        assertFalse(l.pathStyle(), "AWS S3 itself: virtual-hosted style");
        assertEquals(Optional.empty(), l.endpoint());
        assertEquals(16L << 20, l.multipartThreshold());
    }

    @Test
    void badUrisAndOptionsAreRefusedNamingThem() {
        for (String bad : new String[] {"file:///x", "s3:///p", "s3://b/a/../c", "s3://b/a//c", "s3://b/p#f",
                "s3://b/p?unknown=1", "s3://b/p?anonymous=yes", "s3://b/p?endpoint=ftp://h",
                "s3://b/p?part-size=0", "s3://b/p?region=a&region=b"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(bad), bad);
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }

    @Test
    void optionsAreQueryParameters() {
        S3Location l = parse("s3://b/p?endpoint=https://s3.example.com&region=eu-west-1&anonymous=true"
                + "&multipart-threshold=1000&part-size=5242880");
        assertEquals(Optional.of(URI.create("https://s3.example.com")), l.endpoint());
        assertEquals(Optional.of("eu-west-1"), l.region());
        assertTrue(l.anonymous());
        assertFalse(l.pathStyle(), "a named host: virtual-hosted style");
        assertEquals(1000, l.multipartThreshold());
        assertEquals(5242880, l.partSize());
        assertTrue(parse("s3://b/p?endpoint=https://s3.example.com&path-style=true").pathStyle());
    }

    @Test
    void localhostAndIpEndpointsUsePathStyleUnlessToldOtherwise() {
        assertTrue(parse("s3://b/p?endpoint=http://localhost:9000").pathStyle());
        assertTrue(parse("s3://b/p?endpoint=http://127.0.0.1:9000").pathStyle());
        assertTrue(parse("s3://b/p?endpoint=http://10.1.2.3").pathStyle());
        assertTrue(parse("s3://b/p?endpoint=http://[::1]:9000").pathStyle());
        assertFalse(parse("s3://b/p?endpoint=http://127.0.0.1:9000&path-style=false").pathStyle());
        assertFalse(parse("s3://b/p?endpoint=http://1.2.3.example.com").pathStyle());
    }

    @Test
    void theEndpointFollowsTheAwsEnvironmentVariables() {
        URI uri = URI.create("s3://b/p");
        assertEquals(Optional.of(URI.create("http://localhost:1")),
                S3Location.parse(uri, Map.of("AWS_ENDPOINT_URL_S3", "http://localhost:1", "AWS_ENDPOINT_URL", "http://h:2"))
                        .endpoint(), "the S3-specific variable wins");
        S3Location general = S3Location.parse(uri, Map.of("AWS_ENDPOINT_URL", "http://127.0.0.1:2"));
        assertEquals(Optional.of(URI.create("http://127.0.0.1:2")), general.endpoint());
        assertTrue(general.pathStyle());
        assertEquals(Optional.of(URI.create("http://h:3")),
                S3Location.parse(URI.create("s3://b/p?endpoint=http://h:3"), Map.of("AWS_ENDPOINT_URL_S3", "http://x:1"))
                        .endpoint(), "the URI's option wins over the environment");
    }

    @Test
    void conditionalWritesAreOnForAwsAndOffForOtherEndpointsUnlessTold() {
        assertTrue(parse("s3://b/p").conditionalWrites(), "AWS S3 honours If-Match and If-None-Match");
        assertFalse(parse("s3://b/p?endpoint=http://127.0.0.1:9000").conditionalWrites(),
                "an S3-compatible service may ignore the headers");
        assertFalse(S3Location.parse(URI.create("s3://b/p"), Map.of("AWS_ENDPOINT_URL", "http://h:2"))
                .conditionalWrites(), "an endpoint from the environment is another service too");
        assertTrue(parse("s3://b/p?endpoint=http://127.0.0.1:9000&conditional-writes=true").conditionalWrites());
        assertFalse(parse("s3://b/p?conditional-writes=false").conditionalWrites());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse("s3://b/p?conditional-writes=maybe"));
        assertTrue(e.getMessage().contains("'conditional-writes' is 'maybe'"), e.getMessage());
    }

    @Test
    void rangeHeaders() {
        assertEquals("bytes=2-4", S3Store.rangeHeader(ByteRange.of(2, 3)));
        assertEquals("bytes=5-", S3Store.rangeHeader(ByteRange.from(5)));
        assertEquals("bytes=-7", S3Store.rangeHeader(ByteRange.suffix(7)));
        assertEquals(null, S3Store.rangeHeader(ByteRange.of(3, 0)), "an empty range is no HTTP range");
        assertEquals(null, S3Store.rangeHeader(ByteRange.suffix(0)));
    }

    @Test
    void describeNamesBucketPrefixAndEndpoint() {
        assertEquals("s3://b/p/", parse("s3://b/p").describe());
        assertEquals("s3://b/p/ at http://127.0.0.1:9", parse("s3://b/p?endpoint=http://127.0.0.1:9&anonymous=true").describe());
    }
}
