package dev.zarrj.cli;

import static dev.zarrj.cli.ZarrCliTest.zarr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * zarrs' optional type on the command line: cat prints missing elements as null and, for nested
 * types, "present with a missing value" as [null] (csv: an empty field, and the JSON text);
 * write --json reads that form back; info shows the fill value as zarrs writes it.
 */
class OptionalCliTest {
    private static Path vector(String id) {
        Optional<Path> root = VectorCatTest.vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found");
        return root.get().resolve(id);
    }

    @Test
    void catJsonPrintsMissingAsNull() {
        ZarrCliTest.Result r = zarr("cat", vector("zarrs/v3/array_optional.zarr/array").toString(), "--format", "json");
        assertEquals(0, r.code(), r.stderr());
        assertEquals("[[0,null,2,3],[null,5,null,7],[8,9,null,null],[12,null,null,null]]\n", r.out());
    }

    @Test
    void catJsonPrintsPresentButMissingAsBracketedNull() {
        ZarrCliTest.Result r = zarr("cat", vector("zarrs/v3/array_optional_nested.zarr/array").toString(),
                "--format", "json");
        assertEquals(0, r.code(), r.stderr());
        assertEquals("[[null,[null],2,3],[null,5,null,7],[[null],[null],null,null],[[null],[null],null,null]]\n",
                r.out());
    }

    @Test
    void csvPrintsMissingAsAnEmptyFieldAndNestedFormsAsQuotedJson() {
        ZarrCliTest.Result r = zarr("cat", vector("zarrs/v3/array_optional_nested.zarr/array").toString(), "--format",
                "csv");
        assertEquals(0, r.code(), r.stderr());
        assertEquals(",[null],2,3", r.out().lines().findFirst().orElseThrow());
    }

    @Test
    void infoShowsTheFillValueAsZarrsWritesIt() {
        ZarrCliTest.Result r = zarr("info", vector("zarrs/v3/array_optional_nested.zarr/array").toString());
        assertEquals(0, r.code(), r.stderr());
        assertTrue(r.out().contains("fill [null]"), r.out());
    }

    @Test
    void writeJsonReadsWhatCatPrints(@org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
        String store = dir.resolve("copy.zarr").toString();
        assertEquals(0, zarr("copy", vector("zarrs/v3/array_optional_nested.zarr/array").toString(), store).code());
        String values = "[[2,null,[null],3],[null,5,null,7],[[null],[null],null,null],[[null],[null],null,[[9]]]]";
        Path in = dir.resolve("in.json");
        java.nio.file.Files.writeString(in, values);
        ZarrCliTest.Result w = zarr("write", store, "--path", "/", "--json", in.toString());
        assertEquals(0, w.code(), w.stderr());
        ZarrCliTest.Result r = zarr("cat", store, "--format", "json");
        assertEquals(0, r.code(), r.stderr());
        // [[9]] is zarrs' form of a present present 9, which prints as 9.
        assertEquals(values.replace("[[9]]", "9") + "\n", r.out());
    }
}
