package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.internal.format.FormatSamples;
import dev.zarrj.conformance.internal.format.V3Documents;
import dev.zarrj.conformance.internal.rules.Rule;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

/**
 * The contract of a {@link MetadataFormat}: what it writes for a Zarr v3 document reads back as
 * that document, rewriting what it read changes nothing, no documents are no node, malformed
 * documents are an {@link InvalidMetadataException} naming their key, and what it reads is a
 * document core accepts.
 *
 * <p>A format's own test extends this class and hands it the format:
 *
 * <pre>{@code
 * class V2FormatConformanceTest extends MetadataFormatContract {
 *     @Override protected MetadataFormat format() { return new V2Format(); }
 * }
 * }</pre>
 *
 * <p>The kit writes and reads its own sample documents ({@link #samples()}: groups, arrays of the
 * core data types in both byte orders, the {@code v2} chunk key encoding with both separators,
 * and a few a format may not be able to express). A format refuses a sample it cannot express with
 * {@link UnsupportedFormatException}; that sample is then not applicable (printed, no test), but a
 * format must accept some array sample. Every rule after the round trip checks only the samples
 * that round trip, so that one defect fails one rule. Documents are read and written with the key
 * prefix {@value #PREFIX}.
 *
 * <p>Every rule is one test named {@code required_MF<NN>_...}; a failure message starts with the
 * rule id. Rules are listed in {@code rules/stores-and-metadata.md}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class MetadataFormatContract {
    /** The key prefix of the node whose documents the rules write and read. */
    public static final String PREFIX = "kit/node/";

    private static final String SPEC = " (spec: zarrj MetadataFormat; core.rst 'Metadata')";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The format under test. */
    protected abstract MetadataFormat format();

    /**
     * The Zarr v3 documents to write and read back, by name: by default the kit's samples (with a
     * group holding inline {@code consolidated_metadata} when the format has a
     * {@linkplain MetadataFormat#consolidatedDocumentName() consolidated document}). Each must be
     * valid for core. Override to add a format's own cases.
     */
    protected Map<String, ObjectNode> samples() {
        return FormatSamples.all(format().consolidatedDocumentName().isPresent());
    }

    /** The instance whose registry checks translated documents (MF07); {@link Zarr#defaults()} by default. */
    protected Zarr zarr() {
        return Zarr.defaults();
    }

    private String subject() {
        MetadataFormat f = format();
        return "metadata format " + f.name() + " (" + f.getClass().getName() + ")";
    }

    // ---- the round trip every rule starts from ----

    /** One sample written and read back: refused, failed (with why), or round tripped. */
    private static final class Trip {
        final String sample;
        final ObjectNode document;
        String refusal;
        String problem;
        Throwable cause;
        Map<String, JsonNode> written;
        TranslatedNode translated;

        Trip(String sample, ObjectNode document) {
            this.sample = sample;
            this.document = document;
        }

        boolean array() {
            return "array".equals(document.path("node_type").asText());
        }

        boolean roundTrips() {
            return refusal == null && problem == null;
        }

        Trip fail(String why, Throwable t) {
            problem = why;
            cause = t;
            return this;
        }
    }

    private List<Trip> trips() {
        List<Trip> out = new ArrayList<>();
        for (Map.Entry<String, ObjectNode> s : samples().entrySet()) {
            out.add(trip(new Trip(s.getKey(), s.getValue())));
        }
        return out;
    }

    private Trip trip(Trip t) {
        MetadataFormat f = format();
        ObjectNode input = t.document.deepCopy();
        Map<String, JsonNode> written;
        try {
            written = f.write(input, StoredDocuments.none(PREFIX));
        } catch (UnsupportedFormatException e) {
            t.refusal = e.getMessage();
            return t;
        } catch (RuntimeException e) {
            return t.fail("write threw " + e, e);
        }
        String changed = V3Documents.exactDifference(t.document, input);
        if (changed != null) {
            return t.fail("write changed the document it was given, " + changed, null);
        }
        String bad = checkWritten(f, written);
        if (bad != null) {
            return t.fail(bad, null);
        }
        t.written = written;
        Optional<TranslatedNode> read;
        try {
            read = f.read(new StoredDocuments(PREFIX, written));
        } catch (RuntimeException e) {
            return t.fail("read of what write returned (" + abbreviate(written) + ") threw " + e, e);
        }
        if (read == null || read.isEmpty()) {
            return t.fail("read of what write returned (" + abbreviate(written) + ") is " + (read == null ? "null"
                    : "empty: no node"), null);
        }
        t.translated = read.get();
        String d = V3Documents.difference(t.document, t.translated.document());
        if (d != null) {
            return t.fail("written as " + abbreviate(written) + " it reads back as another document, " + d, null);
        }
        return t;
    }

    /** What is wrong with the documents {@code write} returned, or null. */
    private static String checkWritten(MetadataFormat f, Map<String, JsonNode> written) {
        if (written == null) {
            return "write returned null";
        }
        Set<String> allowed = new HashSet<>(f.documentNames());
        f.consolidatedDocumentName().ifPresent(allowed::add);
        boolean marks = false;
        for (Map.Entry<String, JsonNode> e : written.entrySet()) {
            if (e.getKey() == null || !allowed.contains(e.getKey())) {
                return "write returned a document named '" + e.getKey() + "', which is not among documentNames() "
                        + f.documentNames() + " nor the consolidated document";
            }
            if (e.getValue() == null) {
                return "write returned null for the document '" + e.getKey() + "'";
            }
            marks |= f.documentNames().contains(e.getKey());
        }
        return marks ? null : "write returned " + written.keySet() + ", none of documentNames() " + f.documentNames()
                + ": the node would not exist";
    }

    private static String abbreviate(Map<String, JsonNode> docs) {
        return V3Documents.abbreviate(JSON.valueToTree(docs));
    }

    /**
     * One test per sample that round trips (others have failed MF01 or were refused); when the
     * samples cannot even be written, one test of {@code id} that fails with the reason.
     */
    private Stream<DynamicTest> eachRoundTrip(String id, String statement, TripBody body) {
        List<Trip> trips;
        try {
            trips = trips();
        } catch (RuntimeException e) {
            return Stream.of(DynamicTest.dynamicTest(id + " " + statement, () -> Rule.check(id, statement,
                    this::subject, () -> {
                        throw e;
                    })));
        }
        return trips.stream().filter(Trip::roundTrips).map(t -> DynamicTest.dynamicTest(id + " " + t.sample + ": "
                + statement, () -> Rule.check(id, statement, () -> subject() + ", sample '" + t.sample + "'",
                () -> body.run(t))));
    }

    @FunctionalInterface
    private interface TripBody {
        void run(Trip t) throws Throwable;
    }

    // ---- rules ----

    /**
     * Every sample the format accepts, written for a new node, reads back as the same Zarr v3
     * document (forms core.rst lets a writer choose count as the same: an absent
     * {@code attributes} and {@code {}}, an extension as its name or {@code {"name": ...}}, numbers
     * of equal value). {@code write} leaves the document it is given unchanged and returns
     * documents named in {@link MetadataFormat#documentNames()} (or the consolidated document),
     * at least one of the former; {@code read} finds the node in them. A sample refused with
     * {@link UnsupportedFormatException} is not applicable; some array sample must be accepted.
     *
     * <p>Spec: zarrj {@link MetadataFormat} (read and write translate to and from the
     * <em>equivalent</em> v3 document); core.rst "Metadata".
     *
     * <p>If this fails, check: a member the translation drops (attributes, a separator, the byte
     * order); a fill value read through {@code double} (the largest {@code uint64}, {@code -0.0});
     * a refusal thrown as another exception than {@code UnsupportedFormatException}.
     */
    @TestFactory
    @DisplayName("MF01 what write stores reads back as the same v3 document" + SPEC)
    public Stream<DynamicTest> required_MF01_writeThenReadGivesTheDocument() {
        String statement = "what write stores reads back as the same v3 document";
        List<Trip> trips;
        try {
            trips = trips();
        } catch (RuntimeException e) {
            return Stream.of(DynamicTest.dynamicTest("MF01 " + statement, () -> Rule.check("MF01", statement,
                    this::subject, () -> {
                        throw e;
                    })));
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (Trip t : trips) {
            if (t.refusal != null) {
                Rule.notApplicable("required_MF01", subject() + ", sample '" + t.sample + "'", "refused: " + t.refusal);
                continue;
            }
            tests.add(DynamicTest.dynamicTest("MF01 " + t.sample + ": " + statement, () -> Rule.check("MF01", statement,
                    () -> subject() + ", sample '" + t.sample + "'", () -> {
                        if (t.problem != null) {
                            throw new AssertionFailedError(t.problem, t.cause);
                        }
                    })));
        }
        tests.add(DynamicTest.dynamicTest("MF01 some array sample is accepted", () -> Rule.check("MF01",
                "some array sample is accepted", this::subject, () -> {
                    if (trips.stream().noneMatch(t -> t.array() && t.refusal == null)) {
                        throw Rule.fail("every array sample was refused; the first: " + trips.stream().filter(Trip::array)
                                .findFirst().map(t -> "'" + t.sample + "': " + t.refusal).orElse("none"));
                    }
                })));
        return tests.stream();
    }

    /**
     * Writing again what was read back, with the documents read as {@code previous}, gives the same
     * documents: rewriting an unchanged node (core does, to change attributes or the shape) changes
     * nothing else.
     *
     * <p>Spec: zarrj {@link MetadataFormat#write} ({@code previous}: the documents as last read).
     *
     * <p>If this fails, check: a counter or time stamp written each time; a member of
     * {@code previous} kept twice; members written in a form {@code read} turns into another.
     */
    @TestFactory
    @DisplayName("MF02 write(read(write(doc))) stores the same documents again" + SPEC)
    public Stream<DynamicTest> required_MF02_rewritingIsStable() {
        return eachRoundTrip("MF02", "write(read(write(doc))) stores the same documents again", t -> {
            Map<String, JsonNode> again = format().write(t.translated.document().deepCopy(),
                    new StoredDocuments(PREFIX, t.written));
            if (again == null) {
                throw Rule.fail("the second write returned null");
            }
            if (!again.keySet().equals(t.written.keySet())) {
                throw Rule.fail("the first write stored " + new TreeSet<>(t.written.keySet()) + ", the second "
                        + new TreeSet<>(again.keySet()));
            }
            for (String name : new TreeSet<>(t.written.keySet())) {
                String d = V3Documents.exactDifference(t.written.get(name), again.get(name));
                if (d != null) {
                    throw Rule.fail("the document '" + name + "' written again differs " + d + " (first "
                            + V3Documents.abbreviate(t.written.get(name)) + ")");
                }
            }
        });
    }

    /**
     * Reading no documents (a node that does not exist, at the root or below) gives an empty
     * result, not null, not a node, not an exception.
     *
     * <p>Spec: zarrj {@link MetadataFormat#read} ("empty when these documents hold no node").
     *
     * <p>If this fails, check: an implicit group made up where nothing is stored.
     */
    @Test
    @DisplayName("MF03 read of no documents is empty" + SPEC)
    public void required_MF03_noDocumentsIsNoNode() {
        Rule.check("MF03", "read of no documents is empty", this::subject, () -> {
            for (String prefix : List.of("", PREFIX)) {
                Optional<TranslatedNode> r = format().read(StoredDocuments.none(prefix));
                if (r == null) {
                    throw Rule.fail("read(StoredDocuments.none(\"" + prefix + "\")) returned null");
                }
                if (r.isPresent()) {
                    throw Rule.fail("read(StoredDocuments.none(\"" + prefix + "\")) found a node: "
                            + V3Documents.abbreviate(r.get().document()));
                }
            }
        });
    }

    /**
     * Malformed documents are an {@link InvalidMetadataException} whose message names the key of a
     * document read ({@link StoredDocuments#key}), never another exception. For each sample that
     * round trips, each document written is replaced in turn by a JSON array, a string, a number
     * and {@code null}, and the node's first document (the first of {@code documentNames()}
     * written) by the object with every member's value of the wrong type (an object becomes a
     * string, anything else an object): each must be refused. Each member of each document
     * alone given a value of the wrong type may also read normally (attributes may hold
     * anything), and so may a consolidated document replaced by garbage (a cache core may read
     * past), but an exception must be an {@code InvalidMetadataException} naming a key.
     *
     * <p>Spec: zarrj {@link MetadataFormat#read} (malformed: {@code InvalidMetadataException}
     * naming the document's key and the field); STYLE.md (errors are {@code ZarrException}s naming
     * the key).
     *
     * <p>If this fails, check: {@code JsonNode.get(...)} on a non-object
     * ({@code NullPointerException}); casts to {@code ObjectNode} ({@code ClassCastException});
     * {@code asLong()} reading text as 0; the message built without
     * {@code InvalidMetadataException.inDocument(node.key(name))}.
     */
    @TestFactory
    @DisplayName("MF04 malformed documents are an InvalidMetadataException naming their key" + SPEC)
    public Stream<DynamicTest> required_MF04_garbageIsInvalidMetadata() {
        return eachRoundTrip("MF04", "malformed documents are an InvalidMetadataException naming their key", t -> {
            MetadataFormat f = format();
            Set<String> consolidated = new HashSet<>();
            f.consolidatedDocumentName().ifPresent(consolidated::add);
            ArrayNode array = JsonNodeFactory.instance.arrayNode().add(1).add("two");
            for (String name : new TreeSet<>(t.written.keySet())) {
                boolean strict = !consolidated.contains(name);
                for (JsonNode garbage : List.of(array, TextNode.valueOf("kit garbage"),
                        JsonNodeFactory.instance.numberNode(42), NullNode.getInstance())) {
                    expectInvalid(f, replaced(t.written, name, garbage), "'" + name + "' replaced by " + garbage, strict);
                }
                JsonNode doc = t.written.get(name);
                if (doc.isObject()) {
                    for (Iterator<String> it = doc.fieldNames(); it.hasNext(); ) {
                        String member = it.next();
                        ObjectNode one = ((ObjectNode) doc).deepCopy();
                        one.set(member, wrong(doc.get(member)));
                        expectInvalid(f, replaced(t.written, name, one), "'" + name + "' with " + member + ": "
                                + one.get(member), false);
                    }
                }
            }
            Optional<String> first = f.documentNames().stream().filter(t.written::containsKey).findFirst();
            if (first.isPresent() && t.written.get(first.get()).isObject() && !t.written.get(first.get()).isEmpty()) {
                ObjectNode all = ((ObjectNode) t.written.get(first.get())).deepCopy();
                for (Iterator<Map.Entry<String, JsonNode>> it = all.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    e.setValue(wrong(e.getValue()));
                }
                expectInvalid(f, replaced(t.written, first.get(), all), "'" + first.get()
                        + "' with every member of the wrong type: " + V3Documents.abbreviate(all), true);
            }
        });
    }

    private static boolean validPointer(String p) {
        try {
            JsonPointer.compile(p);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean pointsInto(JsonNode doc, String p) {
        return validPointer(p) && !doc.at(JsonPointer.compile(p)).isMissingNode();
    }

    private static JsonNode wrong(JsonNode value) {
        return value.isObject() ? TextNode.valueOf("kit garbage")
                : JsonNodeFactory.instance.objectNode().set("kit_garbage", JsonNodeFactory.instance.arrayNode());
    }

    private static StoredDocuments replaced(Map<String, JsonNode> written, String name, JsonNode value) {
        Map<String, JsonNode> docs = new LinkedHashMap<>(written);
        docs.put(name, value);
        return new StoredDocuments(PREFIX, docs);
    }

    /**
     * Reads {@code docs}: an {@link InvalidMetadataException} naming one of their keys passes, a
     * normal return passes unless {@code mustRefuse}, anything else fails.
     */
    private static void expectInvalid(MetadataFormat f, StoredDocuments docs, String what, boolean mustRefuse) {
        Optional<TranslatedNode> r;
        try {
            r = f.read(docs);
        } catch (InvalidMetadataException e) {
            String m = String.valueOf(e.getMessage());
            if (docs.documents().keySet().stream().noneMatch(n -> m.contains(docs.key(n)))) {
                throw new AssertionFailedError("with " + what + ", the InvalidMetadataException's message names none of"
                        + " the keys " + docs.documents().keySet().stream().map(docs::key).sorted().toList() + ": " + m, e);
            }
            return;
        } catch (RuntimeException e) {
            throw new AssertionFailedError("with " + what + ", read threw " + e + " instead of an InvalidMetadataException"
                    + " naming the key", e);
        }
        if (r == null) {
            throw Rule.fail("with " + what + ", read returned null");
        }
        if (mustRefuse) {
            throw Rule.fail("with " + what + ", read returned " + r.map(n -> V3Documents.abbreviate(n.document()))
                    .orElse("empty (no node)") + " instead of throwing an InvalidMetadataException naming the key");
        }
    }

    /**
     * {@link MetadataFormat#documentNames()} is not empty, holds no null, blank or repeated name,
     * and each name is a relative key (the prefix {@value #PREFIX} plus the name is a valid
     * {@link StoreKey}); the {@linkplain MetadataFormat#consolidatedDocumentName() consolidated
     * document}, when there is one, is such a name too and not among them (its presence alone does
     * not make a node).
     *
     * <p>Spec: zarrj {@link MetadataFormat#documentNames()}; core.rst keys.
     *
     * <p>If this fails, check: a leading {@code /}; a name listed twice.
     */
    @Test
    @DisplayName("MF05 documentNames() are distinct relative keys" + SPEC)
    public void required_MF05_documentNamesAreDistinctKeys() {
        Rule.check("MF05", "documentNames() are distinct relative keys", this::subject, () -> {
            MetadataFormat f = format();
            List<String> names = f.documentNames();
            if (names == null || names.isEmpty()) {
                throw Rule.fail("documentNames() is " + names);
            }
            Set<String> seen = new HashSet<>();
            for (String n : names) {
                checkName(n, "documentNames()");
                if (!seen.add(n)) {
                    throw Rule.fail("documentNames() " + names + " lists '" + n + "' twice");
                }
            }
            Optional<String> c = f.consolidatedDocumentName();
            if (c == null) {
                throw Rule.fail("consolidatedDocumentName() returned null instead of an Optional");
            }
            if (c.isPresent()) {
                checkName(c.get(), "consolidatedDocumentName()");
                if (seen.contains(c.get())) {
                    throw Rule.fail("the consolidated document '" + c.get() + "' is also among documentNames() " + names);
                }
            }
        });
    }

    private static void checkName(String n, String where) {
        if (n == null || n.isBlank()) {
            throw Rule.fail(where + " holds the name " + (n == null ? "null" : "'" + n + "'"));
        }
        try {
            StoreKey.of(PREFIX + n);
            StoreKey.of(n);
        } catch (InvalidKeyException e) {
            throw Rule.fail(where + " holds '" + n + "', which is not a relative key: " + e.getMessage());
        }
    }

    /**
     * {@link MetadataFormat#zarrFormat()} is a positive number other than 3 (core reads and writes
     * Zarr v3 itself), and {@code name()} is not blank.
     *
     * <p>Spec: zarrj {@link MetadataFormat#zarrFormat()}; core.rst {@code zarr_format}.
     */
    @Test
    @DisplayName("MF06 zarrFormat() is not 3" + SPEC)
    public void required_MF06_zarrFormatIsNotThree() {
        Rule.check("MF06", "zarrFormat() is a positive number other than 3", this::subject, () -> {
            MetadataFormat f = format();
            if (f.zarrFormat() == 3 || f.zarrFormat() < 1) {
                throw Rule.fail("zarrFormat() is " + f.zarrFormat());
            }
            if (f.name() == null || f.name().isBlank()) {
                throw Rule.fail("name() is " + (f.name() == null ? "null" : "blank"));
            }
        });
    }

    /**
     * The document {@code read} translates is one core accepts: an array document creates an
     * array ({@code Zarr.createArray}) and a group document opens as a group, in a memory store,
     * both with {@link #zarr()} (whose registry resolves the extensions named). Every key of
     * {@link TranslatedNode#origins()} is a JSON pointer to a member of that document, mapped to
     * an origin whose key is one of the documents read and whose pointer is a JSON pointer.
     *
     * <p>Spec: zarrj {@link TranslatedNode}; core.rst "Metadata" (what core parses).
     *
     * <p>If this fails, check: an integer fill value read as {@code 0.0} (core rejects a fraction
     * for integers); origins recorded for members the document does not have, or naming the
     * document's name instead of its key ({@link StoredDocuments#key}).
     */
    @TestFactory
    @DisplayName("MF07 the translated document passes core's parsing" + SPEC)
    public Stream<DynamicTest> required_MF07_translatedDocumentIsValidForCore() {
        return eachRoundTrip("MF07", "the translated document passes core's parsing", t -> {
            ObjectNode doc = t.translated.document().deepCopy();
            Zarr zarr = zarr();
            // core's own memory store, whatever the registry under test holds
            try (Store store = Zarr.defaults().openStore("memory:")) {
                if (t.array()) {
                    zarr.createArray(store, "/a", doc, true);
                } else {
                    store.set(StoreKey.of("a/zarr.json"), ByteBuffer.wrap(JSON.writeValueAsBytes(doc)));
                    zarr.openGroup(store, "/a");
                }
            } catch (ZarrException e) {
                throw new AssertionFailedError("core rejects the translated document " + V3Documents.abbreviate(doc)
                        + ": " + e.getMessage(), e);
            }
            Set<String> keys = new TreeSet<>();
            t.written.keySet().forEach(n -> keys.add(PREFIX + n));
            for (Map.Entry<String, TranslatedNode.Origin> o : t.translated.origins().entrySet()) {
                String p = o.getKey();
                if (!pointsInto(doc, p)) {
                    throw Rule.fail("origins() maps '" + p + "', which is no member of the document "
                            + V3Documents.abbreviate(doc));
                }
                TranslatedNode.Origin origin = o.getValue();
                if (origin == null || !keys.contains(origin.key())) {
                    throw Rule.fail("origins() maps '" + p + "' to " + origin + ", whose key is none of the documents"
                            + " read " + keys);
                }
                if (origin.pointer() == null || !validPointer(origin.pointer())) {
                    throw Rule.fail("origins() maps '" + p + "' to " + origin + ", whose pointer is not a JSON pointer");
                }
            }
        });
    }
}
