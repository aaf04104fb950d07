package dev.zarrj.format.v2;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Zarr v2 (<a href="https://zarr-specs.readthedocs.io/en/latest/v2/v2.0.html">spec</a>), as
 * zarr-python 2 and numcodecs write it: {@code .zarray} or {@code .zgroup}, {@code .zattrs}, and a
 * group's consolidated {@code .zmetadata}.
 *
 * <p>An array reads as the v3 array with the {@code v2} chunk key encoding (its
 * {@code dimension_separator}), a regular chunk grid, the dtype's v3 data type, and the codecs
 * {@code transpose} (order F), the filters, {@code bytes} (or {@code vlen-utf8} /
 * {@code vlen-bytes} for object arrays, or {@code numcodecs.zfpy}), then the compressor; numcodecs
 * ids other than blosc, zstd and gzip become {@code numcodecs.<id>}. numcodecs filters view the
 * chunk as NumPy arrays of their dtypes, so the stored byte order is the one of the last dtype a
 * filter hands on, else the array's: that is the {@code bytes} codec's {@code endian}, and the
 * filters' dtypes read in native (little-endian) order, as v3 filters work on values. Writing
 * gives every filter dtype the {@code bytes} codec's byte order. A {@code _ARRAY_DIMENSIONS}
 * attribute (xarray's convention) naming every dimension also reads as {@code dimension_names},
 * which write as that attribute. A {@code "fill_value": null} reads as the type's zero with
 * {@link TranslatedNode#storesEveryChunk()}. Writing turns such a document back; an unchanged
 * array keeps its stored {@code .zarray} apart from the shape, so a resize or an attribute update
 * rewrites nothing else. Structured dtypes,
 * object codecs other than {@code vlen-utf8}/{@code vlen-bytes}, and v3 features v2 lacks
 * (sharding, other grids and key encodings, codecs without a numcodecs id) are refused with an
 * {@link dev.zarrj.api.UnsupportedFormatException} naming the field.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
@AutoService(MetadataFormat.class)
public final class ZarrV2Format implements MetadataFormat {
    /** The format's name. */
    public static final String NAME = "v2";

    public ZarrV2Format() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int zarrFormat() {
        return 2;
    }

    @Override
    public List<String> documentNames() {
        return List.of(V2Reader.ZARRAY, V2Reader.ZGROUP, V2Reader.ZATTRS);
    }

    @Override
    public Optional<String> consolidatedDocumentName() {
        return Optional.of(V2Reader.ZMETADATA);
    }

    @Override
    public Optional<TranslatedNode> read(StoredDocuments node) {
        return V2Reader.read(node);
    }

    @Override
    public Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous) {
        return V2Writer.write(document, previous);
    }
}
