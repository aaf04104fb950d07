package dev.zarrj.conformance.vectors;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.Float16;
import dev.zarrj.api.store.Store;
import dev.zarrj.conformance.vectors.VectorManifest.ArrayVector;
import dev.zarrj.conformance.vectors.VectorManifest.StoredChunk;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Reads every array of a {@link VectorManifest} from a store with zarrj and compares it with the
 * manifest, element by element.
 *
 * <p>For each array it checks, in order: that every extension it names is installed (else the
 * array is {@linkplain VectorResult.Status#SKIP skipped}, naming the extension and the module that
 * provides it); that it opens with the manifest's data type, shape, chunk shape and fill value;
 * that zarrj's key for every stored chunk is the manifest's key; and that every element equals
 * the manifest's value. Integers are compared exactly (64-bit ones too), booleans as the bytes 0
 * and 1, floats bit for bit in their own width except that every NaN equals every NaN (float16
 * through {@link Float16}), complex numbers component by component, raw types byte by byte.
 *
 * <p>Thread-safe: holds no state.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class VectorVerifier {
    private VectorVerifier() {}

    /** Verifies every array of a manifest, in manifest order; never throws for a bad array. */
    public static List<VectorResult> verify(Zarr zarr, Store store, VectorManifest manifest) {
        List<VectorResult> out = new ArrayList<>();
        for (ArrayVector v : manifest.arrays()) {
            out.add(verify(zarr, store, v));
        }
        return out;
    }

    /** Verifies one array; a failure to open or read it is a {@code FAIL} with the exception's message. */
    public static VectorResult verify(Zarr zarr, Store store, ArrayVector v) {
        Optional<String> missing = missingExtension(zarr.registry(), v);
        if (missing.isPresent()) {
            return VectorResult.skip(v.path(), missing.get());
        }
        try {
            return check(zarr, store, v);
        } catch (RuntimeException e) {
            return VectorResult.fail(v.path(), e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * The first extension the array needs that the registry lacks, as a sentence naming it and
     * the module to add when zarrj knows one.
     */
    public static Optional<String> missingExtension(ExtensionRegistry registry, ArrayVector v) {
        if (!registry.names(ExtensionPoint.DATA_TYPE).contains(v.dataType())) {
            return Optional.of(missing(registry, ExtensionPoint.DATA_TYPE, v.dataType()));
        }
        if (!registry.names(ExtensionPoint.CHUNK_GRID).contains("regular")) {
            return Optional.of(missing(registry, ExtensionPoint.CHUNK_GRID, "regular"));
        }
        String keys = v.chunkKeyEncoding().path("name").asText();
        if (!registry.names(ExtensionPoint.CHUNK_KEY_ENCODING).contains(keys)) {
            return Optional.of(missing(registry, ExtensionPoint.CHUNK_KEY_ENCODING, keys));
        }
        List<String> codecs = new ArrayList<>();
        codecNames(v.codecs(), codecs);
        for (String c : codecs) {
            if (!registry.names(ExtensionPoint.CODEC).contains(c)) {
                return Optional.of(missing(registry, ExtensionPoint.CODEC, c));
            }
        }
        return Optional.empty();
    }

    private static String missing(ExtensionRegistry registry, ExtensionPoint point, String name) {
        return "needs the " + point.label() + " '" + name + "', which is not installed"
                + ExtensionRegistry.knownModule(name).map(m -> "; add " + m).orElse("");
    }

    /** Every codec name in a chain, with those nested in a configuration's codec lists (sharding). */
    private static void codecNames(JsonNode chain, List<String> out) {
        for (JsonNode c : chain) {
            out.add(c.path("name").asText());
            JsonNode config = c.path("configuration");
            for (String nested : List.of("codecs", "index_codecs")) {
                if (config.path(nested).isArray()) {
                    codecNames(config.get(nested), out);
                }
            }
        }
    }

    private static VectorResult check(Zarr zarr, Store store, ArrayVector v) {
        ZarrArray a = zarr.openArray(store, "/" + v.path());
        DataType t = a.dataType();
        if (!t.name().equals(v.dataType())) {
            return VectorResult.fail(v.path(), "data type " + t.name() + ", expected " + v.dataType());
        }
        if (!Arrays.equals(a.shape(), v.shape())) {
            return VectorResult.fail(v.path(), "shape " + Arrays.toString(a.shape()) + ", expected " + Arrays.toString(v.shape()));
        }
        if (!Arrays.equals(a.chunkShape(), v.chunkShape())) {
            return VectorResult.fail(v.path(), "chunk shape " + Arrays.toString(a.chunkShape()) + ", expected "
                    + Arrays.toString(v.chunkShape()));
        }
        FillValue fill = t.parseFillValue(v.fillValue(), "/fill_value");
        if (!fill.equals(a.fillValue())) {
            return VectorResult.fail(v.path(), "fill value " + t.fillValueToJson(a.fillValue()) + ", expected " + v.fillValue());
        }
        String prefix = v.path().isEmpty() ? "" : v.path() + "/";
        for (StoredChunk c : v.chunks()) {
            String key = a.chunkKey(c.coords());
            if (!key.equals(prefix + c.key())) {
                return VectorResult.fail(v.path(), "chunk " + Arrays.toString(c.coords()) + " has key '" + key
                        + "', expected '" + prefix + c.key() + "'");
            }
        }
        long n = v.elementCount();
        if (v.values().size() != n) {
            return VectorResult.fail(v.path(), "the manifest lists " + v.values().size() + " values for " + n + " elements");
        }
        NdArray data = a.read();
        ByteBuffer bytes = data.bytes();
        for (int i = 0; i < n; i++) {
            JsonNode want = v.value(i);
            String got;
            try {
                got = differs(t, data, bytes, i, want);
            } catch (RuntimeException e) {
                return VectorResult.fail(v.path(), "element " + i + ": the manifest's value " + want + " is not a "
                        + t.name() + ": " + e.getMessage());
            }
            if (got != null) {
                return VectorResult.fail(v.path(), new VectorResult.Mismatch(i, unflatten(i, v.shape()), display(want), got));
            }
        }
        return VectorResult.pass(v.path());
    }

    private static long[] unflatten(long i, long[] shape) {
        long[] idx = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            idx[d] = i % shape[d];
            i /= shape[d];
        }
        return idx;
    }

    private static String display(JsonNode v) {
        return v.isTextual() ? v.textValue() : v.toString();
    }

    /** Null when element {@code i} equals {@code want}; otherwise the element, in manifest form. */
    private static String differs(DataType t, NdArray data, ByteBuffer bytes, int i, JsonNode want) {
        int size = t.size();
        int off = i * size;
        switch (t.kind()) {
            case BOOL -> {
                boolean w = want.isBoolean() ? want.booleanValue() : VectorValues.integer(want).signum() != 0;
                byte b = bytes.get(off);
                if (b == (w ? 1 : 0)) {
                    return null;
                }
                return b == 0 ? "false" : b == 1 ? "true" : "the byte " + b;
            }
            case INT, UINT -> {
                BigInteger w = VectorValues.integer(want);
                long raw = data.getLong(i);
                BigInteger got = t.kind() == dev.zarrj.api.datatype.ElementKind.UINT && size == 8
                        ? new BigInteger(Long.toUnsignedString(raw)) : BigInteger.valueOf(raw);
                return got.equals(w) ? null : got.toString();
            }
            case FLOAT -> {
                double w = VectorValues.real(want);
                return switch (size) {
                    case 2 -> {
                        short got = bytes.getShort(off);
                        short exp = Float16.fromFloat((float) w);
                        boolean same = Double.isNaN(w) ? Float.isNaN(Float16.toFloat(got)) : got == exp;
                        yield same ? null : show(Float16.toFloat(got));
                    }
                    case 4 -> {
                        float got = bytes.getFloat(off);
                        boolean same = Double.isNaN(w) ? Float.isNaN(got)
                                : Float.floatToRawIntBits(got) == Float.floatToRawIntBits((float) w);
                        yield same ? null : show(got);
                    }
                    default -> {
                        double got = bytes.getDouble(off);
                        yield sameDouble(got, w) ? null : show(got);
                    }
                };
            }
            case COMPLEX -> {
                if (!want.isArray() || want.size() != 2) {
                    throw new IllegalArgumentException("a complex value is [real, imaginary]");
                }
                int half = size / 2;
                double re = half == 4 ? bytes.getFloat(off) : bytes.getDouble(off);
                double im = half == 4 ? bytes.getFloat(off + half) : bytes.getDouble(off + half);
                double wr = VectorValues.real(want.get(0));
                double wi = VectorValues.real(want.get(1));
                if (half == 4) {
                    wr = (float) wr;
                    wi = (float) wi;
                }
                return sameDouble(re, wr) && sameDouble(im, wi) ? null : "[" + show(re) + ", " + show(im) + "]";
            }
            default -> {
                if (!want.isArray() || want.size() != size) {
                    throw new IllegalArgumentException("a raw value is an array of " + size + " byte values");
                }
                StringBuilder got = new StringBuilder("[");
                boolean same = true;
                for (int b = 0; b < size; b++) {
                    int x = bytes.get(off + b) & 0xff;
                    same &= x == want.get(b).asInt(-1);
                    got.append(b == 0 ? "" : ", ").append(x);
                }
                return same ? null : got.append(']').toString();
            }
        }
    }

    private static boolean sameDouble(double a, double b) {
        return Double.isNaN(a) ? Double.isNaN(b) : Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b);
    }

    private static String show(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "Infinity" : "-Infinity";
        }
        return Double.toString(v);
    }
}
