package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.internal.extension.Extensions;
import dev.zarrj.conformance.internal.extension.Instances;
import dev.zarrj.conformance.internal.rules.Rule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract of a chunk key encoding (chunk-key-encodings-*.rst): the keys it gives are valid
 * store keys, distinct chunks get distinct keys, keys decode back to their chunks, keys that are not
 * chunk keys decode to nothing, and its metadata form round trips.
 *
 * <p>A key encoding's own test extends this class and hands it the provider; encodings are
 * created from {@link #configurations()} (by default the provider's example configurations) and
 * checked for ranks 0 to {@link #maxRank()} over grid indices chosen to expose ambiguous joins
 * ({@code (1, 23)} and {@code (12, 3)}), multi-digit indices and indices up to
 * {@code Long.MAX_VALUE}. The spec's literal key strings go in {@link #specExamples()}:
 *
 * <pre>{@code
 * @Override protected List<KeyExample> specExamples() {
 *     ObjectNode slash = JsonNodeFactory.instance.objectNode().put("separator", "/");
 *     return List.of(new KeyExample(slash, new long[] {1, 23, 45}, "c/1/23/45"));
 * }
 * }</pre>
 *
 * <p>Every rule is one test named {@code required_K<NN>_...}; a failure message starts with the
 * rule id. Rules are listed in {@code rules/stores-and-metadata.md}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class ChunkKeyEncodingContract {
    private static final String SPEC = " (spec: core.rst 'chunk_key_encoding', chunk-key-encodings-*.rst)";

    private final Instances<ChunkKeyEncoding> encodings = new Instances<>(getClass(), "chunk key encoding",
            this::provider, this::configurations, ChunkKeyEncoding::toJson);

    /** The provider under test. */
    protected abstract ChunkKeyEncodingProvider provider();

    /** The configurations to create encodings from: by default the provider's example configurations. */
    protected List<ExtensionConfig> configurations() {
        return Extensions.defaultConfigurations(provider(), "/chunk_key_encoding");
    }

    /** The highest rank to check; 4 by default. */
    protected int maxRank() {
        return 4;
    }

    /**
     * A literal example: with this configuration, the chunk at these grid indices has this key.
     *
     * @param configuration the encoding's configuration
     * @param chunkCoords   the grid indices
     * @param key           the key the spec gives
     */
    public record KeyExample(ObjectNode configuration, long[] chunkCoords, String key) {}

    /** The spec's literal examples; none by default. */
    protected List<KeyExample> specExamples() {
        return List.of();
    }

    /** Grid indices of one rank to check. */
    protected List<long[]> chunkCoordinates(int rank) {
        List<long[]> out = new ArrayList<>();
        long[] values = switch (rank) {
            case 0 -> new long[0];
            case 1 -> new long[] {0, 1, 2, 9, 10, 11, 12, 23, 99, 100, 123, 1L << 40, Long.MAX_VALUE};
            case 2 -> new long[] {0, 1, 2, 3, 11, 12, 23, 123, 1L << 40};
            case 3 -> new long[] {0, 1, 12, 23, 45};
            default -> new long[] {0, 1, 11};
        };
        if (rank == 0) {
            out.add(new long[0]);
            return out;
        }
        long[] c = new long[rank];
        product(values, c, 0, out);
        if (rank >= 2) {
            long[] last = new long[rank];
            Arrays.fill(last, Long.MAX_VALUE);
            out.add(last);
        }
        return out;
    }

    private static void product(long[] values, long[] c, int d, List<long[]> out) {
        if (d == c.length) {
            out.add(c.clone());
            return;
        }
        for (long v : values) {
            c[d] = v;
            product(values, c, d + 1, out);
        }
    }

    // ---- running the rules ----

    private static String encode(ChunkKeyEncoding k, long[] c) {
        String key = k.encode(c);
        if (key == null) {
            throw Rule.fail("encode(" + Arrays.toString(c) + ") returned null");
        }
        return key;
    }

    // ---- rules ----

    /**
     * Every key is a valid {@link StoreKey} on its own and under an array's prefix
     * ({@code group/array/<key>}): no empty segments, no leading or trailing {@code /}, no
     * {@code .} or {@code ..} segment.
     *
     * <p>Spec: core.rst, "Abstract store interface" (keys) and "Stored representation" (chunk keys
     * under the array's prefix); chunk-key-encodings-*.rst.
     *
     * <p>If this fails, check: a leading separator; an empty key for a 0-d chunk (the spec gives
     * {@code c} and {@code 0}); negative indices printed with a sign.
     */
    @TestFactory
    @DisplayName("K01 every chunk key is a valid store key" + SPEC)
    public Stream<DynamicTest> required_K01_keysAreValidStoreKeys() {
        return encodings.each("K01", "every chunk key is a valid store key", k -> {
            for (int r = 0; r <= maxRank(); r++) {
                for (long[] c : chunkCoordinates(r)) {
                    String key = encode(k, c);
                    try {
                        StoreKey.of(key);
                        StoreKey.of("group/array/" + key);
                    } catch (InvalidKeyException e) {
                        throw Rule.fail("the key '" + key + "' of chunk " + Arrays.toString(c) + " is not a valid store key: "
                                + e.getMessage());
                    }
                }
            }
        });
    }

    /**
     * Distinct chunks of an array (same rank, different grid indices) get distinct keys; in
     * particular indices are delimited, so {@code (1, 23)} and {@code (12, 3)} differ.
     *
     * <p>Spec: chunk-key-encodings-*.rst (the separator between the indices of each dimension).
     *
     * <p>If this fails, check: indices joined without the separator; indices truncated or
     * rendered in a fixed width that overflows.
     */
    @TestFactory
    @DisplayName("K02 distinct chunks get distinct keys" + SPEC)
    public Stream<DynamicTest> required_K02_distinctChunksGetDistinctKeys() {
        return encodings.each("K02", "distinct chunks get distinct keys", k -> {
            for (int r = 0; r <= maxRank(); r++) {
                Map<String, long[]> seen = new HashMap<>();
                for (long[] c : chunkCoordinates(r)) {
                    String key = encode(k, c);
                    long[] before = seen.putIfAbsent(key, c);
                    if (before != null && !Arrays.equals(before, c)) {
                        throw Rule.fail("chunks " + Arrays.toString(before) + " and " + Arrays.toString(c)
                                + " both have the key '" + key + "'");
                    }
                }
            }
        });
    }

    /**
     * {@code decode(encode(c), rank)} gives back {@code c} for every chunk checked, 0-d included.
     *
     * <p>Spec: chunk-key-encodings-*.rst (the key is formed from the indices, so they can be read
     * back — listing an array's chunks depends on it).
     *
     * <p>If this fails, check: the separator used by {@code decode}; the {@code c} prefix of the
     * {@code default} encoding; parsing of indices above {@code Integer.MAX_VALUE}.
     */
    @TestFactory
    @DisplayName("K03 decode(encode(c)) gives back c" + SPEC)
    public Stream<DynamicTest> required_K03_decodeInvertsEncode() {
        return encodings.each("K03", "decode(encode(c)) gives back c", k -> {
            for (int r = 0; r <= maxRank(); r++) {
                for (long[] c : chunkCoordinates(r)) {
                    String key = encode(k, c);
                    Optional<long[]> back = k.decode(key, r);
                    if (back == null || back.isEmpty() || !Arrays.equals(back.get(), c)) {
                        throw Rule.fail("decode('" + key + "', " + r + ") is "
                                + (back == null ? "null" : back.map(Arrays::toString).orElse("empty")) + ", expected "
                                + Arrays.toString(c));
                    }
                }
            }
        });
    }

    /**
     * Keys that are not chunk keys of this encoding for an array of this rank decode to empty:
     * metadata keys ({@code zarr.json}), a key of rank {@code r} read as rank {@code r + 1} or
     * {@code r - 1} (ranks 1 and up), and strings that only look like indices ({@code -1},
     * {@code 01}, {@code 1e3}).
     *
     * <p>Spec: core.rst, "Stored representation" (metadata and chunks share the array's prefix);
     * chunk-key-encodings-default.rst ("the initial prefix c ensures that metadata documents and
     * chunks have separate prefixes").
     *
     * <p>If this fails, check: lenient number parsing ({@code Long.parseLong} accepts {@code -1}
     * and {@code +1}, and {@code 01} would give a second key for chunk 1); a missing check that the
     * whole key was consumed.
     */
    @TestFactory
    @DisplayName("K04 keys that are not chunk keys decode to empty" + SPEC)
    public Stream<DynamicTest> required_K04_nonChunkKeysDecodeToEmpty() {
        return encodings.each("K04", "keys that are not chunk keys decode to empty", k -> {
            for (int r = 0; r <= maxRank(); r++) {
                for (String key : List.of("zarr.json", "attributes.json", "c/zarr.json", "")) {
                    expectNotAChunk(k, key, r);
                }
            }
            for (int r = 1; r <= maxRank(); r++) {
                long[] c = new long[r];
                Arrays.fill(c, 1);
                String key = encode(k, c);
                expectNotAChunk(k, key, r + 1);
                if (r > 1) {
                    expectNotAChunk(k, key, r - 1);
                }
                for (String fake : List.of("-1", "+1", "01", "1e3", " 1")) {
                    String variant = key.substring(0, key.length() - 1) + fake;
                    Optional<long[]> d = k.decode(variant, r);
                    if (d != null && d.isPresent() && !encode(k, d.get()).equals(variant)) {
                        throw Rule.fail("decode('" + variant + "', " + r + ") is " + Arrays.toString(d.get())
                                + ", whose key is '" + encode(k, d.get()) + "': one chunk would have two keys");
                    }
                }
            }
        });
    }

    private static void expectNotAChunk(ChunkKeyEncoding k, String key, int rank) {
        Optional<long[]> d = k.decode(key, rank);
        if (d == null) {
            throw Rule.fail("decode('" + key + "', " + rank + ") returned null instead of an Optional");
        }
        if (d.isPresent()) {
            throw Rule.fail("decode('" + key + "', " + rank + ") is " + Arrays.toString(d.get())
                    + "; it is not a chunk key of an array of rank " + rank);
        }
    }

    /**
     * The spec's literal examples give exactly the key strings it shows.
     *
     * <p>Spec: chunk-key-encodings-default.rst ({@code c/1/23/45}, {@code c.1.23.45}, {@code c}
     * for 0-d); chunk-key-encodings-v2.rst ({@code 1.23.45}, {@code 1/23/45}, {@code 0} for 0-d).
     *
     * <p>If this fails, check: the default separator; the {@code c} prefix; the 0-d key.
     */
    @TestFactory
    @DisplayName("K05 the spec's literal key strings" + SPEC)
    public Stream<DynamicTest> required_K05_specExamplesGiveTheSpecKeys() {
        return specExamples().stream().map(e -> DynamicTest.dynamicTest("K05 " + e.configuration() + " "
                + Arrays.toString(e.chunkCoords()) + " -> " + e.key(), () -> Rule.check("K05",
                "the spec's literal key strings", provider().name() + " " + e.configuration(), () -> {
                    ChunkKeyEncoding k = provider().create(ExtensionConfig.of(provider().name(), e.configuration(),
                            "/chunk_key_encoding/configuration"), Extensions.NO_CODECS);
                    String key = encode(k, e.chunkCoords());
                    if (!key.equals(e.key())) {
                        throw Rule.fail("chunk " + Arrays.toString(e.chunkCoords()) + " has the key '" + key
                                + "'; the spec says '" + e.key() + "'");
                    }
                })));
    }

    /**
     * The encoding's metadata form creates, through the provider, an equal encoding that writes the
     * same metadata (with every default written out, e.g. the {@code separator}).
     *
     * <p>Spec: core.rst, {@code chunk_key_encoding} (name and configuration).
     *
     * <p>If this fails, check: {@code equals}/{@code hashCode}; the configuration written without
     * the field that distinguishes it.
     */
    @TestFactory
    @DisplayName("K06 the chunk_key_encoding metadata round trips through the provider" + SPEC)
    public Stream<DynamicTest> required_K06_metadataRoundTrips() {
        return encodings.each("K06", "the chunk_key_encoding metadata round trips through the provider",
                k -> Extensions.roundTrip(provider(), k, "/chunk_key_encoding"));
    }

    /**
     * The provider rejects a configuration with a field it does not know, with an
     * {@link dev.zarrj.api.InvalidMetadataException} that names the field.
     *
     * <p>Spec: core.rst, "Extension definition" (key encodings must be understood).
     *
     * <p>If this fails, check: {@link ExtensionConfig#rejectUnknownFields} called in
     * {@code create}.
     */
    @Test
    @DisplayName("K07 an unknown configuration field is rejected" + SPEC)
    public void required_K07_unknownConfigurationFieldIsRejected() {
        Rule.check("K07", "an unknown configuration field is rejected", provider().name(),
                () -> Extensions.rejectsUnknownFields(provider(), configurations()));
    }
}
