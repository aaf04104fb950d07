package dev.zarrj.conformance.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The codec contracts prove themselves (STYLE.md rule 10): each deliberately broken codec of
 * {@link BrokenCodecs} fails exactly the rule it breaks, with a message that starts with the rule
 * id, and the correct originals fail nothing and skip nothing.
 */
class CodecContractSelfTest {
    static Stream<Arguments> brokenCodecs() {
        return Stream.of(
                Arguments.of(BrokenCodecs.XorDropsLastByte.class, "required_BB01"),
                Arguments.of(BrokenCodecs.XorIgnoresBufferPosition.class, "required_BB02"),
                Arguments.of(BrokenCodecs.XorLiesAboutSize.class, "required_BB03"),
                Arguments.of(BrokenCodecs.XorLosesConfigField.class, "required_BB04"),
                Arguments.of(BrokenCodecs.XorNondeterministic.class, "required_BB05"),
                Arguments.of(BrokenCodecs.XorIgnoresDecodedSize.class, "required_BB06"),
                Arguments.of(BrokenCodecs.XorThrowsOnShortInput.class, "required_BB07"),
                Arguments.of(BrokenCodecs.XorThrowsOnBadVersion.class, "required_BB08"),
                Arguments.of(BrokenCodecs.XorThreadUnsafe.class, "required_BB09"),
                Arguments.of(BrokenCodecs.Crc32cBigEndian.class, "required_BB10"),
                Arguments.of(BrokenCodecs.XorBrokenPartialDecode.class, "optional_BB11"),
                Arguments.of(BrokenCodecs.XorClaimsCorruptionDetection.class, "optional_BB12"),
                Arguments.of(BrokenCodecs.XorDecodeIntoIgnoresPosition.class, "required_BB13"),
                Arguments.of(BrokenCodecs.XorEncodeKeepsLentLimit.class, "required_BB14"),
                Arguments.of(BrokenCodecs.XorDecodedSizeOffByOne.class, "required_BB15"),
                Arguments.of(BrokenCodecs.XorPartialDecodeThrowsOnAbsent.class, "optional_BB16"),
                Arguments.of(BrokenCodecs.XorPrefixFromSecondByte.class, "optional_BB17"),
                Arguments.of(BrokenCodecs.BytesRefusesWithWrongException.class, "required_AB01"),
                Arguments.of(BrokenCodecs.BytesLossyWithoutFixedPoint.class, "required_AB01"),
                Arguments.of(BrokenCodecs.BytesAcceptsLongerInput.class, "required_AB06"),
                Arguments.of(BrokenCodecs.BytesIgnoresEndianness.class, "required_AB10"),
                Arguments.of(BrokenCodecs.BytesBrokenPartialDecode.class, "optional_AB11"),
                Arguments.of(BrokenCodecs.BytesClaimsCorruptionDetection.class, "optional_AB12"),
                Arguments.of(BrokenCodecs.BytesDecodeIntoIgnoresOffset.class, "required_AB13"),
                Arguments.of(BrokenCodecs.BytesEncodeRegionIgnoresOffset.class, "optional_AB14"),
                Arguments.of(BrokenCodecs.BytesEncodeKeepsLentLimit.class, "required_AB15"),
                Arguments.of(BrokenCodecs.BytesGivesBackItsResult.class, "required_AB15"),
                Arguments.of(BrokenCodecs.BytesClaimsInMemoryWrongly.class, "optional_AB16"),
                Arguments.of(BrokenCodecs.BytesPartialDecodeThrowsOnAbsent.class, "optional_AB17"),
                Arguments.of(BrokenCodecs.VlenUtf8Lenient.class, "required_AB18"),
                Arguments.of(BrokenCodecs.BytesInnerChunkShapeNotDividing.class, "optional_AB19"),
                Arguments.of(BrokenCodecs.VlenBytesIgnoresTrailingBytes.class, "required_AB18"),
                Arguments.of(BrokenCodecs.TransposeSpecLies.class, "required_AA02"),
                Arguments.of(BrokenCodecs.TransposeNoShapeCheck.class, "required_AA06"),
                Arguments.of(BrokenCodecs.TransposeInverseOrder.class, "required_AA08"),
                Arguments.of(BrokenCodecs.TransposePartialDecodeUnpermuted.class, "optional_AA09"),
                Arguments.of(BrokenCodecs.TransposePartialDecodeThrowsOnAbsent.class, "optional_AA10"));
    }

    @ParameterizedTest(name = "{0} fails {1} alone")
    @MethodSource("brokenCodecs")
    @DisplayName("a broken codec fails exactly the rule it breaks, naming it")
    void brokenCodecFailsItsRule(Class<?> fixture, String rule) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute();
        List<Event> failed = results.testEvents().failed().list();
        String id = rule.substring(rule.indexOf('_') + 1);
        assertEquals(List.of(rule), failed.stream().map(CodecContractSelfTest::rule).toList(),
                () -> "failures: " + failed.stream().map(CodecContractSelfTest::describe).toList());
        String message = failure(failed.get(0)).getMessage();
        assertTrue(message.startsWith(id + " "), () -> "the message does not start with " + id + ": " + message);
        assertEquals(0, results.testEvents().skipped().count(), "skipped tests");
        assertEquals(0, results.containerEvents().failed().count(), "failed containers");
    }

    static Stream<Class<?>> correctCodecs() {
        return Stream.of(BrokenCodecs.XorCorrect.class, BrokenCodecs.BytesCorrect.class,
                BrokenCodecs.BytesLossyWithFixedPoint.class, BrokenCodecs.TransposeCorrect.class,
                BrokenCodecs.VlenUtf8Correct.class, BrokenCodecs.VlenBytesCorrect.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("correctCodecs")
    @DisplayName("the correct originals of the broken codecs pass every rule, skipping none")
    void correctCodecPasses(Class<?> fixture) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute();
        List<Event> failed = results.allEvents().failed().list();
        assertEquals(List.of(), failed.stream().map(CodecContractSelfTest::describe).toList());
        assertEquals(0, results.testEvents().skipped().count(), "skipped tests");
        assertTrue(results.testEvents().succeeded().count() >= 8, "too few rules ran");
    }

    /** The rule a test checks, from its method (or, for a dynamic test, its factory method): "required_BB01". */
    private static String rule(Event e) {
        String id = e.getTestDescriptor().getUniqueId().toString();
        int at = Math.max(id.lastIndexOf("[method:"), id.lastIndexOf("[test-factory:"));
        String method = id.substring(id.indexOf(':', at) + 1);
        return method.substring(0, method.indexOf('_', method.indexOf('_') + 1));
    }

    private static Throwable failure(Event e) {
        return e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).orElseThrow();
    }

    private static String describe(Event e) {
        return e.getTestDescriptor().getDisplayName() + ": " + e.getPayload(TestExecutionResult.class)
                .flatMap(TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("?");
    }
}
