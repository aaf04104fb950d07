package dev.zarrj.conformance.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.conformance.ArrayToArrayCodecContract;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import dev.zarrj.conformance.BytesToBytesCodecContract;
import dev.zarrj.conformance.ChunkGridContract;
import dev.zarrj.conformance.ChunkKeyEncodingContract;
import dev.zarrj.conformance.ConformanceKit;
import dev.zarrj.conformance.DataTypeContract;
import dev.zarrj.conformance.MetadataFormatContract;
import dev.zarrj.conformance.StorageTransformerContract;
import dev.zarrj.conformance.StoreContract;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * RULES.md is its header followed by {@code rules/codecs.md} and {@code rules/stores-and-metadata.md},
 * its header names the kit's {@link ConformanceKit#RULES_VERSION}, and every rule a contract checks
 * has a row. If this fails after editing {@code rules/*.md}, rebuild RULES.md from its first 9 lines
 * and {@code cat rules/codecs.md rules/stores-and-metadata.md}.
 */
class RulesUpToDateTest {
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final int HEADER_LINES = 9;

    private static String read(String file) throws IOException {
        return Files.readString(MODULE.resolve(file), StandardCharsets.UTF_8);
    }

    @Test
    void rulesMdIsItsHeaderAndTheRuleFiles() throws IOException {
        String rules = read("RULES.md");
        int end = 0;
        for (int i = 0; i < HEADER_LINES; i++) {
            end = rules.indexOf('\n', end) + 1;
            assertTrue(end > 0, "RULES.md is shorter than its header (tests run in the module's directory: " + MODULE + ")");
        }
        String header = rules.substring(0, end);
        assertTrue(header.contains("(`cat rules/codecs.md rules/stores-and-metadata.md`); kit version "
                + ConformanceKit.RULES_VERSION + ".\n"), "RULES.md's header should name kit version "
                + ConformanceKit.RULES_VERSION + " (ConformanceKit.RULES_VERSION): " + header);
        assertEquals(header + read("rules/codecs.md") + read("rules/stores-and-metadata.md"), rules,
                "RULES.md is out of date: rebuild it from its header and"
                        + " 'cat rules/codecs.md rules/stores-and-metadata.md'");
    }

    @Test
    void everyRuleOfEveryContractHasARow() throws IOException {
        String rules = read("RULES.md");
        Pattern name = Pattern.compile("(?:required|optional)_([A-Z]+[0-9]+)_.*");
        int checked = 0;
        for (Class<?> contract : List.of(BytesToBytesCodecContract.class, ArrayToBytesCodecContract.class,
                ArrayToArrayCodecContract.class, StoreContract.class, DataTypeContract.class, ChunkGridContract.class,
                ChunkKeyEncodingContract.class, StorageTransformerContract.class, MetadataFormatContract.class)) {
            for (Method m : contract.getDeclaredMethods()) {
                Matcher r = name.matcher(m.getName());
                if (r.matches()) {
                    checked++;
                    assertTrue(rules.contains("\n| " + r.group(1) + " |"), contract.getSimpleName() + "." + m.getName()
                            + " checks rule " + r.group(1) + ", which has no row in rules/*.md");
                }
            }
        }
        assertTrue(checked > 80, "found only " + checked + " rule methods");
    }
}
