package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A metadata document or an extension's configuration is malformed or not allowed.
 *
 * <p>The message names the document (usually its store key), the JSON pointer of the field, the
 * value found and what is allowed. {@link #pointer()} gives the JSON pointer alone.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class InvalidMetadataException extends ZarrException {
    private static final long serialVersionUID = 1L;

    private final String pointer;

    /**
     * @param pointer JSON pointer of the offending field ({@code ""} for the whole document)
     * @param message what is wrong and what is allowed
     */
    public InvalidMetadataException(String pointer, String message) {
        this(pointer, message, null);
    }

    /** As {@link #InvalidMetadataException(String, String)}, with a cause. */
    public InvalidMetadataException(String pointer, String message, Throwable cause) {
        super("ZARR-META", pointer.isEmpty() ? message : pointer + ": " + message, cause);
        this.pointer = pointer;
    }

    /** Protected constructor for subclasses that use their own code. */
    protected InvalidMetadataException(String code, String pointer, String message, Throwable cause) {
        super(code, pointer.isEmpty() ? message : pointer + ": " + message, cause);
        this.pointer = pointer;
    }

    /**
     * The same error with the document it concerns named in front (for example its store key),
     * keeping the subclass so that callers can still branch on it.
     */
    public InvalidMetadataException inDocument(String document) {
        String prefix = "in '" + document + "': ";
        if (this instanceof UnknownExtensionException u) {
            return new UnknownExtensionException(pointer, u.extensionName(), prefix + stripPointer(), this);
        }
        if (this instanceof UnsupportedFormatException) {
            return new UnsupportedFormatException(pointer, prefix + stripPointer(), this);
        }
        return new InvalidMetadataException(pointer, prefix + stripPointer(), this);
    }

    /**
     * The same error said of another field, of another document: where a {@link
     * dev.zarrj.api.format.MetadataFormat} translated that field into what was found invalid.
     * Keeps the subclass.
     *
     * @param document the stored document's key
     * @param pointer  the field's JSON pointer in that document
     */
    public InvalidMetadataException at(String document, String pointer) {
        String m = "in '" + document + "': " + stripPointer()
                + (this.pointer.isEmpty() ? "" : " (at " + this.pointer + " of its Zarr v3 translation)");
        if (this instanceof UnknownExtensionException u) {
            return new UnknownExtensionException(pointer, u.extensionName(), m, this);
        }
        if (this instanceof UnsupportedFormatException) {
            return new UnsupportedFormatException(pointer, m, this);
        }
        return new InvalidMetadataException(pointer, m, this);
    }

    private String stripPointer() {
        String d = detail();
        return !pointer.isEmpty() && d.startsWith(pointer + ": ") ? d.substring(pointer.length() + 2) : d;
    }

    /** JSON pointer of the offending field, {@code ""} for the document itself. */
    public String pointer() {
        return pointer;
    }
}
