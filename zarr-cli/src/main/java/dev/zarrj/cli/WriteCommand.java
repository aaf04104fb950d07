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
@Command(name = "write",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr write data.zarr --path /temp --raw temp.raw",
                "  zarr write data.zarr --path /counts --region 0:2,0:2 --json counts.json",
                "  zarr cat a.zarr --path /x | zarr write b.zarr --path /x --raw -"}, mixinStandardHelpOptions = true,
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
        write(array, r, data);
        root.closeStore(s);
        root.out().println("wrote " + r.elementCount() + " elements to " + array.path());
        return 0;
    }

    /**
     * Writes the data; with a progress bar, in slabs of whole chunk (or shard) rows along the first
     * dimension, so that the bar moves and no chunk is written twice.
     */
    private void write(ZarrArray array, Region r, NdArray data) {
        long[] offset = r.offset();
        long[] shape = r.shape();
        if (shape.length == 0 || shape[0] == 0) {
            array.write(offset, data);
            return;
        }
        long rows = array.chunkShape()[0];
        long first = offset[0];
        long end = first + shape[0];
        long chunkRows = (end - 1) / rows - first / rows + 1;
        // At most about 100 slabs: each is one call, written with the core's own parallelism.
        long perSlab = rows * Math.max(1, (chunkRows + 99) / 100);
        long slabs = (end - 1) / perSlab - first / perSlab + 1;
        try (Progress progress = root.progress("write " + array.path(), slabs, "slabs")) {
            if (!progress.enabled()) {
                array.write(offset, data);
                return;
            }
            long at = first;
            while (at < end) {
                long stop = Math.min(end, (at / perSlab + 1) * perSlab);
                NdArray slab = data.slice(at - first, stop - first);
                long[] o = offset.clone();
                o[0] = at;
                array.write(o, slab);
                progress.step(slab.holdsObjects() ? 0 : slab.byteSize());
                at = stop;
            }
        }
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
