package dev.zarrj.cli;

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

/** {@code zarr write}: raw little-endian elements into a region of an array. */
@Command(name = "write", mixinStandardHelpOptions = true,
        description = "Write raw elements (the format of 'cat --format raw') into a region (default: the whole array).")
final class WriteCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "STORE")
    String store;

    @Option(names = "--path", required = true, description = "The array.")
    String path;

    @Option(names = "--region", paramLabel = "R", description = "start:stop per dimension, comma-separated.")
    String region;

    @Option(names = "--raw", required = true, paramLabel = "FILE", description = "The raw data, or - for standard input.")
    String raw;

    @Mixin
    WaitOption waitOption;

    @Override
    public Integer call() throws IOException {
        Store s = root.openStore(waitOption.apply(store), false);
        ZarrArray array = root.zarr().openArray(s, path);
        Region r = Region.parse(region, array.shape());
        byte[] bytes = raw.equals("-") ? System.in.readAllBytes() : read(Path.of(raw));
        long expected = r.elementCount() * array.dataType().size();
        if (bytes.length != expected) {
            throw new UserError("--raw holds " + bytes.length + " bytes; the region needs " + expected + " ("
                    + r.elementCount() + " " + array.dataType().name() + " elements)");
        }
        NdArray data = ElementFormats.fromRawLittleEndian(array.dataType(), bytes, r.shape());
        array.write(r.offset(), data);
        root.closeStore(s);
        root.out().println("wrote " + r.elementCount() + " elements to " + array.path());
        return 0;
    }

    private static byte[] read(Path p) throws IOException {
        if (!Files.isRegularFile(p)) {
            throw new UserError("--raw " + p + ": no such file");
        }
        return Files.readAllBytes(p);
    }
}
