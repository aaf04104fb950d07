package dev.zarrj.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import dev.zarrj.api.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code zarr write}: elements into a region of an array, as raw little-endian bytes or as the
 * JSON that {@code cat --format json} prints (the only form for variable-length types).
 */
@Command(name = "write", mixinStandardHelpOptions = true,
        description = "Write elements into a region (default: the whole array): raw (the format of 'cat --format raw')"
                + " or JSON (the format of 'cat --format json': nested arrays of the region's shape; strings, base64"
                + " text for bytes, ISO 8601 text or counts for datetimes, each type's fill-value form otherwise).")
final class WriteCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "STORE")
    String store;

    @Option(names = "--path", required = true, description = "The array.")
    String path;

    @Option(names = "--region", paramLabel = "R", description = "start:stop per dimension, comma-separated.")
    String region;

    @Option(names = "--raw", paramLabel = "FILE", description = "The raw data, or - for standard input.")
    String raw;

    @Option(names = "--json", paramLabel = "FILE", description = "The elements as JSON, or - for standard input.")
    String json;

    @Mixin
    WaitOption waitOption;

    @Override
    public Integer call() throws IOException {
        if ((raw == null) == (json == null)) {
            throw new UserError("give the elements as one of --raw FILE or --json FILE");
        }
        Store s = root.openStore(waitOption.apply(store), false);
        ZarrArray array = root.zarr().openArray(s, path);
        Region r = Region.parse(region, array.shape());
        NdArray data = json != null ? fromJson(array, r) : fromRaw(array, r);
        array.write(r.offset(), data);
        root.closeStore(s);
        root.out().println("wrote " + r.elementCount() + " elements to " + array.path());
        return 0;
    }

    private NdArray fromRaw(ZarrArray array, Region r) throws IOException {
        if (array.dataType().kind().isVariableLength()) {
            throw new UserError("--raw cannot hold " + array.dataType().name() + " elements, whose lengths vary;"
                    + " give them as --json");
        }
        byte[] bytes = read(raw, "--raw");
        long expected = r.elementCount() * array.dataType().size();
        if (bytes.length != expected) {
            throw new UserError("--raw holds " + bytes.length + " bytes; the region needs " + expected + " ("
                    + r.elementCount() + " " + array.dataType().name() + " elements)");
        }
        return ElementFormats.fromRawLittleEndian(array.dataType(), bytes, r.shape());
    }

    private NdArray fromJson(ZarrArray array, Region r) throws IOException {
        byte[] bytes = read(json, "--json");
        JsonNode doc;
        try {
            doc = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new UserError("--json " + json + " is not valid JSON: " + e.getOriginalMessage());
        }
        if (doc == null || doc.isMissingNode()) {
            throw new UserError("--json " + json + " is empty");
        }
        return ElementFormats.fromJson(array.dataType(), doc, r.shape());
    }

    private static byte[] read(String file, String option) throws IOException {
        if (file.equals("-")) {
            return System.in.readAllBytes();
        }
        Path p = Path.of(file);
        if (!Files.isRegularFile(p)) {
            throw new UserError(option + " " + p + ": no such file");
        }
        return Files.readAllBytes(p);
    }
}
