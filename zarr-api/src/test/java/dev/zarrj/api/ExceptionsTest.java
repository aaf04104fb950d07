package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ExceptionsTest {

    @Test
    void codeAndMessageFormat() {
        ZarrException e = new ZarrException("ZARR-X", "something failed");
        assertEquals("ZARR-X", e.code());
        assertEquals("[ZARR-X] something failed", e.getMessage());
        assertEquals("something failed", e.detail());
        assertTrue(e.toString().contains("[ZARR-X] something failed"), e.toString());
    }

    @Test
    void eachSubclassHasItsCode() {
        assertEquals("ZARR-META", new InvalidMetadataException("", "m").code());
        assertEquals("ZARR-UNKNOWN-EXT", new UnknownExtensionException("/p", "foo", "m").code());
        assertEquals("ZARR-FORMAT", new UnsupportedFormatException("", "m").code());
        assertEquals("ZARR-KEY", new InvalidKeyException("m").code());
        assertEquals("ZARR-READONLY", new ReadOnlyException("m").code());
        assertEquals("ZARR-STORE", new StoreException("m", null).code());
        assertEquals("ZARR-STORE-CHANGED", new ValueChangedException("m", null).code());
        assertInstanceOf(StoreException.class, new ValueChangedException("m", null));
        assertEquals("ZARR-CORRUPT", new CorruptDataException("m").code());
        assertEquals("ZARR-CHECKSUM", new ChecksumMismatchException("m").code());
        assertEquals("ZARR-CHUNK", new ChunkDecodeException("c/0", new CorruptDataException("m")).code());
        assertEquals("ZARR-NOT-FOUND", new NodeNotFoundException("m").code());
        assertEquals("ZARR-CONFLICT", new ExtensionConflictException("m").code());
        assertEquals("ZARR-MEMORY", new InsufficientMemoryException("m", 1, null).code());
        assertInstanceOf(CorruptDataException.class, new ChecksumMismatchException("m"));
    }

    @Test
    void insufficientMemoryNamesWhatTheBytesNeededAndTheHeap() {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
        InsufficientMemoryException e = new InsufficientMemoryException("a chunk buffer", 3L << 29, 64L << 20, oom);
        assertEquals("[ZARR-MEMORY] a chunk buffer needs 1610612736 bytes (1.5 GiB) in one piece, more than the Java"
                + " heap of at most 67108864 bytes (64.0 MiB); read a smaller region, or give the JVM more heap (-Xmx)",
                e.getMessage());
        InsufficientMemoryException r = e.reading("reading chunk 'a/c/0' of array '/a'");
        assertTrue(r.getMessage().startsWith("[ZARR-MEMORY] reading chunk 'a/c/0' of array '/a' needs 1610612736"),
                r.getMessage());
        assertEquals(3L << 29, r.bytesNeeded());
        assertEquals(64L << 20, r.heapMax());
        assertSame(oom, r.getCause());
        assertTrue(new InsufficientMemoryException("x", 10L << 20, 64L << 20, oom).getMessage()
                .contains("more than is free in the Java heap"));
    }

    @Test
    void metadataMessageStartsWithThePointer() {
        InvalidMetadataException e = new InvalidMetadataException("/shape/1", "must be an integer, found \"a\"");
        assertEquals("/shape/1", e.pointer());
        assertEquals("[ZARR-META] /shape/1: must be an integer, found \"a\"", e.getMessage());
        InvalidMetadataException doc = new InvalidMetadataException("", "not JSON");
        assertEquals("", doc.pointer());
        assertEquals("[ZARR-META] not JSON", doc.getMessage());
    }

    @Test
    void inDocumentNamesTheDocumentAndKeepsPointerAndCause() {
        InvalidMetadataException e = new InvalidMetadataException("/shape/1", "must be an integer");
        InvalidMetadataException d = e.inDocument("a/b/zarr.json");
        assertSame(InvalidMetadataException.class, d.getClass());
        assertEquals("/shape/1", d.pointer());
        assertEquals("ZARR-META", d.code());
        assertSame(e, d.getCause());
        assertEquals("[ZARR-META] /shape/1: in 'a/b/zarr.json': must be an integer", d.getMessage());
        assertEquals(1, count(d.getMessage(), "/shape/1"), "the pointer appears once: " + d.getMessage());
    }

    @Test
    void inDocumentOnAWholeDocumentError() {
        InvalidMetadataException d = new InvalidMetadataException("", "not a JSON object").inDocument("zarr.json");
        assertEquals("", d.pointer());
        assertEquals("[ZARR-META] in 'zarr.json': not a JSON object", d.getMessage());
    }

    @Test
    void inDocumentKeepsUnknownExtension() {
        UnknownExtensionException e = new UnknownExtensionException("/codecs/1/name", "zfp",
                "no codec 'zfp' is installed; add the module that provides it");
        InvalidMetadataException d = e.inDocument("arr/zarr.json");
        UnknownExtensionException u = assertInstanceOf(UnknownExtensionException.class, d);
        assertEquals("zfp", u.extensionName());
        assertEquals("/codecs/1/name", u.pointer());
        assertEquals("ZARR-UNKNOWN-EXT", u.code());
        assertTrue(u.getMessage().contains("'arr/zarr.json'") && u.getMessage().contains("no codec 'zfp'"),
                u.getMessage());
        assertEquals(1, count(u.getMessage(), "/codecs/1/name"), u.getMessage());
        assertSame(e, u.getCause());
    }

    @Test
    void inDocumentKeepsUnsupportedFormat() {
        UnsupportedFormatException e = new UnsupportedFormatException("/zarr_format", "found 2; zarrj reads 3");
        InvalidMetadataException d = e.inDocument(".zarray");
        UnsupportedFormatException f = assertInstanceOf(UnsupportedFormatException.class, d);
        assertEquals("ZARR-FORMAT", f.code());
        assertEquals("/zarr_format", f.pointer());
        assertEquals("[ZARR-FORMAT] /zarr_format: in '.zarray': found 2; zarrj reads 3", f.getMessage());
    }

    @Test
    void chunkDecodeExceptionNamesKeyAndCause() {
        ChecksumMismatchException cause = new ChecksumMismatchException("crc32c: stored 0x1, computed 0x2");
        ChunkDecodeException e = new ChunkDecodeException("arr/c/0/1", cause);
        assertEquals("arr/c/0/1", e.key());
        assertSame(cause, e.getCause());
        assertInstanceOf(CorruptDataException.class, e);
        assertTrue(e.getMessage().startsWith("[ZARR-CHUNK] chunk 'arr/c/0/1' could not be decoded: "), e.getMessage());
        assertTrue(e.getMessage().contains("crc32c: stored 0x1, computed 0x2"), e.getMessage());

        ChunkDecodeException io = new ChunkDecodeException("c/2", new IOException("truncated"));
        assertTrue(io.getMessage().contains("IOException: truncated"), io.getMessage());
    }

    private static int count(String s, String sub) {
        int n = 0;
        for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) {
            n++;
        }
        return n;
    }
}
