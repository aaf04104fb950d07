package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.Set;
import org.tukaani.xz.ARM64Options;
import org.tukaani.xz.ARMOptions;
import org.tukaani.xz.ARMThumbOptions;
import org.tukaani.xz.ArrayCache;
import org.tukaani.xz.DeltaOptions;
import org.tukaani.xz.FilterOptions;
import org.tukaani.xz.FinishableOutputStream;
import org.tukaani.xz.FinishableWrapperOutputStream;
import org.tukaani.xz.IA64Options;
import org.tukaani.xz.LZMA2InputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.LZMAInputStream;
import org.tukaani.xz.LZMAOutputStream;
import org.tukaani.xz.PowerPCOptions;
import org.tukaani.xz.RISCVOptions;
import org.tukaani.xz.SPARCOptions;
import org.tukaani.xz.UnsupportedOptionsException;
import org.tukaani.xz.X86Options;
import org.tukaani.xz.XZ;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * {@code numcodecs.lzma}: Python's {@code lzma.compress} / {@code lzma.decompress} with numcodecs'
 * {@code format}, {@code check}, {@code preset} and {@code filters}, on xz-java.
 *
 * <p>{@code format}: 1 {@code FORMAT_XZ} (numcodecs' default), 2 {@code FORMAT_ALONE} (.lzma), 3
 * {@code FORMAT_RAW} (needs {@code filters}), 0 {@code FORMAT_AUTO} (decoding only: xz or .lzma by
 * the magic bytes). {@code check} (xz only): -1 (default: CRC64), 0 none, 1 CRC32, 4 CRC64, 10
 * SHA-256. {@code preset}: 0 to 9, optionally with {@code PRESET_EXTREME} (2^31); default 6.
 * {@code filters}: liblzma's filter chain as Python's dictionaries, by numeric {@code id}: LZMA1
 * (2^62 + 1), LZMA2 (33) with {@code preset}, {@code dict_size}, {@code lc}, {@code lp},
 * {@code pb}, {@code mode}, {@code nice_len}, {@code mf}, {@code depth}; delta (3) with
 * {@code dist}; the BCJ filters x86 (4), PowerPC (5), IA-64 (6), ARM (7), ARM-Thumb (8), SPARC (9),
 * ARM64 (10), RISC-V (11) with {@code start_offset}.
 *
 * <p>Decoding reads whatever liblzma writes (xz streams are checked, concatenated streams and
 * padding accepted) within a memory limit of 256 MiB for the dictionary. Encoding gives valid
 * streams that numcodecs reads, not liblzma's exact bytes: xz-java is another encoder, without
 * {@code PRESET_EXTREME} (the base preset is used) nor the hc3, bt2 and bt3 match finders (hc4 and
 * bt4 are used). Immutable and thread-safe.
 */
final class LzmaCodec implements BytesToBytesCodec {
    static final String NAME = "numcodecs.lzma";

    static final int FORMAT_AUTO = 0;
    static final int FORMAT_XZ = 1;
    static final int FORMAT_ALONE = 2;
    static final int FORMAT_RAW = 3;
    static final long PRESET_EXTREME = 0x80000000L;
    static final long FILTER_LZMA1 = 0x4000000000000001L;
    static final long FILTER_LZMA2 = 0x21;
    static final long FILTER_DELTA = 0x03;
    /**
     * The most memory an xz stream's headers may ask for (its dictionary): a quarter of the heap,
     * at most 256 MiB, so that a header claiming a huge dictionary is refused, not allocated.
     */
    private static final int MEMORY_LIMIT_KIB = (int) Math.min(256 * 1024, Runtime.getRuntime().maxMemory() / 4 / 1024);
    private static final Set<String> LZMA_KEYS = Set.of("id", "preset", "dict_size", "lc", "lp", "pb", "mode",
            "nice_len", "mf", "depth");

    private final int format;
    private final int check;
    private final Long preset;
    private final ArrayNode filters;
    private final String pointer;

    /**
     * @throws InvalidMetadataException naming the field when the combination is one liblzma refuses
     */
    LzmaCodec(int format, int check, Long preset, ArrayNode filters, String pointer) {
        this.format = format;
        this.check = check;
        this.preset = preset;
        this.filters = filters == null ? null : filters.deepCopy();
        this.pointer = pointer;
        if (format < 0 || format > 3) {
            throw new InvalidMetadataException(pointer + "/format", NAME + ": 'format' must be 0 (auto), 1 (xz),"
                    + " 2 (alone) or 3 (raw), found " + format);
        }
        if (check != -1 && check != 0 && check != 1 && check != 4 && check != 10) {
            throw new InvalidMetadataException(pointer + "/check", NAME + ": 'check' must be -1 (default), 0 (none),"
                    + " 1 (CRC32), 4 (CRC64) or 10 (SHA-256), found " + check);
        }
        if (format != FORMAT_XZ && check != -1 && check != 0) {
            throw new InvalidMetadataException(pointer + "/check", NAME + ": 'check' " + check + " needs format 1"
                    + " (xz); other formats have no integrity check");
        }
        if (preset != null && (preset & ~PRESET_EXTREME) > 9 || preset != null && preset < 0) {
            throw new InvalidMetadataException(pointer + "/preset", NAME + ": 'preset' must be 0 to 9, optionally"
                    + " plus PRESET_EXTREME (2147483648), found " + preset);
        }
        if (preset != null && filters != null) {
            throw new InvalidMetadataException(pointer + "/preset", NAME + ": 'preset' and 'filters' cannot both be"
                    + " given");
        }
        if (format == FORMAT_RAW && filters == null) {
            throw new InvalidMetadataException(pointer + "/filters", NAME + ": format 3 (raw) needs 'filters'");
        }
        if (filters != null) {
            validateFilters();
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("format", format);
        node.put("check", check);
        if (preset == null) {
            node.putNull("preset");
        } else {
            node.put("preset", preset);
        }
        if (filters == null) {
            node.putNull("filters");
        } else {
            node.set("filters", filters.deepCopy());
        }
        return node;
    }

    // ---- the filter chain ----

    private String filterPointer(int i, String key) {
        return pointer + "/filters/" + i + (key == null ? "" : "/" + key);
    }

    private void validateFilters() {
        if (filters.isEmpty() || filters.size() > 4) {
            throw new InvalidMetadataException(pointer + "/filters", NAME + ": 'filters' must hold 1 to 4 filters,"
                    + " found " + filters.size());
        }
        for (int i = 0; i < filters.size(); i++) {
            JsonNode f = filters.get(i);
            if (!f.isObject() || !f.path("id").canConvertToLong() || !f.path("id").isIntegralNumber()) {
                throw new InvalidMetadataException(filterPointer(i, "id"), NAME + ": each filter is an object with an"
                        + " integer 'id', found " + f);
            }
            long id = f.get("id").longValue();
            boolean last = i == filters.size() - 1;
            boolean lzma = id == FILTER_LZMA1 || id == FILTER_LZMA2;
            if (lzma != last) {
                throw new InvalidMetadataException(filterPointer(i, "id"), NAME + ": the last filter, and only it,"
                        + " must be LZMA1 (" + FILTER_LZMA1 + ") or LZMA2 (" + FILTER_LZMA2 + "); filter " + i
                        + " has id " + id);
            }
            if (id == FILTER_LZMA1 && (format == FORMAT_XZ || filters.size() > 1 && format == FORMAT_ALONE)) {
                throw new InvalidMetadataException(filterPointer(i, "id"), NAME + ": LZMA1 is for formats 2 (alone)"
                        + " and 3 (raw) " + (format == FORMAT_ALONE ? "alone" : "") + "; xz needs LZMA2 (33)");
            }
            if (id == FILTER_LZMA2 && format == FORMAT_ALONE) {
                throw new InvalidMetadataException(filterPointer(i, "id"), NAME + ": format 2 (alone) needs LZMA1 ("
                        + FILTER_LZMA1 + ")");
            }
            if (id == FILTER_LZMA1 && filters.size() > 1) {
                throw new InvalidMetadataException(filterPointer(i, "id"), NAME + ": zarrj supports LZMA1 only as the"
                        + " sole filter");
            }
            Set<String> allowed = lzma ? LZMA_KEYS : id == FILTER_DELTA ? Set.of("id", "dist")
                    : id >= 4 && id <= 11 ? Set.of("id", "start_offset") : null;
            if (allowed == null) {
                throw new InvalidMetadataException(filterPointer(i, "id"), NAME + ": unknown filter id " + id
                        + "; known: LZMA1, LZMA2 (33), delta (3), BCJ 4 to 11");
            }
            for (Iterator<String> it = f.fieldNames(); it.hasNext(); ) {
                String key = it.next();
                if (!allowed.contains(key)) {
                    throw new InvalidMetadataException(filterPointer(i, key), NAME + ": unknown option '" + key
                            + "' of filter " + id + "; allowed: " + allowed);
                }
                JsonNode v = f.get(key);
                if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
                    throw new InvalidMetadataException(filterPointer(i, key), NAME + ": filter option '" + key
                            + "' must be a non-negative integer, found " + v);
                }
            }
            try {
                options(i);
            } catch (UnsupportedOptionsException e) {
                throw new InvalidMetadataException(filterPointer(i, null), NAME + ": filter " + i + " (id " + id
                        + "): " + e.getMessage(), e);
            }
        }
    }

    /** Filter {@code i} as xz-java options (LZMA1 too, as LZMA2Options holds the same settings). */
    private FilterOptions options(int i) throws UnsupportedOptionsException {
        JsonNode f = filters.get(i);
        long id = f.get("id").longValue();
        if (id == FILTER_LZMA1 || id == FILTER_LZMA2) {
            LZMA2Options o = new LZMA2Options((int) (f.path("preset").asLong(6) & ~PRESET_EXTREME));
            if (f.has("dict_size")) {
                o.setDictSize((int) Math.min(f.get("dict_size").longValue(), Integer.MAX_VALUE));
            }
            if (f.has("lc")) {
                o.setLc(f.get("lc").intValue());
            }
            if (f.has("lp")) {
                o.setLp(f.get("lp").intValue());
            }
            if (f.has("pb")) {
                o.setPb(f.get("pb").intValue());
            }
            if (f.has("mode")) {
                o.setMode(f.get("mode").intValue());
            }
            if (f.has("nice_len")) {
                o.setNiceLen(f.get("nice_len").intValue());
            }
            if (f.has("mf")) {
                int mf = f.get("mf").intValue();
                // liblzma's match finders: hc3 3, hc4 4, bt2 0x12, bt3 0x13, bt4 0x14; xz-java has hc4 and bt4.
                o.setMatchFinder(mf == 0x03 ? LZMA2Options.MF_HC4 : mf == 0x12 || mf == 0x13 ? LZMA2Options.MF_BT4 : mf);
            }
            if (f.has("depth")) {
                o.setDepthLimit(f.get("depth").intValue());
            }
            return o;
        }
        if (id == FILTER_DELTA) {
            return new DeltaOptions(f.path("dist").asInt(1));
        }
        int start = f.path("start_offset").asInt(0);
        // Each BCJ filter's options class inherits setStartOffset from a class xz-java does not export.
        return switch ((int) id) {
            case 4 -> { X86Options o = new X86Options(); o.setStartOffset(start); yield o; }
            case 5 -> { PowerPCOptions o = new PowerPCOptions(); o.setStartOffset(start); yield o; }
            case 6 -> { IA64Options o = new IA64Options(); o.setStartOffset(start); yield o; }
            case 7 -> { ARMOptions o = new ARMOptions(); o.setStartOffset(start); yield o; }
            case 8 -> { ARMThumbOptions o = new ARMThumbOptions(); o.setStartOffset(start); yield o; }
            case 9 -> { SPARCOptions o = new SPARCOptions(); o.setStartOffset(start); yield o; }
            case 10 -> { ARM64Options o = new ARM64Options(); o.setStartOffset(start); yield o; }
            default -> { RISCVOptions o = new RISCVOptions(); o.setStartOffset(start); yield o; }
        };
    }

    private FilterOptions[] chain() {
        try {
            if (filters == null) {
                int p = preset == null ? 6 : (int) (preset & ~PRESET_EXTREME);
                return new FilterOptions[] {new LZMA2Options(p)};
            }
            FilterOptions[] out = new FilterOptions[filters.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = options(i);
            }
            return out;
        } catch (UnsupportedOptionsException e) {
            throw new InvalidMetadataException(pointer, NAME + ": " + e.getMessage(), e); // validated at creation
        }
    }

    private boolean lzma1() {
        return filters != null && filters.get(filters.size() - 1).get("id").longValue() == FILTER_LZMA1;
    }

    // ---- encoding and decoding ----

    /** liblzma's bound for incompressible data: the data plus per-chunk and container overhead. */
    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        return Buffers.bound(decoded, n -> n + n / 64 + 1024);
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        if (format == FORMAT_AUTO) {
            throw new InvalidMetadataException(pointer + "/format", NAME + ": format 0 (auto) can only decode; give"
                    + " 1 (xz), 2 (alone) or 3 (raw) to write");
        }
        byte[] data = Buffers.toArray(decoded);
        Buffers.Out out = new Buffers.Out(data.length / 2 + 128);
        FilterOptions[] chain = chain();
        try {
            switch (format) {
                case FORMAT_XZ -> {
                    try (XZOutputStream xz = new XZOutputStream(out, chain, check == -1 ? XZ.CHECK_CRC64 : check)) {
                        xz.write(data);
                    }
                }
                case FORMAT_ALONE -> {
                    try (LZMAOutputStream lz = new LZMAOutputStream(out, (LZMA2Options) chain[0], -1)) {
                        lz.write(data);
                    }
                }
                default -> {
                    FinishableOutputStream s;
                    if (lzma1()) {
                        s = new LZMAOutputStream(out, (LZMA2Options) chain[0], true);
                    } else {
                        s = new FinishableWrapperOutputStream(out);
                        for (int i = chain.length - 1; i >= 0; i--) {
                            s = chain[i].getOutputStream(s, ArrayCache.getDefaultCache());
                        }
                    }
                    try (FinishableOutputStream raw = s) {
                        raw.write(data);
                    }
                }
            }
        } catch (IOException e) {
            // Writes go to memory; only the library's own checks of its options can fail here.
            throw new ZarrException("ZARR-CODEC", NAME + ": cannot encode: " + Buffers.describe(e), e);
        }
        return out.result();
    }

    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        return Buffers.readAll(NAME, () -> open(encoded, decodedSize.max()), decodedSize, encoded.remaining());
    }

    private InputStream open(ByteBuffer encoded, long decodedMax) throws IOException {
        InputStream in = Buffers.in(encoded);
        int f = format;
        if (f == FORMAT_AUTO) {
            f = isXz(encoded) ? FORMAT_XZ : FORMAT_ALONE;
        }
        switch (f) {
            case FORMAT_XZ -> {
                return new XZInputStream(in, MEMORY_LIMIT_KIB);
            }
            case FORMAT_ALONE -> {
                return alone(in, decodedMax);
            }
            default -> {
                FilterOptions[] chain = chain();
                LZMA2Options last = (LZMA2Options) chain[chain.length - 1];
                if (lzma1()) {
                    return new LZMAInputStream(in, -1, last.getLc(), last.getLp(), last.getPb(), last.getDictSize(),
                            null);
                }
                InputStream s = new LZMA2InputStream(in, last.getDictSize());
                for (int i = chain.length - 2; i >= 0; i--) {
                    s = chain[i].getInputStream(s, ArrayCache.getDefaultCache());
                }
                return s;
            }
        }
    }

    /**
     * An {@code .lzma} (LZMA_Alone) stream, whose dictionary is at most the decoded size: LZMA
     * refers back only to bytes already decoded, so a larger dictionary is never used, and a
     * header claiming one is not allocated (a 13-byte header could otherwise claim 4 GiB).
     */
    private static InputStream alone(InputStream in, long decodedMax) throws IOException {
        byte[] header = in.readNBytes(13);
        if (header.length < 13) {
            throw new IOException("truncated .lzma header: " + header.length + " of 13 bytes");
        }
        long dictSize = 0;
        for (int i = 0; i < 4; i++) {
            dictSize |= (long) (header[1 + i] & 0xFF) << (8 * i);
        }
        long uncompSize = 0;
        for (int i = 0; i < 8; i++) {
            uncompSize |= (long) (header[5 + i] & 0xFF) << (8 * i);
        }
        if (uncompSize < -1) {
            throw new IOException(".lzma header declares an uncompressed size of 2^63 bytes or more");
        }
        long cap = Math.min(decodedMax, MEMORY_LIMIT_KIB * 1024L);
        if (uncompSize >= 0) {
            cap = Math.min(cap, uncompSize);
        }
        int dict = (int) Math.max(4096, Math.min(dictSize, cap));
        return new LZMAInputStream(in, uncompSize, header[0], dict);
    }

    private static boolean isXz(ByteBuffer b) {
        byte[] magic = {(byte) 0xFD, '7', 'z', 'X', 'Z', 0};
        if (b.remaining() < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if (b.get(b.position() + i) != magic[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LzmaCodec c && c.configuration().equals(configuration());
    }

    @Override
    public int hashCode() {
        return configuration().hashCode();
    }

    @Override
    public String toString() {
        return NAME + configuration();
    }
}
