package dev.zarrj.format.v2;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.format.TranslatedNode;

/**
 * Where a v2 document sits, for messages and origins: the store key of the document holding it
 * and the JSON pointer of the document inside that one ({@code ""} for a document of its own,
 * {@code "/metadata/a~1.zarray"} for an entry of a consolidated {@code .zmetadata}).
 */
record Loc(String key, String base) {
    static Loc of(String key) {
        return new Loc(key, "");
    }

    /** An invalid-metadata error at {@code pointer} inside this document, naming the document. */
    InvalidMetadataException invalid(String pointer, String message) {
        return new InvalidMetadataException(base + pointer, message).inDocument(key);
    }

    /** A well-formed field that has no v3 counterpart zarrj reads, naming the document. */
    UnsupportedFormatException unsupported(String pointer, String message) {
        return (UnsupportedFormatException) new UnsupportedFormatException(base + pointer, message).inDocument(key);
    }

    /** What {@link TranslatedNode#origins()} says about {@code pointer}. */
    TranslatedNode.Origin origin(String pointer) {
        return new TranslatedNode.Origin(key, base + pointer);
    }

    /** {@code s} as one JSON pointer token. */
    static String escape(String s) {
        return s.replace("~", "~0").replace("/", "~1");
    }
}
