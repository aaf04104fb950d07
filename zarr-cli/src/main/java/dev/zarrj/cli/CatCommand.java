package dev.zarrj.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.core.ZarrArray;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code zarr cat}: an array's elements (or a region's) as raw bytes, JSON or CSV. */
@Command(name = "cat",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr cat data.zarr --path /counts --region 0:10,0:10 --format csv",
                "  zarr cat data.zarr --path /temp --format json",
                "  zarr cat data.zarr --path /temp -o temp.raw"}, mixinStandardHelpOptions = true,
        description = "Print an array's elements: raw (C order, little endian, no header), json or csv.")
final class CatCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "STORE")
    String store;

    @Option(names = "--path", defaultValue = "/", description = "The array (default: the root).")
    String path;

    @Option(names = "--region", paramLabel = "R", description = "start:stop per dimension, comma-separated; ':' for all.")
    String region;

    @Option(names = "--format", defaultValue = "raw", description = "raw, json or csv (default: raw).")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of standard output.")
    Path output;

    @Override
    public Integer call() throws Exception {
        if (!format.equals("raw") && !format.equals("json") && !format.equals("csv")) {
            throw new UserError("--format must be raw, json or csv, not '" + format + "'");
        }
        ZarrArray array = root.zarr().openArray(root.openStore(store, true), path);
        Region r = Region.parse(region, array.shape());
        NdArray data = array.read(r.offset(), r.shape());
        byte[] bytes = switch (format) {
            case "raw" -> ElementFormats.toRawLittleEndian(data);
            case "json" -> (new ObjectMapper().writeValueAsString(ElementFormats.nested(data)) + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            default -> ElementFormats.csv(data).getBytes(StandardCharsets.UTF_8);
        };
        if (output != null) {
            Files.write(output, bytes);
        } else if (format.equals("raw")) {
            OutputStream o = root.rawOut();
            o.write(bytes);
            o.flush();
        } else {
            root.out().print(new String(bytes, StandardCharsets.UTF_8));
            root.out().flush();
        }
        return 0;
    }
}
