package dev.zarrj.core.internal.metadata;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.codec.Codec;

/**
 * A codec created from a form that older writers produced and the spec no longer allows (read,
 * never written): when an array is opened, {@link ArrayMetadata#parse} replaces it in the document
 * by its canonical equivalent, so that metadata zarrj writes back is canonical.
 */
public interface LegacyForm {
    /** The same codec in its canonical form, for the representation it receives. */
    Codec canonical(ChunkSpec decoded);
}
