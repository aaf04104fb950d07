package dev.zarrj.conformance.selftest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The kit proves itself (STYLE.md rule 10, the RS TCK's self-tests): each deliberately broken
 * fixture is run through its contract with the JUnit Platform test kit, and the rule it breaks
 * must fail with a message that starts with that rule's id. A rule no fixture can fail would test
 * nothing. The contracts pass correct implementations in the {@code *ConformanceTest} classes.
 */
class KitSelfTest {
    static Stream<Arguments> fixtures() {
        return Stream.of(
                // stores
                Arguments.of(BrokenStores.AbsentKeyThrows.class, "S01"),
                Arguments.of(BrokenStores.GetDropsLastByte.class, "S02"),
                Arguments.of(BrokenStores.AllocatedBufferLimitNotSet.class, "S23"),
                Arguments.of(BrokenStores.OverwriteKeepsTail.class, "S03"),
                Arguments.of(BrokenStores.BoundedRangeEndIsLength.class, "S04"),
                Arguments.of(BrokenStores.FromRangeOffByOne.class, "S05"),
                Arguments.of(BrokenStores.SuffixRangeOffByOne.class, "S06"),
                Arguments.of(BrokenStores.OutOfRangeIsClamped.class, "S07"),
                Arguments.of(BrokenStores.OutOfRangeIndexException.class, "S07"),
                Arguments.of(BrokenStores.PartialValuesInKeyOrder.class, "S08"),
                Arguments.of(BrokenStores.EmptyValueIsAbsent.class, "S09"),
                Arguments.of(BrokenStores.EraseAbsentThrows.class, "S10"),
                Arguments.of(BrokenStores.EraseValuesStopsAtAbsentKey.class, "S11"),
                Arguments.of(BrokenStores.ErasePrefixIgnoresSlash.class, "S12"),
                Arguments.of(BrokenStores.ListUnsorted.class, "S13"),
                Arguments.of(BrokenStores.ListDirReturnsNestedKeys.class, "S14"),
                Arguments.of(BrokenStores.CaseInsensitiveKeys.class, "S15"),
                Arguments.of(BrokenStores.PrefixNotChecked.class, "S16"),
                Arguments.of(BrokenStores.BlankDescription.class, "S17"),
                Arguments.of(BrokenStores.ReturnsInternalBuffer.class, "S18"),
                Arguments.of(BrokenStores.TornWrites.class, "S19"),
                Arguments.of(BrokenStores.ReadOnlyAcceptsWrites.class, "S20"),
                Arguments.of(BrokenStores.UndeclaredPartialWrites.class, "S21"),
                Arguments.of(BrokenStores.PartialWritesAtOffsetZero.class, "S22"),
                Arguments.of(BrokenStores.EmptyValuesAreLeftovers.class, "S24"),
                Arguments.of(BrokenStores.RemovesWritesInProgress.class, "S24"),
                Arguments.of(BrokenStores.AsyncRangeFailureThrown.class, "S25"),
                Arguments.of(BrokenStores.NegativeIoConcurrency.class, "S26"),
                Arguments.of(BrokenStores.SetIfMatchIgnoresVersion.class, "S27"),
                Arguments.of(BrokenStores.VersionUnchangedByWrites.class, "S27"),
                Arguments.of(BrokenStores.ListedSizesSkipEmptyValues.class, "S28"),
                Arguments.of(BrokenStores.RangeReaderClaimsVersionsItLacks.class, "S29"),
                Arguments.of(BrokenStores.NegativeWriteConcurrency.class, "S30"),
                Arguments.of(BrokenStores.AsyncWriteReadsBufferLate.class, "S30"),
                Arguments.of(BrokenStores.RangeReaderReturnsWholeBuffer.class, "S31"),
                Arguments.of(BrokenStores.LentValueLosesLastByte.class, "S32"),
                // data types
                Arguments.of(BrokenMetadata.NanPayloadLost.class, "DT01"),
                Arguments.of(BrokenMetadata.IntegerFractionTruncated.class, "DT02"),
                Arguments.of(BrokenMetadata.ComplexUnitIsThePair.class, "DT03"),
                Arguments.of(BrokenMetadata.EqualityByIdentity.class, "DT04"),
                Arguments.of(BrokenMetadata.HexThroughFloat.class, "DT05"),
                Arguments.of(BrokenMetadata.DataTypeUnknownFieldAccepted.class, "DT06"),
                Arguments.of(BrokenMetadata.NumericSetTruncates.class, "DT07"),
                Arguments.of(BrokenMetadata.StringFillValueLatin1.class, "DT05"),
                Arguments.of(BrokenMetadata.StringLoneSurrogateAccepted.class, "DT02"),
                Arguments.of(BrokenMetadata.BytesIntegersWrap.class, "DT02"),
                Arguments.of(BrokenMetadata.VariableLengthDefaultNotEmpty.class, "DT03"),
                Arguments.of(BrokenMetadata.VariableLengthNamesNoCodec.class, "DT08"),
                Arguments.of(BrokenMetadata.CodecEntryWithoutName.class, "DT08"),
                // chunk grids
                Arguments.of(BrokenMetadata.ChunkIndexOffByOne.class, "G01"),
                Arguments.of(BrokenMetadata.GapBetweenChunks.class, "G02"),
                Arguments.of(BrokenMetadata.GridShapeRoundsDown.class, "G03"),
                Arguments.of(BrokenMetadata.ZeroLengthHasAChunk.class, "G04"),
                Arguments.of(BrokenMetadata.AnyRankAccepted.class, "G05"),
                Arguments.of(BrokenMetadata.DimensionsReversed.class, "G06"),
                Arguments.of(BrokenMetadata.GridEqualityByIdentity.class, "G07"),
                Arguments.of(BrokenMetadata.GridUnknownFieldAccepted.class, "G08"),
                // chunk key encodings
                Arguments.of(BrokenMetadata.EmptyKeyFor0d.class, "K01"),
                Arguments.of(BrokenMetadata.KeysCollide.class, "K02"),
                Arguments.of(BrokenMetadata.DecodeReversed.class, "K03"),
                Arguments.of(BrokenMetadata.LenientDecode.class, "K04"),
                Arguments.of(BrokenMetadata.WrongDefaultSeparator.class, "K05"),
                Arguments.of(BrokenMetadata.SeparatorNotWritten.class, "K06"),
                Arguments.of(BrokenMetadata.EncodingUnknownFieldAccepted.class, "K07"),
                // storage transformers (ST02 is the store contract: its S rules fail by their own ids)
                Arguments.of(BrokenMetadata.TransformerDropsLastByte.class, "ST01"),
                Arguments.of(BrokenMetadata.TransformerDropsLastByte.class, "S02"),
                Arguments.of(BrokenMetadata.TransformerEqualityByIdentity.class, "ST03"),
                Arguments.of(BrokenMetadata.TransformerUnknownFieldAccepted.class, "ST04"),
                // metadata formats (each fails its rule and no other: checked below)
                Arguments.of(BrokenFormats.AttributesLost.class, "MF01"),
                Arguments.of(BrokenFormats.RefusesEveryArray.class, "MF01"),
                Arguments.of(BrokenFormats.RevisionCounter.class, "MF02"),
                Arguments.of(BrokenFormats.NothingIsAnImplicitGroup.class, "MF03"),
                Arguments.of(BrokenFormats.GarbageThrowsIllegalState.class, "MF04"),
                Arguments.of(BrokenFormats.GarbageMessageWithoutKey.class, "MF04"),
                Arguments.of(BrokenFormats.DocumentNameTwice.class, "MF05"),
                Arguments.of(BrokenFormats.ClaimsZarrFormat3.class, "MF06"),
                Arguments.of(BrokenFormats.IntegerFillValueAsFloat.class, "MF07"),
                Arguments.of(BrokenFormats.OriginOutsideDocument.class, "MF07"),
                Arguments.of(BrokenFormats.OriginNamesDocumentNotKey.class, "MF07"));
    }

    @ParameterizedTest(name = "{0} fails {1}")
    @MethodSource("fixtures")
    void brokenFixtureFailsTheRuleItBreaks(Class<?> fixture, String ruleId) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute();
        List<Event> failed = results.testEvents().failed().list();
        List<String> messages = failed.stream().map(KitSelfTest::message).collect(Collectors.toList());
        assertTrue(results.testEvents().started().count() > 0, fixture.getSimpleName() + " ran no tests");
        System.out.println(fixture.getSimpleName() + " fails " + messages.stream().map(m -> m.split(" ", 2)[0])
                .distinct().sorted().collect(Collectors.joining(", ")));
        if (messages.stream().noneMatch(m -> m.startsWith(ruleId + " violated by "))) {
            fail(fixture.getSimpleName() + " should fail rule " + ruleId + " with a message naming it; the failures were: "
                    + (messages.isEmpty() ? "none" : String.join("\n  ", messages)));
        }
        if (ruleId.startsWith("MF")) {
            List<String> others = messages.stream().filter(m -> !m.startsWith(ruleId + " violated by ")).toList();
            assertTrue(others.isEmpty(), () -> fixture.getSimpleName() + " should fail only rule " + ruleId
                    + ", but also: " + String.join("\n  ", others));
        }
        assertFalse(results.containerEvents().failed().count() > 0,
                () -> fixture.getSimpleName() + ": a container failed: " + results.containerEvents().failed().list());
    }

    private static String message(Event e) {
        Optional<Throwable> t = e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable);
        return t.map(x -> String.valueOf(x.getMessage())).orElse("(no throwable) " + e);
    }
}
