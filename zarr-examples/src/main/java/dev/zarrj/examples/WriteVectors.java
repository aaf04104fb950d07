package dev.zarrj.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.store.Store;
import dev.zarrj.conformance.vectors.KitVectors;
import dev.zarrj.conformance.vectors.VectorManifest;
import dev.zarrj.conformance.vectors.VectorManifest.ArrayVector;
import dev.zarrj.conformance.vectors.VectorManifest.StoredChunk;
import dev.zarrj.conformance.vectors.VectorValues;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes with zarrj the conformance kit's vector matrix: every array of the kit's manifest, with
 * the same metadata (data type, shape, chunks, key encoding, codecs, fill value) and the same
 * values, into a file-system store, next to a {@code manifest.json} that lists what zarrj stored.
 * Another implementation then reads it: {@code node zarr-conformance/vectors-gen/verify.mjs DIR}
 * does so with zarrita.
 *
 * <p>Usage: {@code ZARRJ_MAIN=dev.zarrj.examples.WriteVectors bin/zarr-demo DIR}. The directory
 * is emptied first. Chunks that hold only the fill value are not written (zarrj's default), so
 * the arrays' absent chunks are those of the kit's vectors or more.
 */
public final class WriteVectors {
    private WriteVectors() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: WriteVectors DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Zarr zarr = Zarr.defaults();
        VectorManifest kit = KitVectors.manifest();
        List<ArrayVector> written = new ArrayList<>();
        try (Store store = zarr.openStore(dir.toString())) {
            zarr.erase(store, "/");
            zarr.createGroup(store, "/");
            for (ArrayVector v : kit.arrays()) {
                ZarrArray a = zarr.createArray(store, "/" + v.path(), v.metadata(), true);
                DataType type = a.dataType();
                NdArray values = VectorValues.expected(type, v);
                a.write(new long[v.shape().length], values);
                List<StoredChunk> chunks = new ArrayList<>();
                for (long[] c : a.storedChunks()) {
                    chunks.add(new StoredChunk(c, a.chunkKey(c).substring(v.path().length() + 1)));
                }
                written.add(new ArrayVector(v.path(), v.dataType(), v.shape(), v.chunkShape(), v.chunkKeyEncoding(),
                        v.codecs(), v.fillValue(), v.extensions(), v.features(), chunks, v.values()));
            }
        }
        List<String> notes = List.of("Written by zarrj (dev.zarrj.examples.WriteVectors) from the manifest of the conformance kit's vectors: "
                + "the same metadata and values; 'chunks' lists the chunks zarrj stored.");
        Files.write(dir.resolve("manifest.json"), new ObjectMapper().writerWithDefaultPrettyPrinter()
                .writeValueAsBytes(VectorManifest.of(written, notes).toJson()));
        System.out.println("wrote " + written.size() + " arrays and manifest.json to " + dir);
    }
}
