package dev.zarrj.codec.numcodecs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.core.DataTypes;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The other direction of {@link NumcodecsReferenceTest}: the reference numcodecs decodes what
 * zarrj encodes, for every codec and in particular those whose zarrj encoder is not numcodecs'
 * (bz2 on commons-compress, lzma on xz-java, lz4 at other accelerations). Runs the committed
 * {@code numcodecs/decode.py} with {@code python3}; skipped, saying why, when it or numcodecs is
 * missing (Debian: {@code apt-get install python3-numcodecs}).
 */
class NumcodecsPythonInteropTest {
    @TempDir
    Path dir;

    static final String[][] BYTES_CASES = {
        {"numcodecs.zlib", "{\"level\": 3}"},
        {"numcodecs.gzip", "{\"level\": 6}"},
        {"numcodecs.bz2", "{\"level\": 1}"},
        {"numcodecs.bz2", "{\"level\": 9}"},
        {"numcodecs.lzma", "{\"format\": 1, \"check\": -1, \"preset\": null, \"filters\": null}"},
        {"numcodecs.lzma", "{\"format\": 1, \"check\": 10, \"preset\": 2147483654, \"filters\": null}"},
        {"numcodecs.lzma", "{\"format\": 1, \"check\": 0, \"preset\": 1, \"filters\": null}"},
        {"numcodecs.lzma", "{\"format\": 2, \"check\": -1, \"preset\": 2, \"filters\": null}"},
        {"numcodecs.lzma", "{\"format\": 3, \"check\": -1, \"preset\": null, \"filters\": [{\"id\": 3, \"dist\": 8},"
            + " {\"id\": 33, \"preset\": 1, \"mf\": 19, \"mode\": 2}]}"},
        {"numcodecs.lzma", "{\"format\": 3, \"check\": -1, \"preset\": null, \"filters\":"
            + " [{\"id\": 4611686018427387905, \"preset\": 1, \"lc\": 2, \"lp\": 1, \"pb\": 1}]}"},
        {"numcodecs.lz4", "{\"acceleration\": 1}"},
        {"numcodecs.lz4", "{\"acceleration\": 20}"},
        {"numcodecs.adler32", "{}"},
        {"numcodecs.crc32", "{}"},
        {"numcodecs.shuffle", "{\"elementsize\": 8}"},
    };

    static final String[][] ARRAY_CASES = {
        {"numcodecs.delta", "{\"dtype\": \"<i4\", \"astype\": \"<i2\"}", "int32"},
        {"numcodecs.fixedscaleoffset", "{\"offset\": 10, \"scale\": 8, \"dtype\": \"<f8\", \"astype\": \"<i2\"}",
            "float64"},
        {"numcodecs.quantize", "{\"digits\": 2, \"dtype\": \"<f4\"}", "float32"},
        {"numcodecs.bitround", "{\"keepbits\": 7}", "float64"},
        {"numcodecs.astype", "{\"encode_dtype\": \"<f4\", \"decode_dtype\": \"<f8\"}", "float64"},
        {"numcodecs.packbits", "{}", "bool"},
    };

    /**
     * The first Python with numcodecs: {@code ZARRJ_PYTHON} when set, else {@code python3} on the
     * path, else the system's {@code /usr/bin/python3} (where Debian's python3-numcodecs lives when
     * another Python comes first on the path).
     */
    static java.util.Optional<String> pythonWithNumcodecs() {
        List<String> candidates = new ArrayList<>();
        String configured = System.getenv("ZARRJ_PYTHON");
        if (configured != null) {
            candidates.add(configured);
        }
        candidates.add("python3");
        candidates.add("/usr/bin/python3");
        for (String python : candidates) {
            try {
                Process p = new ProcessBuilder(python, "-c", "import numcodecs, numpy").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return java.util.Optional.of(python);
                }
            } catch (Exception e) {
                // not this one
            }
        }
        return java.util.Optional.empty();
    }

    static byte[] sample(int n) {
        byte[] b = new byte[n];
        ByteBuffer d = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n / 8; i++) {
            d.putDouble(i * 8, Math.sin(i / 25.0) * 100 + (i % 7) * 0.001);
        }
        return b;
    }

    static NdArray arraySample(DataType type, long n) {
        NdArray a = NdArray.allocate(type, n);
        for (int i = 0; i < n; i++) {
            if (type == DataTypes.BOOL) {
                a.setBoolean(i, (i * 7 % 5) < 2);
            } else if (type == DataTypes.INT32) {
                a.setLong(i, 1000 + (i * 37 % 23) - 11L * (i % 3));
            } else {
                a.setDouble(i, 10 + Math.sin(i / 3.0) * 50);
            }
        }
        return a;
    }

    @Test
    void numcodecsDecodesWhatZarrjEncodes() throws Exception {
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "little-endian platform");
        java.util.Optional<String> python = pythonWithNumcodecs();
        boolean available = python.isPresent();
        if (!available) {
            System.out.println("NumcodecsPythonInteropTest: skipped: python3 with numcodecs not found"
                    + " (apt-get install python3-numcodecs)");
        }
        assumeTrue(available, "python3 with numcodecs");
        ArrayNode cases = Providers.JSON.createArrayNode();
        List<byte[]> expected = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        byte[] data = sample(8 * 3001);
        for (String[] c : BYTES_CASES) {
            BytesToBytesCodec codec = (BytesToBytesCodec) Providers.create(c[0], c[1]);
            byte[] encoded = NumcodecsReferenceTest.bytes(codec.encode(ByteBuffer.wrap(data)));
            cases.add(caseJson(c[0], c[1], encoded, null));
            expected.add(data);
            labels.add(c[0] + c[1]);
        }
        for (String[] c : ARRAY_CASES) {
            ArrayToArrayCodec codec = (ArrayToArrayCodec) Providers.create(c[0], c[1]);
            DataType type = DataTypes.of(c[2]);
            ChunkSpec spec = new ChunkSpec(type, new long[] {203}, type.defaultFillValue());
            NdArray x = arraySample(type, 203);
            NdArray enc = codec.encode(x, spec);
            String encType = NumpyType.of(enc.dataType()).orElseThrow().numpyStr();
            cases.add(caseJson(c[0], c[1], NumcodecsReferenceTest.bytes(enc.bytes()), encType));
            expected.add(NumcodecsReferenceTest.bytes(codec.decode(enc, spec).bytes()));
            labels.add(c[0] + c[1]);
        }
        Path input = dir.resolve("cases.json");
        Files.writeString(input, cases.toString());
        Path script = dir.resolve("decode.py");
        try (InputStream in = getClass().getResourceAsStream("/numcodecs/decode.py")) {
            Files.copy(in, script);
        }
        Process p = new ProcessBuilder(python.get(), script.toString(), input.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] stdout = p.getInputStream().readAllBytes();
        assertEquals(true, p.waitFor(120, TimeUnit.SECONDS), "python3 finished");
        assertEquals(0, p.exitValue(), new String(stdout));
        JsonNode results = Providers.JSON.readTree(stdout);
        assertEquals(labels.size(), results.size());
        for (int i = 0; i < labels.size(); i++) {
            JsonNode r = results.get(i);
            assertFalse(r.has("error"), labels.get(i) + ": numcodecs refused zarrj's encoding: " + r.path("error"));
            byte[] decoded = Base64.getDecoder().decode(r.get("decoded").asText());
            assertEquals(java.util.HexFormat.of().formatHex(expected.get(i)), java.util.HexFormat.of().formatHex(decoded),
                    labels.get(i) + ": numcodecs decodes zarrj's encoding to what zarrj does");
        }
    }

    private static ObjectNode caseJson(String name, String configuration, byte[] encoded, String encodedDtype)
            throws Exception {
        ObjectNode n = Providers.JSON.createObjectNode();
        n.put("id", name.substring("numcodecs.".length()));
        n.set("configuration", Providers.JSON.readTree(configuration));
        n.put("encoded", Base64.getEncoder().encodeToString(encoded));
        if (encodedDtype != null) {
            n.put("encoded_dtype", encodedDtype);
        }
        return n;
    }

}
