package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import static dev.zarrj.conformance.internal.store.StoreBytes.array;
import static dev.zarrj.conformance.internal.store.StoreBytes.pattern;
import static dev.zarrj.conformance.internal.store.StoreBytes.range;
import static dev.zarrj.conformance.internal.store.StoreBytes.show;
import static dev.zarrj.conformance.internal.store.StoreBytes.uniform;
import static dev.zarrj.conformance.internal.store.StoreBytes.utf8;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ValueChangedException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.ConditionalWrites.VersionedValue;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.KeyStartValue;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.ReadMemory;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.internal.rules.Rule;
import dev.zarrj.conformance.internal.store.StoreBytes;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

/**
 * The contract of a {@link Store}: every operation of the spec's abstract store interface
 * (core.rst, "Abstract store interface"), as zarrj's {@link Store} expresses it.
 *
 * <p>A store's own test extends this class and says how to get a store; every rule then runs as
 * one JUnit test named {@code required_S<NN>_...} or {@code optional_S<NN>_...}, displayed with
 * its id and the spec section, and failing with a message that starts with the id:
 *
 * <pre>{@code
 * class FileStoreConformanceTest extends StoreContract {
 *     @TempDir Path dir;
 *     private int n;
 *
 *     @Override protected Store newStore() {
 *         return FileStores.open(dir.resolve("s" + n++), false);
 *     }
 * }
 * }</pre>
 *
 * <h2>How the kit gets stores</h2>
 *
 * <ul>
 *   <li>{@link #newStore()} — an empty store; writable when the store can be written. Every rule
 *       that needs content writes it with {@code set}.</li>
 *   <li>{@link #reopen(Store)} — for stores whose writes become durable or visible only when
 *       closed (a zip archive in update mode): close the written store and open what it wrote.
 *       Rules write their content, then read and list through the reopened store. Only
 *       {@code S18} (buffers passed to {@code set}), {@code S19} (concurrency) and {@code S24}
 *       (leftovers, before and after reopening) read the live written store, as a program
 *       reading its own writes does.</li>
 *   <li>{@link #newReadOnlyStore(Map)} — a read-only store holding given content (a zip built
 *       from it). When {@link #newStore()} is not writable, every reading rule gets its content
 *       this way; {@code S20} checks that such a store refuses writes.</li>
 * </ul>
 *
 * <h2>Capabilities</h2>
 *
 * The store's {@link StoreCapabilities} decide which rules apply: writing rules need
 * {@code writable}, listing rules {@code listable}; {@code set_partial_values} is the optional rule
 * {@code S22}, checked when {@code partialWrites} is declared — and when it is not, {@code S21}
 * checks that the store refuses it. Conditional writes ({@link Store#conditionalWrites()}) are
 * the optional rule {@code S27}. Range readers ({@link Store#rangeReader}) that claim to read one
 * version of a value are held to it by {@code S29}. A rule that does not apply runs no test (its
 * {@code @TestFactory} yields nothing) and prints why, so that a build reports no skipped tests.
 *
 * <p>The kit closes every store it gets after each rule. Rules are listed with their spec
 * references in {@code rules/stores-and-metadata.md}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class StoreContract {
    private static final String SPEC = " (spec: core.rst 'Abstract store interface')";

    private final List<Store> opened = new ArrayList<>();
    private String subject = getClass().getSimpleName();

    /**
     * A new, empty store: writable when the store under test can be written. Called once or more
     * per rule; each call must return a store that shares nothing with earlier ones.
     */
    protected abstract Store newStore();

    /**
     * A read-only store holding exactly {@code content} (keys to values), for example an archive
     * built from it; empty (the default) when the store under test cannot be built that way.
     * Needed when {@link #newStore()} is not writable.
     */
    protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
        return Optional.empty();
    }

    /**
     * The store to read what was written to {@code written}: by default {@code written} itself.
     * Override when writes become visible only after closing (zip update mode): close
     * {@code written} and open what it wrote. The kit does not use {@code written} again when a
     * different store is returned.
     */
    protected Store reopen(Store written) {
        return written;
    }

    @AfterEach
    final void closeStores() {
        RuntimeException first = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }

    // ---- getting stores ----

    private Store track(Store s) {
        if (s == null) {
            throw Rule.fail(getClass().getName() + " returned a null store");
        }
        opened.add(s);
        subject = describe(s);
        return s;
    }

    private static String describe(Store s) {
        String d = s.describe();
        return d == null || d.isBlank() ? s.getClass().getName() : d;
    }

    private Store fresh() {
        return track(newStore());
    }

    private Store reopened(Store written) {
        Store r = reopen(written);
        if (r != written) {
            opened.remove(written);
            track(r);
        }
        return r;
    }

    /**
     * A store holding exactly {@code content}: written with {@code set} and read through
     * {@link #reopen}, or built by {@link #newReadOnlyStore} when the store is not writable.
     */
    private Store storeWith(Map<String, byte[]> content) {
        Store s = fresh();
        if (s.capabilities().writable()) {
            for (Map.Entry<String, byte[]> e : new TreeMap<>(content).entrySet()) {
                s.set(StoreKey.of(e.getKey()), ByteBuffer.wrap(e.getValue().clone()));
            }
            return reopened(s);
        }
        Map<String, byte[]> copy = new TreeMap<>();
        content.forEach((k, v) -> copy.put(k, v.clone()));
        Optional<Store> ro = newReadOnlyStore(copy);
        if (ro.isEmpty()) {
            throw Rule.fail(subject + " is not writable and " + getClass().getName()
                    + " does not override newReadOnlyStore(Map), so the kit cannot put the content this rule"
                    + " reads into it; override newReadOnlyStore to build a store from given content");
        }
        return track(ro.get());
    }

    /** A fresh store when it is writable, else empty (and the rule prints why it does not apply). */
    private Optional<Store> writableOrNotApplicable(String levelAndId) {
        Store s = fresh();
        if (s.capabilities().writable()) {
            return Optional.of(s);
        }
        Rule.notApplicable(levelAndId, subject, "not writable");
        return Optional.empty();
    }

    private void check(String id, String statement, Rule.Body body) {
        Rule.check(id, statement, () -> subject, body);
    }

    private Stream<DynamicTest> gated(Optional<Store> store, String id, String statement,
                                      java.util.function.Consumer<Store> body) {
        return store.stream().map(s -> DynamicTest.dynamicTest(id + " " + statement,
                () -> check(id, statement, () -> body.accept(s))));
    }

    // ---- assertions ----

    private static Map<String, byte[]> content(Object... keysAndValues) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            Object v = keysAndValues[i + 1];
            m.put((String) keysAndValues[i], v instanceof String str ? utf8(str) : (byte[]) v);
        }
        return m;
    }

    private static void expectValue(Store s, String key, byte[] expected, String what) {
        Optional<ByteBuffer> got = s.get(StoreKey.of(key));
        if (got == null) {
            throw Rule.fail(what + ": get('" + key + "') returned null instead of an Optional");
        }
        byte[] actual = got.map(StoreBytes::array).orElse(null);
        if (!Arrays.equals(expected, actual)) {
            throw Rule.fail(what + ": get('" + key + "') gave " + show(actual) + ", expected " + show(expected));
        }
    }

    private static void expectRange(Store s, String key, ByteRange r, byte[] expected) {
        Optional<ByteBuffer> got = s.get(StoreKey.of(key), r);
        byte[] actual = got.map(StoreBytes::array).orElse(null);
        if (!Arrays.equals(expected, actual)) {
            throw Rule.fail("get('" + key + "', " + r + ") gave " + show(actual) + ", expected " + show(expected));
        }
    }

    private static void expectAbsent(Store s, String key, String what) {
        StoreKey k = StoreKey.of(key);
        if (s.get(k).isPresent()) {
            throw Rule.fail(what + ": get('" + key + "') found a value where the key is absent");
        }
        if (s.exists(k)) {
            throw Rule.fail(what + ": exists('" + key + "') is true where the key is absent");
        }
        if (s.size(k).isPresent()) {
            throw Rule.fail(what + ": size('" + key + "') is " + s.size(k).getAsLong() + " where the key is absent");
        }
    }

    /**
     * A prefix of stored keys that is not a key itself: absent, or, in a store whose storage holds
     * an entry there (a file system's directory), refused with a {@code StoreException} naming the
     * key; never a value.
     */
    private static void expectAbsentOrRefused(Store s, String key, String what) {
        StoreKey k = StoreKey.of(key);
        List<Supplier<Object>> reads = List.of(
                () -> s.get(k), () -> s.get(k, ByteRange.of(0, 1)), () -> s.get(k, ByteRange.suffix(1)),
                () -> s.size(k), () -> s.exists(k));
        String[] names = {"get", "get [0, 1)", "get suffix 1", "size", "exists"};
        for (int i = 0; i < reads.size(); i++) {
            Object r;
            try {
                r = reads.get(i).get();
            } catch (StoreException e) {
                if (e.getMessage() == null || !e.getMessage().contains(key)) {
                    throw Rule.fail(what + ": " + names[i] + "('" + key + "') threw a StoreException that does not name"
                            + " the key: " + e.getMessage());
                }
                continue;
            }
            if (r.equals(Boolean.TRUE) || r instanceof Optional<?> o && o.isPresent()
                    || r instanceof OptionalLong l && l.isPresent()) {
                throw Rule.fail(what + ": " + names[i] + "('" + key + "') found a value where there is none: " + r);
            }
        }
    }

    private static void expectEquals(Object expected, Object actual, String what) {
        if (!expected.equals(actual)) {
            throw Rule.fail(what + ": expected " + expected + ", found " + actual);
        }
    }

    private static List<String> names(List<StoreKey> keys) {
        return keys.stream().map(StoreKey::value).collect(Collectors.toList());
    }

    private static void expectZarrException(String call, Runnable r) {
        expectThrows(ZarrException.class, "a StoreException (a ZarrException)", call, "returned normally", r);
    }

    private static void expectInvalidKey(String call, Runnable r) {
        expectThrows(InvalidKeyException.class, "an InvalidKeyException", call, "was accepted", r);
    }

    /**
     * Runs {@code call}, which must throw {@code type}; {@code expected} names it in the failure,
     * {@code returned} says what the call did when it threw nothing.
     */
    private static void expectThrows(Class<? extends RuntimeException> type, String expected, String call,
                                     String returned, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            if (type.isInstance(e)) {
                return;
            }
            throw Rule.fail(call + " threw " + e + "; expected " + expected);
        }
        throw Rule.fail(call + " " + returned + "; expected " + expected);
    }

    // ---- readable ----

    /**
     * {@code get} of an absent key is empty, and so are a ranged {@code get}, {@code size}, and
     * {@code exists} ({@code false}) — absence is not an error. A prefix of stored keys
     * ({@code dir} of {@code dir/child}) is no value either: absent, or a {@code StoreException}
     * naming the key where the storage holds an entry there, such as a file system's directory
     * ({@link Store#get(StoreKey)}: an entry that is not a value is not absent).
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code get}.
     *
     * <p>If this fails, check: that a missing file or entry maps to {@code Optional.empty()} rather
     * than an exception; that {@code exists} does not report directories or prefixes as keys.
     */
    @Test
    @DisplayName("S01 get of an absent key is empty" + SPEC)
    public void required_S01_absentKeyReadsAsEmpty() {
        check("S01", "get of an absent key is empty", () -> {
            Store s = storeWith(content("present", "x", "dir/child", "y"));
            expectAbsentOrRefused(s, "dir", "a prefix of a key");
            for (String k : List.of("absent", "presen", "present/x", "Present", "dir/child/grandchild")) {
                expectAbsent(s, k, "absent key");
                if (s.get(StoreKey.of(k), ByteRange.of(0, 1)).isPresent()) {
                    throw Rule.fail("get('" + k + "', [0, 1)) found a value where the key is absent");
                }
                if (s.get(StoreKey.of(k), ByteRange.suffix(1)).isPresent()) {
                    throw Rule.fail("get('" + k + "', suffix 1) found a value where the key is absent");
                }
            }
        });
    }

    /**
     * {@code get} returns exactly the value stored: empty, short and large values, keys at several
     * depths, keys with spaces and non-ASCII characters. The returned buffer holds the value from
     * its position to its limit.
     *
     * <p>Spec: core.rst, "Abstract store interface": a store is a mapping from keys to values; a key
     * is a Unicode string.
     *
     * <p>If this fails, check: truncation on write; buffers returned with a stale position or
     * limit; key encoding of non-ASCII characters (UTF-8 in zip entry names and file names).
     */
    @Test
    @DisplayName("S02 get returns exactly the value that was set" + SPEC)
    public void required_S02_getReturnsTheStoredValue() {
        check("S02", "get returns exactly the value that was set", () -> {
            Map<String, byte[]> c = content(
                    "zarr.json", "{\"zarr_format\": 3}",
                    "empty", new byte[0],
                    "one", new byte[] {42},
                    "a/b/c/d/e/deep", pattern(1000, 1),
                    "large/c/0", pattern(300_000, 2),
                    "with space/and-dash_under.dot", pattern(10, 3),
                    "unicode/\u00e9t\u00e9/\u4e2d\u6587", pattern(10, 4));
            Store s = storeWith(c);
            for (Map.Entry<String, byte[]> e : c.entrySet()) {
                expectValue(s, e.getKey(), e.getValue(), "stored value");
            }
        });
    }

    /**
     * {@code set} on a present key replaces its value, also by a shorter or an empty one, and
     * {@code set} after {@code erase} creates the key again.
     *
     * <p>Spec: core.rst, "Abstract store interface": one (key, value) pair for any given key;
     * {@code set}.
     *
     * <p>If this fails, check: files opened for writing without truncation; zip updates that keep
     * the first entry of a name; caches not invalidated on write.
     */
    @TestFactory
    @DisplayName("S03 set replaces the value of a present key" + SPEC)
    public Stream<DynamicTest> required_S03_setReplacesTheValue() {
        return gated(writableOrNotApplicable("required_S03"), "S03", "set replaces the value of a present key", s -> {
            s.set(StoreKey.of("k/longer-then-shorter"), ByteBuffer.wrap(pattern(5000, 1)));
            s.set(StoreKey.of("k/longer-then-shorter"), ByteBuffer.wrap(pattern(7, 2)));
            s.set(StoreKey.of("k/then-empty"), ByteBuffer.wrap(pattern(50, 3)));
            s.set(StoreKey.of("k/then-empty"), ByteBuffer.allocate(0));
            s.set(StoreKey.of("k/shorter-then-longer"), ByteBuffer.wrap(pattern(3, 4)));
            s.set(StoreKey.of("k/shorter-then-longer"), ByteBuffer.wrap(pattern(4000, 5)));
            s.set(StoreKey.of("k/erased-then-set"), ByteBuffer.wrap(pattern(10, 6)));
            s.erase(StoreKey.of("k/erased-then-set"));
            s.set(StoreKey.of("k/erased-then-set"), ByteBuffer.wrap(pattern(11, 7)));
            Store r = reopened(s);
            expectValue(r, "k/longer-then-shorter", pattern(7, 2), "after overwriting with a shorter value");
            expectValue(r, "k/then-empty", new byte[0], "after overwriting with an empty value");
            expectValue(r, "k/shorter-then-longer", pattern(4000, 5), "after overwriting with a longer value");
            expectValue(r, "k/erased-then-set", pattern(11, 7), "after erase then set");
            if (r.capabilities().listable()) {
                expectEquals(List.of("k/erased-then-set", "k/longer-then-shorter", "k/shorter-then-longer",
                        "k/then-empty"), names(r.listPrefix("k/")), "one key per name after overwrites: list_prefix(\"k/\")");
            }
        });
    }

    /**
     * A bounded range {@code [start, start + length)} returns exactly those bytes: at the start, in
     * the middle, up to the very end, and empty ranges (length 0) at the start, inside and at the
     * end ({@code start == size}).
     *
     * <p>Spec: core.rst, "Abstract store interface": {@code range_start}, {@code range_length}.
     *
     * <p>If this fails, check: {@code end = start + length} versus {@code end = length};
     * off-by-one at the end; an empty range treated as "to the end".
     */
    @Test
    @DisplayName("S04 a bounded range reads exactly that part" + SPEC)
    public void required_S04_boundedRangeReadsThatPart() {
        check("S04", "a bounded range reads exactly that part", () -> {
            byte[] v = pattern(1000, 9);
            Store s = storeWith(content("v", v, "empty", new byte[0]));
            long[][] cases = {{0, 1000}, {0, 1}, {1, 10}, {500, 250}, {999, 1}, {990, 10}, {0, 0}, {500, 0},
                    {1000, 0}};
            for (long[] c : cases) {
                expectRange(s, "v", ByteRange.of(c[0], c[1]), range(v, c[0], c[0] + c[1]));
            }
            expectRange(s, "empty", ByteRange.of(0, 0), new byte[0]);
        });
    }

    /**
     * A range from an offset to the end (the spec's {@code range_length} none) returns the rest of
     * the value: from 0 the whole value, from the size an empty buffer.
     *
     * <p>Spec: core.rst, "Abstract store interface": "{@code range_length} may be none, indicating
     * all available data until the end".
     *
     * <p>If this fails, check: the size used for the end (compressed versus stored size in
     * archives); {@code From(size)} rejected instead of giving an empty value.
     */
    @Test
    @DisplayName("S05 a range from an offset reads to the end" + SPEC)
    public void required_S05_fromRangeReadsToTheEnd() {
        check("S05", "a range from an offset reads to the end", () -> {
            byte[] v = pattern(1000, 10);
            Store s = storeWith(content("v", v, "empty", new byte[0]));
            for (long start : new long[] {0, 1, 500, 999, 1000}) {
                expectRange(s, "v", ByteRange.from(start), range(v, start, 1000));
            }
            expectRange(s, "empty", ByteRange.from(0), new byte[0]);
        });
    }

    /**
     * A suffix range returns the last {@code n} bytes: 1, some, all ({@code n == size}), and none
     * ({@code n == 0}, an empty buffer). Sharded arrays read their index this way.
     *
     * <p>Spec: core.rst, "Abstract store interface" (ranges); codecs/sharding-indexed, index at the
     * end.
     *
     * <p>If this fails, check: {@code start = size - n} (not {@code size - n - 1}); the size of the
     * value used rather than of a buffer or block.
     */
    @Test
    @DisplayName("S06 a suffix range reads the last n bytes" + SPEC)
    public void required_S06_suffixRangeReadsTheLastBytes() {
        check("S06", "a suffix range reads the last n bytes", () -> {
            byte[] v = pattern(1000, 11);
            Store s = storeWith(content("v", v, "empty", new byte[0]));
            for (long n : new long[] {1, 2, 16, 999, 1000, 0}) {
                expectRange(s, "v", ByteRange.suffix(n), range(v, 1000 - n, 1000));
            }
            expectRange(s, "empty", ByteRange.suffix(0), new byte[0]);
        });
    }

    /**
     * A range that does not lie within the value — past the end, longer than the value, or so
     * large that {@code start + length} overflows — fails with a {@link StoreException} (any
     * {@link ZarrException} is accepted), naming the key; never an {@code IndexOutOfBoundsException}
     * or another unchecked exception, and never a silently shortened value. Also through
     * {@code getPartialValues}.
     *
     * <p>Spec: core.rst, "Abstract store interface" (ranges); zarrj {@link Store#get(StoreKey,
     * ByteRange)}.
     *
     * <p>If this fails, check: {@link ByteRange#resolve(long)} used to validate; reads clamped to
     * the end instead of rejected; {@code (int)} casts of offsets.
     */
    @Test
    @DisplayName("S07 a range outside the value is a StoreException" + SPEC)
    public void required_S07_rangeOutsideTheValueIsAStoreException() {
        check("S07", "a range outside the value is a StoreException", () -> {
            Store s = storeWith(content("v", pattern(10, 12)));
            StoreKey v = StoreKey.of("v");
            List<ByteRange> bad = List.of(ByteRange.of(8, 3), ByteRange.of(10, 1), ByteRange.of(11, 0),
                    ByteRange.of(0, 11), ByteRange.of(5, Long.MAX_VALUE), ByteRange.of(Long.MAX_VALUE, 1),
                    ByteRange.from(11), ByteRange.suffix(11));
            for (ByteRange r : bad) {
                expectZarrException("get('v', " + r + ") of a 10-byte value", () -> s.get(v, r));
            }
            expectZarrException("getPartialValues([('v', [8, 11))]) of a 10-byte value",
                    () -> s.getPartialValues(List.of(new KeyRange(v, ByteRange.of(8, 3)))));
        });
    }

    /**
     * {@code get_partial_values} returns one element per request, in request order; a key may be
     * asked several times with different ranges; an absent key gives an empty element in its place;
     * each element equals the ranged {@code get}.
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code get_partial_values}: "list of values, in
     * the order of the key_ranges, may contain null/none for missing keys".
     *
     * <p>If this fails, check: results grouped or sorted by key; repeated keys deduplicated; an
     * absent key failing the whole request or shifting later results.
     */
    @Test
    @DisplayName("S08 get_partial_values keeps request order, repeats and absent keys" + SPEC)
    public void required_S08_getPartialValuesKeepsOrder() {
        check("S08", "get_partial_values keeps request order, repeats and absent keys", () -> {
            byte[] a = pattern(100, 13);
            byte[] b = pattern(50, 14);
            Store s = storeWith(content("p/a", a, "p/b", b));
            StoreKey ka = StoreKey.of("p/a");
            StoreKey kb = StoreKey.of("p/b");
            StoreKey missing = StoreKey.of("p/missing");
            List<KeyRange> req = List.of(new KeyRange(kb, ByteRange.of(1, 3)), new KeyRange(ka, ByteRange.suffix(4)),
                    new KeyRange(missing, ByteRange.all()), new KeyRange(ka, ByteRange.of(0, 2)),
                    new KeyRange(ka, ByteRange.from(98)), new KeyRange(kb, ByteRange.all()),
                    new KeyRange(missing, ByteRange.suffix(1)), new KeyRange(ka, ByteRange.of(0, 2)));
            List<byte[]> expected = Arrays.asList(range(b, 1, 4), range(a, 96, 100), null, range(a, 0, 2),
                    range(a, 98, 100), b, null, range(a, 0, 2));
            List<Optional<ByteBuffer>> got = s.getPartialValues(req);
            expectEquals(req.size(), got.size(), "number of results");
            for (int i = 0; i < req.size(); i++) {
                byte[] actual = got.get(i).map(StoreBytes::array).orElse(null);
                if (!Arrays.equals(expected.get(i), actual)) {
                    throw Rule.fail("result " + i + " for " + req.get(i).key() + " " + req.get(i).range() + " is "
                            + show(actual) + ", expected " + show(expected.get(i)));
                }
            }
            expectEquals(0, s.getPartialValues(List.of()).size(), "results of an empty request");
        });
    }

    /**
     * {@code size} is the value's length and {@code exists} is true for every present key, an empty
     * value included (size 0, present).
     *
     * <p>Spec: core.rst, "Abstract store interface" (a store holds (key, value) pairs; values may be
     * empty); zarrj {@link Store#size}, {@link Store#exists}.
     *
     * <p>If this fails, check: an empty value treated as absent; compressed size reported instead
     * of the value's size; directories counted as keys.
     */
    @Test
    @DisplayName("S09 size and exists match the stored value" + SPEC)
    public void required_S09_sizeAndExistsMatchTheValue() {
        check("S09", "size and exists match the stored value", () -> {
            Map<String, byte[]> c = content("empty", new byte[0], "one", new byte[] {1}, "x/y/z", pattern(4321, 15),
                    "big", pattern(70_000, 16));
            Store s = storeWith(c);
            for (Map.Entry<String, byte[]> e : c.entrySet()) {
                StoreKey k = StoreKey.of(e.getKey());
                expectEquals(OptionalLong.of(e.getValue().length), s.size(k), "size('" + k + "')");
                expectEquals(true, s.exists(k), "exists('" + k + "')");
            }
            expectAbsentOrRefused(s, "x/y", "a prefix is not a key");
        });
    }

    // ---- writable ----

    /**
     * {@code erase} removes one key and leaves every other key, including keys that share a string
     * prefix, untouched; erasing an absent key does nothing (no error).
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code erase}.
     *
     * <p>If this fails, check: "not found" errors from the file system or archive propagated;
     * erase implemented as a prefix erase; empty parent directories deleted along with siblings.
     */
    @TestFactory
    @DisplayName("S10 erase removes one key; erasing an absent key does nothing" + SPEC)
    public Stream<DynamicTest> required_S10_eraseRemovesOneKey() {
        return gated(writableOrNotApplicable("required_S10"), "S10",
                "erase removes one key; erasing an absent key does nothing", s -> {
                    for (String k : List.of("a/b", "a/bc", "a/b.c", "ab", "keep")) {
                        s.set(StoreKey.of(k), ByteBuffer.wrap(utf8(k)));
                    }
                    s.erase(StoreKey.of("a/b"));
                    s.erase(StoreKey.of("never/was"));
                    s.erase(StoreKey.of("a/b"));
                    Store r = reopened(s);
                    expectAbsent(r, "a/b", "erased key");
                    for (String k : List.of("a/bc", "a/b.c", "ab", "keep")) {
                        expectValue(r, k, utf8(k), "key beside the erased one");
                    }
                });
    }

    /**
     * {@code erase_values} removes exactly the keys given, absent ones included without error, and
     * nothing else.
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code erase_values}.
     *
     * <p>If this fails, check: the first absent key aborting the rest; the collection consumed
     * twice or only partly.
     */
    @TestFactory
    @DisplayName("S11 erase_values removes exactly the given keys" + SPEC)
    public Stream<DynamicTest> required_S11_eraseValuesRemovesExactlyThoseKeys() {
        return gated(writableOrNotApplicable("required_S11"), "S11", "erase_values removes exactly the given keys", s -> {
            for (String k : List.of("c/0", "c/1", "c/2", "c/3", "zarr.json")) {
                s.set(StoreKey.of(k), ByteBuffer.wrap(utf8(k)));
            }
            s.eraseValues(List.of(StoreKey.of("c/0"), StoreKey.of("absent"), StoreKey.of("c/2")));
            s.eraseValues(List.of());
            Store r = reopened(s);
            expectAbsent(r, "c/0", "erased key");
            expectAbsent(r, "c/2", "erased key");
            for (String k : List.of("c/1", "c/3", "zarr.json")) {
                expectValue(r, k, utf8(k), "key not given to erase_values");
            }
        });
    }

    /**
     * {@code erase_prefix("a/")} removes every key under {@code a/} at any depth and nothing else —
     * not {@code ab/x}, {@code a.b} or {@code a-b}, whose names merely start with {@code a};
     * a prefix with no keys does nothing; {@code erase_prefix("")} removes every key.
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code erase_prefix}.
     *
     * <p>If this fails, check: string-prefix matching without the trailing {@code /}; recursion
     * depth; {@code ""} treated as "nothing" or refused.
     */
    @TestFactory
    @DisplayName("S12 erase_prefix removes that prefix only; \"\" removes everything" + SPEC)
    public Stream<DynamicTest> required_S12_erasePrefixRemovesOnlyThatPrefix() {
        return gated(writableOrNotApplicable("required_S12"), "S12",
                "erase_prefix removes that prefix only; \"\" removes everything", s -> {
                    List<String> under = List.of("a/b", "a/c/d", "a/c/e/f");
                    List<String> beside = List.of("a-b", "a.b", "ab/x", "e/f");
                    for (String k : under) {
                        s.set(StoreKey.of(k), ByteBuffer.wrap(utf8(k)));
                    }
                    for (String k : beside) {
                        s.set(StoreKey.of(k), ByteBuffer.wrap(utf8(k)));
                    }
                    s.erasePrefix("a/");
                    s.erasePrefix("nothing/here/");
                    Store r = reopened(s);
                    for (String k : under) {
                        expectAbsent(r, k, "key under the erased prefix a/");
                    }
                    for (String k : beside) {
                        expectValue(r, k, utf8(k), "key outside the erased prefix a/");
                    }
                    Store all = fresh();
                    if (!all.capabilities().writable()) {
                        throw Rule.fail("a second newStore() is not writable");
                    }
                    for (String k : beside) {
                        all.set(StoreKey.of(k), ByteBuffer.wrap(utf8(k)));
                    }
                    all.erasePrefix("");
                    Store r2 = reopened(all);
                    for (String k : beside) {
                        expectAbsent(r2, k, "after erase_prefix(\"\")");
                    }
                    if (r2.capabilities().listable() && !r2.list().isEmpty()) {
                        throw Rule.fail("list() after erase_prefix(\"\") is " + names(r2.list()));
                    }
                });
    }

    // ---- listable ----

    private Optional<Store> listableWith(String levelAndId, Map<String, byte[]> c) {
        Store s = storeWith(c);
        if (s.capabilities().listable()) {
            return Optional.of(s);
        }
        Rule.notApplicable(levelAndId, subject, "not listable");
        return Optional.empty();
    }

    /**
     * {@code list} returns every key once, sorted ({@link String#compareTo} order); {@code
     * list_prefix("a/")} returns exactly the keys that start with {@code a/} (the spec's example:
     * {@code a/b}, {@code a/c/d} but not {@code e/f/g}), sorted; a prefix with no keys gives an
     * empty list, and {@code list_prefix("")} equals {@code list}.
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code list}, {@code list_prefix}; zarrj
     * {@link Store#list()} (sorted).
     *
     * <p>If this fails, check: file-system or archive order returned unsorted; directories listed as
     * keys; {@code a.b}/{@code a-b} matched by the prefix {@code a/}; duplicates from zip entries.
     */
    @TestFactory
    @DisplayName("S13 list and list_prefix are sorted and complete" + SPEC)
    public Stream<DynamicTest> required_S13_listAndListPrefixAreSortedAndComplete() {
        List<String> keys = List.of("a-b", "a.b", "a/b", "a/c/d", "a0", "ab/x", "e/f/g", "zarr.json");
        Map<String, byte[]> c = new LinkedHashMap<>();
        List<String> shuffled = new ArrayList<>(keys);
        Collections.reverse(shuffled);
        shuffled.forEach(k -> c.put(k, utf8(k)));
        return gated(listableWith("required_S13", c), "S13", "list and list_prefix are sorted and complete", s -> {
            expectEquals(keys, names(s.list()), "list()");
            expectEquals(keys, names(s.listPrefix("")), "list_prefix(\"\")");
            expectEquals(List.of("a/b", "a/c/d"), names(s.listPrefix("a/")), "list_prefix(\"a/\")");
            expectEquals(List.of("a/c/d"), names(s.listPrefix("a/c/")), "list_prefix(\"a/c/\")");
            expectEquals(List.of("e/f/g"), names(s.listPrefix("e/")), "list_prefix(\"e/\")");
            expectEquals(List.of(), names(s.listPrefix("b/")), "list_prefix(\"b/\")");
            expectEquals(List.of(), names(s.listPrefix("a/b/")), "list_prefix(\"a/b/\") (a/b is a key, not a prefix)");
        });
    }

    /**
     * {@code list_dir} separates the keys directly under a prefix from the child prefixes, exactly
     * as core.rst's example: with keys {@code a/b}, {@code a/c}, {@code a/d/e}, {@code a/f/g},
     * {@code list_dir("a/")} is keys {@code a/b}, {@code a/c} and prefixes {@code a/d/},
     * {@code a/f/}; {@code list_dir("b/")} is empty. Each prefix appears once, ends in {@code /},
     * and both lists are sorted; {@code list_dir("")} lists the root.
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code list_dir}.
     *
     * <p>If this fails, check: nested keys returned as keys (a recursive walk); prefixes without the
     * trailing {@code /} or repeated once per key below them; prefixes for an empty directory.
     */
    @TestFactory
    @DisplayName("S14 list_dir returns direct keys and child prefixes as core.rst's example" + SPEC)
    public Stream<DynamicTest> required_S14_listDirSeparatesKeysFromPrefixes() {
        Map<String, byte[]> c = content("a/f/g", "5", "a/d/e", "3", "a/c", "2", "a/b", "1", "a/d/h/i", "4", "z", "6");
        return gated(listableWith("required_S14", c), "S14",
                "list_dir returns direct keys and child prefixes as core.rst's example", s -> {
                    ListDirResult a = s.listDir("a/");
                    expectEquals(List.of("a/b", "a/c"), names(a.keys()), "list_dir(\"a/\") keys");
                    expectEquals(List.of("a/d/", "a/f/"), a.prefixes(), "list_dir(\"a/\") prefixes");
                    ListDirResult b = s.listDir("b/");
                    expectEquals(List.of(), names(b.keys()), "list_dir(\"b/\") keys");
                    expectEquals(List.of(), b.prefixes(), "list_dir(\"b/\") prefixes");
                    ListDirResult root = s.listDir("");
                    expectEquals(List.of("z"), names(root.keys()), "list_dir(\"\") keys");
                    expectEquals(List.of("a/"), root.prefixes(), "list_dir(\"\") prefixes");
                    ListDirResult d = s.listDir("a/d/");
                    expectEquals(List.of("a/d/e"), names(d.keys()), "list_dir(\"a/d/\") keys");
                    expectEquals(List.of("a/d/h/"), d.prefixes(), "list_dir(\"a/d/\") prefixes");
                });
    }

    /**
     * {@code listPrefixSizes} lists exactly the keys {@code list_prefix} lists, in the same
     * (sorted) order, each with the size {@code size} answers — an empty value as 0, a value of
     * 300 kB as 300,000 — for the whole store, a prefix, a nested prefix and a prefix with no
     * keys; and refuses an invalid prefix with an {@link InvalidKeyException}, as
     * {@code list_prefix} does.
     *
     * <p>Spec: zarrj {@link Store#listPrefixSizes} (core.rst {@code list_prefix} and
     * {@code getsize}).
     *
     * <p>If this fails, check: sizes taken from the wrong field of a listing (an object store's
     * size of the whole multipart upload, a zip entry's compressed size); empty values skipped as
     * if they were folder markers; pending writes or erases not merged into the listing.
     */
    @TestFactory
    @DisplayName("S28 listPrefixSizes lists list_prefix's keys with size's values (spec: zarrj Store.listPrefixSizes)")
    public Stream<DynamicTest> required_S28_listPrefixSizesAgreesWithListPrefixAndSize() {
        Map<String, byte[]> c = content("a/b", "1", "a/c/d", new byte[0], "a/c/e", pattern(300_000, 28), "a-b", "22",
                "e/f/g", "333", "zarr.json", "{}");
        return gated(listableWith("required_S28", c), "S28", "listPrefixSizes lists list_prefix's keys with size's values",
                s -> {
                    for (String prefix : List.of("", "a/", "a/c/", "e/", "b/")) {
                        String call = "listPrefixSizes(\"" + prefix + "\")";
                        List<KeySize> sizes = s.listPrefixSizes(prefix);
                        if (sizes == null) {
                            throw Rule.fail(call + " returned null");
                        }
                        expectEquals(names(s.listPrefix(prefix)),
                                sizes.stream().map(k -> k.key().value()).collect(Collectors.toList()),
                                call + " keys, compared with list_prefix's");
                        for (KeySize k : sizes) {
                            expectEquals(OptionalLong.of(k.size()), s.size(k.key()),
                                    call + ": the size of '" + k.key() + "' as size() answers it");
                            expectEquals((long) c.get(k.key().value()).length, k.size(),
                                    call + ": the size of '" + k.key() + "' as stored");
                        }
                    }
                    expectInvalidKey("listPrefixSizes(\"a\")", () -> s.listPrefixSizes("a"));
                });
    }

    private static final String S29 = "a range reader reads what get reads and, when versioned, one version of the value";

    /**
     * {@link Store#rangeReader}: a reader of a present key reads what {@code get(key, range)} reads
     * (bounded, from, suffix and empty ranges; {@code getAll} and {@code getAllAsync} in the order
     * given); of an absent key, empty; a range outside the value is a {@link ZarrException}
     * (through the future for {@code getAllAsync}); closing twice is harmless. When the store is
     * writable and the reader claims {@link RangeReader#versioned()}: after the value it first read
     * is replaced with {@code set}, and then erased, each later read of it gives the bytes of the
     * value first read or throws {@link ValueChangedException}; never bytes of the new value,
     * never empty. A new reader then reads the key as it is now.
     *
     * <p>Spec: zarrj {@link Store#rangeReader} and {@link RangeReader}; not part of core.rst's
     * abstract store interface (a partial decode's ranges, core.rst "partial_decode", must come
     * from one value).
     *
     * <p>If this fails, check: a reader that claims versions but reads the key afresh on every
     * read; a version (ETag) taken but not sent, or an answer of another version not compared; a
     * file reopened by path for each read instead of the channel first opened being kept.
     */
    @Test
    @DisplayName("S29 a range reader reads what get reads and, when versioned, one version of the value"
            + " (spec: zarrj Store.rangeReader)")
    public void required_S29_rangeReaderReadsOneVersion() {
        check("S29", S29, () -> {
            byte[] v = pattern(1000, 29);
            Store s = storeWith(content("k", v));
            StoreKey k = StoreKey.of("k");
            List<ByteRange> ranges = List.of(ByteRange.of(0, 10), ByteRange.of(990, 10), ByteRange.from(500),
                    ByteRange.suffix(7), ByteRange.of(10, 0), ByteRange.of(300, 400));
            RangeReader r = s.rangeReader(k);
            if (r == null) {
                throw Rule.fail("rangeReader('k') returned null");
            }
            try (r) {
                for (ByteRange range : ranges) {
                    expectRead(r.get(range), expectedRange(v, range), "rangeReader('k').get(" + range + ")");
                }
                List<ByteRange> some = List.of(ByteRange.of(100, 5), ByteRange.of(0, 3), ByteRange.suffix(2));
                expectReads(r.getAll(some), v, some, "rangeReader('k').getAll(" + some + ")");
                expectReads(joined(r.getAllAsync(some), "getAllAsync"), v, some,
                        "rangeReader('k').getAllAsync(" + some + ")");
                expectZarrException("rangeReader('k').get(" + ByteRange.of(995, 10) + ") of a 1000-byte value",
                        () -> r.get(ByteRange.of(995, 10)));
                CompletableFuture<List<Optional<ByteBuffer>>> outside;
                try {
                    outside = r.getAllAsync(List.of(ByteRange.of(995, 10)));
                } catch (RuntimeException e) {
                    throw Rule.fail("rangeReader('k').getAllAsync of a range outside the value threw " + e
                            + " instead of failing its future");
                }
                expectZarrException("the future of rangeReader('k').getAllAsync of a range outside the value",
                        () -> joined(outside, "getAllAsync"));
            }
            r.close();
            try (RangeReader absent = s.rangeReader(StoreKey.of("absent"))) {
                expectEquals(Optional.empty(), absent.get(ByteRange.of(0, 1)), "rangeReader('absent').get");
                expectEquals(List.of(Optional.empty()), absent.getAll(List.of(ByteRange.of(0, 1))),
                        "rangeReader('absent').getAll");
            }
            Store w = fresh();
            if (!w.capabilities().writable()) {
                Rule.notApplicable("required_S29 (one version)", subject, "not writable");
                return;
            }
            byte[] first = pattern(1000, 1);
            byte[] second = pattern(1200, 2);
            w.set(k, ByteBuffer.wrap(first.clone()));
            try (RangeReader one = w.rangeReader(k)) {
                expectRead(one.get(ByteRange.of(0, 100)), range(first, 0, 100), "the first read");
                if (!one.versioned()) {
                    Rule.notApplicable("required_S29 (one version)", subject, "its range readers are not versioned");
                    return;
                }
                w.set(k, ByteBuffer.wrap(second.clone()));
                oneVersion(() -> List.of(one.get(ByteRange.of(100, 100))), first, List.of(ByteRange.of(100, 100)),
                        "get after the value was replaced");
                List<ByteRange> two = List.of(ByteRange.of(300, 50), ByteRange.of(900, 100));
                oneVersion(() -> one.getAll(two), first, two, "getAll after the value was replaced");
                oneVersion(() -> joined(one.getAllAsync(two), "getAllAsync"), first, two,
                        "getAllAsync after the value was replaced");
                w.erase(k);
                oneVersion(() -> List.of(one.get(ByteRange.of(500, 20))), first, List.of(ByteRange.of(500, 20)),
                        "get after the value was erased");
            }
            w.set(k, ByteBuffer.wrap(second.clone()));
            try (RangeReader now = w.rangeReader(k)) {
                expectRead(now.get(ByteRange.of(1100, 100)), range(second, 1100, 1200), "a new reader's read");
            }
        });
    }

    private static byte[] expectedRange(byte[] v, ByteRange range) {
        long[] r = range.resolve(v.length);
        return range(v, r[0], r[1]);
    }

    private static void expectRead(Optional<ByteBuffer> got, byte[] expected, String what) {
        if (got == null) {
            throw Rule.fail(what + " returned null instead of an Optional");
        }
        byte[] actual = got.map(StoreBytes::array).orElse(null);
        if (!Arrays.equals(expected, actual)) {
            throw Rule.fail(what + " gave " + show(actual) + ", expected " + show(expected));
        }
    }

    private static void expectReads(List<Optional<ByteBuffer>> got, byte[] v, List<ByteRange> ranges, String what) {
        if (got == null || got.size() != ranges.size()) {
            throw Rule.fail(what + " returned " + (got == null ? "null" : got.size() + " values") + " for "
                    + ranges.size() + " ranges");
        }
        for (int i = 0; i < ranges.size(); i++) {
            expectRead(got.get(i), expectedRange(v, ranges.get(i)), what + "[" + i + "]");
        }
    }

    private static <T> T joined(CompletableFuture<T> f, String call) {
        if (f == null) {
            throw Rule.fail(call + " returned a null future");
        }
        try {
            return f.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Rule.fail(call + ": interrupted");
        } catch (TimeoutException e) {
            throw Rule.fail(call + " did not complete within 60 s");
        }
    }

    /** The reads give the bytes of {@code first}, or throw ValueChangedException. */
    private static void oneVersion(Supplier<List<Optional<ByteBuffer>>> reads, byte[] first, List<ByteRange> ranges,
                                   String what) {
        List<Optional<ByteBuffer>> got;
        try {
            got = reads.get();
        } catch (ValueChangedException noticed) {
            return;
        }
        for (int i = 0; i < ranges.size(); i++) {
            Optional<ByteBuffer> b = got.get(i);
            byte[] actual = b == null ? null : b.map(StoreBytes::array).orElse(null);
            byte[] expected = expectedRange(first, ranges.get(i));
            if (!Arrays.equals(expected, actual)) {
                throw Rule.fail("a versioned range reader: " + what + ", " + ranges.get(i) + " gave " + show(actual)
                        + "; expected the bytes of the value it first read, " + show(expected)
                        + ", or a ValueChangedException");
            }
        }
    }

    /**
     * Keys are case-sensitive: {@code foo} and {@code FOO} are two keys with two values; each is
     * read, listed and erased on its own. A store on a case-insensitive file system fails this, as
     * it should.
     *
     * <p>Spec: core.rst, "Abstract store interface": "keys are case sensitive, i.e., the keys "foo"
     * and "FOO" are different"; "set("foo", a) and set("FOO", b) will result in two separate (key,
     * value) pairs".
     *
     * <p>If this fails, check: the file system (macOS and Windows defaults are case-insensitive);
     * keys lower-cased or compared with {@code equalsIgnoreCase}; case-folding maps or caches.
     */
    @Test
    @DisplayName("S15 keys are case-sensitive: foo and FOO are distinct" + SPEC)
    public void required_S15_keysAreCaseSensitive() {
        check("S15", "keys are case-sensitive: foo and FOO are distinct", () -> {
            Store s = storeWith(content("foo", "a", "FOO", "b", "dir/Key", "c", "DIR/key", "d"));
            expectValue(s, "foo", utf8("a"), "case-sensitive key");
            expectValue(s, "FOO", utf8("b"), "case-sensitive key");
            expectValue(s, "dir/Key", utf8("c"), "case-sensitive key");
            expectValue(s, "DIR/key", utf8("d"), "case-sensitive key");
            expectAbsent(s, "Foo", "a key differing only in case from present ones");
            if (s.capabilities().listable()) {
                expectEquals(List.of("DIR/key", "FOO", "dir/Key", "foo"), names(s.list()), "list()");
                expectEquals(List.of("dir/Key"), names(s.listPrefix("dir/")), "list_prefix(\"dir/\")");
            }
            Store w = fresh();
            if (w.capabilities().writable()) {
                w.set(StoreKey.of("foo"), ByteBuffer.wrap(utf8("a")));
                w.set(StoreKey.of("FOO"), ByteBuffer.wrap(utf8("b")));
                w.erase(StoreKey.of("FOO"));
                Store r = reopened(w);
                expectValue(r, "foo", utf8("a"), "after erasing FOO");
                expectAbsent(r, "FOO", "after erasing FOO");
            }
        });
    }

    /**
     * The operations that take a prefix as a string ({@code list_prefix}, {@code list_dir},
     * {@code erase_prefix}) refuse anything that is not {@code ""} or a valid key followed by
     * {@code /} — {@code a} (no trailing slash), {@code /a/}, {@code ../}, {@code a/../},
     * {@code a//}, a backslash, NUL — with an {@link InvalidKeyException}, and erase nothing. Keys
     * are {@link StoreKey}s, which cannot be invalid, so prefixes are the one way a bad path could
     * reach a store.
     *
     * <p>Spec: core.rst, "Abstract store interface": a prefix is a string of key characters ending
     * with {@code /}; zarrj {@link StoreKey#checkPrefix}. DESIGN.md: no one gets out of the store.
     *
     * <p>If this fails, check: a missing {@link StoreKey#checkPrefix} call at the top of each prefix
     * operation; a prefix resolved against the root directory before it is checked.
     */
    @Test
    @DisplayName("S16 invalid prefixes are refused with InvalidKeyException" + SPEC)
    public void required_S16_invalidPrefixesAreRefused() {
        check("S16", "invalid prefixes are refused with InvalidKeyException", () -> {
            Store s = storeWith(content("a/b", "1", "ab", "2"));
            List<String> bad = List.of("a", "/a/", "../", "a/../", "./", "a//", "a\\b/", "a\0/", "/");
            for (String p : bad) {
                String shown = p.replace("\0", "\\0");
                if (s.capabilities().listable()) {
                    expectInvalidKey("list_prefix(\"" + shown + "\")", () -> s.listPrefix(p));
                    expectInvalidKey("list_dir(\"" + shown + "\")", () -> s.listDir(p));
                }
            }
            Store w = fresh();
            if (w.capabilities().writable()) {
                w.set(StoreKey.of("a/b"), ByteBuffer.wrap(utf8("1")));
                w.set(StoreKey.of("ab"), ByteBuffer.wrap(utf8("2")));
                for (String p : bad) {
                    expectInvalidKey("erase_prefix(\"" + p.replace("\0", "\\0") + "\")", () -> w.erasePrefix(p));
                }
                Store r = reopened(w);
                expectValue(r, "a/b", utf8("1"), "after refused erase_prefix calls");
                expectValue(r, "ab", utf8("2"), "after refused erase_prefix calls");
            }
        });
    }

    /**
     * The store describes itself (a non-blank {@link Store#describe()}, used in every message about
     * it) and declares its capabilities: non-null, and readable (zarrj stores always serve
     * {@code get}). The capability report is printed.
     *
     * <p>Spec: core.rst, "Abstract store interface": readable, writeable and listable capability
     * sets; STYLE.md rule 9 (capabilities are declared, not signalled by throwing).
     *
     * <p>If this fails, check: {@code describe()} left returning null or "";
     * {@code capabilities()} returning null.
     */
    @Test
    @DisplayName("S17 the store describes itself and declares its capabilities" + SPEC)
    public void required_S17_describesItselfAndItsCapabilities() {
        check("S17", "the store describes itself and declares its capabilities", () -> {
            Store s = track(newStore());
            String d = s.describe();
            if (d == null || d.isBlank()) {
                throw Rule.fail("describe() is " + (d == null ? "null" : "blank"));
            }
            StoreCapabilities c = s.capabilities();
            if (c == null) {
                throw Rule.fail("capabilities() is null");
            }
            if (!c.readable()) {
                throw Rule.fail("capabilities() says not readable; every zarrj store serves get");
            }
            System.out.println("capabilities of " + d + ": readable=" + c.readable() + " writable=" + c.writable()
                    + " partialWrites=" + c.partialWrites() + " listable=" + c.listable());
        });
    }

    /**
     * Values are copied at the boundary: changing the buffer returned by {@code get} (or a ranged
     * {@code get}) does not change the stored value, and — for writable stores — {@code set}
     * stores the bytes from the buffer's position to its limit, leaves the buffer's position and
     * limit as they were, and later changes to that buffer do not change the stored value.
     *
     * <p>Spec: zarrj {@link Store}: "Returned buffers are owned by the caller; buffers passed in are
     * not modified". (The spec's store holds values; aliasing a caller's buffer would let the
     * caller change it without {@code set}.)
     *
     * <p>If this fails, check: {@code ByteBuffer.wrap(internalArray)} or {@code duplicate()} of a
     * stored buffer returned; the caller's buffer kept by reference; {@code value.get(...)} moving
     * the caller's position instead of reading a duplicate.
     */
    @Test
    @DisplayName("S18 values are copied in and out: no buffer aliasing" + SPEC)
    public void required_S18_valuesAreCopiedInAndOut() {
        check("S18", "values are copied in and out: no buffer aliasing", () -> {
            byte[] v = pattern(64, 20);
            Store s = storeWith(content("k", v));
            scribble(s.get(StoreKey.of("k")).orElseThrow(() -> Rule.fail("get('k') is empty")));
            expectValue(s, "k", v, "after changing the buffer a get returned");
            scribble(s.get(StoreKey.of("k"), ByteRange.of(8, 16)).orElseThrow(() -> Rule.fail("ranged get is empty")));
            expectValue(s, "k", v, "after changing the buffer a ranged get returned");
            Store w = fresh();
            if (!w.capabilities().writable()) {
                return;
            }
            byte[] backing = pattern(64, 21);
            ByteBuffer in = ByteBuffer.wrap(backing, 3, 50);
            w.set(StoreKey.of("k"), in);
            expectEquals(3, in.position(), "position of the buffer passed to set, after set");
            expectEquals(53, in.limit(), "limit of the buffer passed to set, after set");
            byte[] stored = range(pattern(64, 21), 3, 53);
            Arrays.fill(backing, (byte) 0x5a);
            expectValue(w, "k", stored, "after changing the buffer passed to set (read from the written store)");
            expectValue(reopened(w), "k", stored, "after changing the buffer passed to set");
        });
    }

    /** Overwrites a buffer's bytes (a read-only buffer cannot alias anything the caller changes). */
    private static void scribble(ByteBuffer b) {
        if (b.isReadOnly()) {
            return;
        }
        try {
            for (int i = b.position(); i < b.limit(); i++) {
                b.put(i, (byte) ~b.get(i));
            }
        } catch (ReadOnlyBufferException e) {
            // Not writable after all: nothing to alias.
        }
    }

    /**
     * Eight threads at once: writers on distinct keys each read back their own values; on one
     * shared key, writers replace the value while readers read it, and every read sees one whole
     * value that some writer wrote — never a mix of two, never a partial value, never absent. A
     * read-only store is read by eight threads at once. The written store is used directly.
     *
     * <p>Spec: zarrj {@link Store}: "Implementations are thread-safe … a reader sees either the old
     * or the new value of a key, never a mix"; DESIGN.md "Nothing is lost".
     *
     * <p>If this fails, check: writes made in place (truncate then write) instead of to a temporary
     * file moved over the old one; shared mutable buffers or channels without locking; a map that
     * is not concurrent.
     */
    @Test
    @DisplayName("S19 concurrent readers and writers see whole values" + SPEC)
    public void required_S19_concurrentReadersAndWritersSeeWholeValues() {
        check("S19", "concurrent readers and writers see whole values", () -> {
            Store probe = fresh();
            if (probe.capabilities().writable()) {
                concurrentWrites(probe);
            } else {
                concurrentReads();
            }
        });
    }

    private static final int THREADS = 8;
    private static final int ROUNDS = 40;

    /** The shared key's value number {@code n}: {@code 1000 + 37n} bytes, all equal to {@code n}. */
    private static byte[] sharedValue(int n) {
        return uniform(1000 + 37 * n, n);
    }

    private void concurrentWrites(Store s) throws Exception {
        StoreKey shared = StoreKey.of("shared/value");
        s.set(shared, ByteBuffer.wrap(sharedValue(0)));
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicBoolean writersDone = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> writers = new ArrayList<>();
            List<Future<?>> readers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                boolean writer = t % 2 == 0;
                Runnable job = () -> {
                    await(start);
                    for (int i = 0; i < ROUNDS || (!writer && !writersDone.get()); i++) {
                        if (writer) {
                            StoreKey own = StoreKey.of("t" + thread + "/k" + (i % 10));
                            byte[] v = pattern(100 + i, thread * 1000 + i);
                            s.set(own, ByteBuffer.wrap(v));
                            byte[] back = s.get(own).map(StoreBytes::array).orElse(null);
                            if (!Arrays.equals(v, back)) {
                                problems.add("thread " + thread + " wrote " + show(v) + " to " + own + " and read back "
                                        + show(back));
                            }
                            s.set(shared, ByteBuffer.wrap(sharedValue(1 + (thread * ROUNDS + i) % 200)));
                        }
                        byte[] seen = s.get(shared).map(StoreBytes::array).orElse(null);
                        String bad = wholeSharedValue(seen);
                        if (bad != null) {
                            problems.add("thread " + thread + " read " + shared + ": " + bad);
                        }
                    }
                };
                (writer ? writers : readers).add(pool.submit(job));
            }
            start.countDown();
            for (Future<?> f : writers) {
                f.get(120, TimeUnit.SECONDS);
            }
            writersDone.set(true);
            for (Future<?> f : readers) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        if (!problems.isEmpty()) {
            throw Rule.fail(problems.size() + " problems, the first: " + problems.peek());
        }
        Store r = reopened(s);
        String bad = wholeSharedValue(r.get(shared).map(StoreBytes::array).orElse(null));
        if (bad != null) {
            throw Rule.fail("after the writers finished, " + shared + ": " + bad);
        }
        for (int t = 0; t < THREADS; t += 2) {
            for (int k = 0; k < 10; k++) {
                int last = ROUNDS - 10 + k;
                expectValue(r, "t" + t + "/k" + k, pattern(100 + last, t * 1000 + last),
                        "after the writers finished, the last value thread " + t + " wrote");
            }
        }
    }

    /** Null when {@code v} is one whole value of the shared key, else what is wrong with it. */
    private static String wholeSharedValue(byte[] v) {
        if (v == null) {
            return "absent while being replaced";
        }
        if (v.length < 1000 || (v.length - 1000) % 37 != 0) {
            return "a value of " + v.length + " bytes, which no writer wrote (torn or partial)";
        }
        int n = (v.length - 1000) / 37;
        for (int i = 0; i < v.length; i++) {
            if ((v[i] & 0xff) != n) {
                return "a mix: byte " + i + " is " + (v[i] & 0xff) + " in the " + v.length + "-byte value " + n;
            }
        }
        return null;
    }

    private void concurrentReads() throws Exception {
        Map<String, byte[]> c = new TreeMap<>();
        for (int k = 0; k < 16; k++) {
            c.put("r/k" + k, pattern(5000 + k, k));
        }
        Store s = storeWith(c);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                all.add(pool.submit(() -> {
                    await(start);
                    for (int i = 0; i < ROUNDS; i++) {
                        String k = "r/k" + ((thread + i) % 16);
                        byte[] expected = c.get(k);
                        byte[] whole = s.get(StoreKey.of(k)).map(StoreBytes::array).orElse(null);
                        byte[] part = s.get(StoreKey.of(k), ByteRange.of(i, 100)).map(StoreBytes::array).orElse(null);
                        if (!Arrays.equals(expected, whole) || !Arrays.equals(range(expected, i, i + 100), part)) {
                            problems.add("thread " + thread + " read " + k + " as " + show(whole));
                        }
                    }
                }));
            }
            start.countDown();
            for (Future<?> f : all) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        if (!problems.isEmpty()) {
            throw Rule.fail(problems.size() + " problems, the first: " + problems.peek());
        }
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- capabilities ----

    /**
     * A store whose capabilities say it is not writable refuses {@code set}, {@code erase},
     * {@code erase_values} and {@code erase_prefix} with a {@link ReadOnlyException}, and
     * {@code set_partial_values} with a {@link ReadOnlyException} or
     * {@link UnsupportedOperationException}; its content is unchanged afterwards. Checked on
     * {@link #newReadOnlyStore(Map)} and, when it is not writable, on {@link #newStore()}.
     *
     * <p>Spec: core.rst, "Abstract store interface": the capability sets; zarrj
     * {@link StoreCapabilities}, {@link ReadOnlyException}.
     *
     * <p>If this fails, check: the read-only flag checked in every write path (not only
     * {@code set}); writes buffered and dropped silently; erase of an absent key in a read-only
     * store returning normally instead of refusing.
     */
    @TestFactory
    @DisplayName("S20 a read-only store refuses writes with ReadOnlyException" + SPEC)
    public Stream<DynamicTest> required_S20_readOnlyStoreRefusesWrites() {
        List<Store> readOnly = new ArrayList<>();
        Store s = fresh();
        if (!s.capabilities().writable()) {
            readOnly.add(s);
        }
        Map<String, byte[]> c = content("ro/a", "A", "ro/b", "B", "zarr.json", "{}");
        Optional<Store> ro = newReadOnlyStore(c);
        if (ro.isPresent()) {
            track(ro.get());
            if (ro.get().capabilities().writable()) {
                return Stream.of(DynamicTest.dynamicTest("S20 newReadOnlyStore returns a read-only store",
                        () -> check("S20", "a read-only store refuses writes with ReadOnlyException", () -> {
                            throw Rule.fail("newReadOnlyStore(...) returned " + describe(ro.get())
                                    + " whose capabilities say writable");
                        })));
            }
            readOnly.add(ro.get());
        }
        if (readOnly.isEmpty()) {
            Rule.notApplicable("required_S20", subject, "newStore() is writable and newReadOnlyStore(Map) is not"
                    + " overridden");
        }
        return readOnly.stream().map(store -> DynamicTest.dynamicTest("S20 a read-only store refuses writes: "
                + describe(store), () -> check("S20", "a read-only store refuses writes with ReadOnlyException",
                () -> refusesWrites(store, store == s ? Map.of() : c))));
    }

    private static void refusesWrites(Store s, Map<String, byte[]> c) {
        StoreKey present = c.isEmpty() ? StoreKey.of("ro/a") : StoreKey.of(c.keySet().iterator().next());
        expectReadOnly("set('ro/new')", () -> s.set(StoreKey.of("ro/new"), ByteBuffer.wrap(utf8("x"))));
        expectReadOnly("set('" + present + "')", () -> s.set(present, ByteBuffer.wrap(utf8("x"))));
        expectReadOnly("erase('" + present + "')", () -> s.erase(present));
        expectReadOnly("erase('absent')", () -> s.erase(StoreKey.of("absent")));
        expectReadOnly("erase_values([" + present + "])", () -> s.eraseValues(List.of(present)));
        expectReadOnly("erase_prefix(\"ro/\")", () -> s.erasePrefix("ro/"));
        expectReadOnly("erase_prefix(\"\")", () -> s.erasePrefix(""));
        try {
            s.setPartialValues(List.of(new KeyStartValue(present, 0, ByteBuffer.wrap(utf8("x")))));
            throw Rule.fail("set_partial_values was accepted by a store that is not writable");
        } catch (ReadOnlyException | UnsupportedOperationException expected) {
            // refused
        } catch (RuntimeException e) {
            throw Rule.fail("set_partial_values threw " + e + "; expected ReadOnlyException or"
                    + " UnsupportedOperationException");
        }
        for (Map.Entry<String, byte[]> e : c.entrySet()) {
            expectValue(s, e.getKey(), e.getValue(), "after refused writes");
        }
        expectAbsent(s, "ro/new", "after a refused set");
        if (s.capabilities().listable()) {
            expectEquals(new ArrayList<>(new TreeMap<>(c).keySet()), names(s.list()), "list() after refused writes");
        }
    }

    private static void expectReadOnly(String call, Runnable r) {
        try {
            r.run();
        } catch (ReadOnlyException e) {
            return;
        } catch (RuntimeException e) {
            throw Rule.fail(call + " threw " + e + "; expected a ReadOnlyException");
        }
        throw Rule.fail(call + " was accepted by a store that is not writable; expected a ReadOnlyException");
    }

    /**
     * A writable store that does not declare {@code partialWrites} refuses
     * {@code set_partial_values} with an {@link UnsupportedOperationException} (or a
     * {@link ZarrException}) and leaves the value unchanged — it never half-supports it.
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code set_partial_values} (recommended to be
     * optional); zarrj {@link StoreCapabilities#partialWrites()}; STYLE.md rule 9.
     *
     * <p>If this fails, check: the capability flag and the implementation disagree — either
     * declare {@code partialWrites} or leave {@link Store#setPartialValues} to its default.
     */
    @TestFactory
    @DisplayName("S21 set_partial_values is refused unless partialWrites is declared" + SPEC)
    public Stream<DynamicTest> required_S21_undeclaredPartialWritesAreRefused() {
        Optional<Store> w = writableOrNotApplicable("required_S21");
        if (w.isPresent() && w.get().capabilities().partialWrites()) {
            Rule.notApplicable("required_S21", subject, "partialWrites is declared (see optional_S22)");
            w = Optional.empty();
        }
        return gated(w, "S21", "set_partial_values is refused unless partialWrites is declared", s -> {
            StoreKey k = StoreKey.of("p");
            s.set(k, ByteBuffer.wrap(pattern(20, 22)));
            try {
                s.setPartialValues(List.of(new KeyStartValue(k, 2, ByteBuffer.wrap(uniform(3, 0)))));
                throw Rule.fail("set_partial_values was accepted, but capabilities() does not declare partialWrites");
            } catch (UnsupportedOperationException | ZarrException expected) {
                // refused
            } catch (AssertionFailedError e) {
                throw e;
            } catch (RuntimeException e) {
                throw Rule.fail("set_partial_values threw " + e + "; expected UnsupportedOperationException");
            }
            expectValue(reopened(s), "p", pattern(20, 22), "after a refused set_partial_values");
        });
    }

    /**
     * Optional ({@code partialWrites}): {@code set_partial_values} writes each value at its offset
     * within existing values — several non-overlapping writes to one key, writes to several keys,
     * a write that ends exactly at the end — and leaves the other bytes as they were.
     *
     * <p>Spec: core.rst, "Abstract store interface", {@code set_partial_values}.
     *
     * <p>If this fails, check: writes applied at offset 0; later writes to one key replacing earlier
     * ones; the value truncated after the last write.
     */
    @TestFactory
    @DisplayName("S22 set_partial_values writes at offsets (optional: partialWrites)" + SPEC)
    public Stream<DynamicTest> optional_S22_setPartialValuesWritesAtOffsets() {
        Store s = fresh();
        if (!s.capabilities().writable() || !s.capabilities().partialWrites()) {
            Rule.notClaimed("optional_S22", subject);
            return Stream.empty();
        }
        return gated(Optional.of(s), "S22", "set_partial_values writes at offsets", w -> {
            byte[] a = pattern(20, 23);
            byte[] b = pattern(20, 24);
            w.set(StoreKey.of("pw/a"), ByteBuffer.wrap(a));
            w.set(StoreKey.of("pw/b"), ByteBuffer.wrap(b));
            w.setPartialValues(List.of(
                    new KeyStartValue(StoreKey.of("pw/a"), 0, ByteBuffer.wrap(uniform(3, 1))),
                    new KeyStartValue(StoreKey.of("pw/b"), 17, ByteBuffer.wrap(uniform(3, 2))),
                    new KeyStartValue(StoreKey.of("pw/a"), 10, ByteBuffer.wrap(uniform(5, 3)))));
            byte[] ea = a.clone();
            Arrays.fill(ea, 0, 3, (byte) 1);
            Arrays.fill(ea, 10, 15, (byte) 3);
            byte[] eb = b.clone();
            Arrays.fill(eb, 17, 20, (byte) 2);
            Store r = reopened(w);
            expectValue(r, "pw/a", ea, "after two partial writes");
            expectValue(r, "pw/b", eb, "after a partial write that ends at the end");
        });
    }

    /**
     * {@code get} with an allocator returns exactly the value, whether the store reads into the
     * buffer it asks for or returns one of its own; it asks at most once, for the value's size,
     * and not at all for an absent key.
     *
     * <p>Spec: zarrj {@code Store.get(key, allocate)} (the read path reuses chunk buffers through
     * it); core.rst {@code get}.
     *
     * <p>If this fails, check: a buffer returned with its limit at the allocated capacity rather
     * than at the value's size; a value read into a buffer that was then not returned; the
     * allocator called for absent keys or more than once.
     */
    @Test
    @DisplayName("S23 get with an allocator returns exactly the value" + SPEC)
    public void required_S23_getWithAllocatorReturnsTheValue() {
        check("S23", "get with an allocator returns exactly the value", () -> {
            Map<String, byte[]> c = content(
                    "empty", new byte[0],
                    "one", new byte[] {42},
                    "large/c/0", pattern(300_000, 25));
            Store s = storeWith(c);
            for (Map.Entry<String, byte[]> e : c.entrySet()) {
                int[] calls = new int[1];
                java.util.List<Integer> sizes = new java.util.ArrayList<>();
                Optional<ByteBuffer> got = s.get(StoreKey.of(e.getKey()), n -> {
                    calls[0]++;
                    sizes.add(n);
                    // More room than asked for, and not zeroed: the value must be exactly [0, n).
                    ByteBuffer b = ByteBuffer.allocate(n + 16);
                    Arrays.fill(b.array(), (byte) 0x5A);
                    return b;
                });
                if (got.isEmpty()) {
                    throw Rule.fail("get('" + e.getKey() + "', allocate) found no value where one is stored");
                }
                if (calls[0] > 1 || calls[0] == 1 && sizes.get(0) != e.getValue().length) {
                    throw Rule.fail("get('" + e.getKey() + "', allocate) asked for buffers of " + sizes
                            + " bytes; at most one, of the value's " + e.getValue().length + " bytes, is allowed");
                }
                byte[] actual = new byte[got.get().remaining()];
                got.get().duplicate().get(actual);
                if (!Arrays.equals(actual, e.getValue())) {
                    throw Rule.fail("get('" + e.getKey() + "', allocate) returned " + actual.length + " bytes that"
                            + " differ from the " + e.getValue().length + " stored");
                }
            }
            int[] calls = new int[1];
            if (s.get(StoreKey.of("absent/key"), n -> {
                calls[0]++;
                return ByteBuffer.allocate(n);
            }).isPresent() || calls[0] != 0) {
                throw Rule.fail("get('absent/key', allocate) found a value or asked for a buffer");
            }
        });
    }

    // ---- asynchronous ----

    /**
     * The asynchronous operations agree with the blocking ones and report failure through their
     * future: {@code getAsync} (whole and ranged: bounded, from, suffix) and
     * {@code getPartialValuesAsync} give what {@code get} and {@code get_partial_values} give,
     * absent keys as an empty {@code Optional}; a range outside the value returns a future that
     * completes exceptionally with a {@link ZarrException} instead of throwing. When writable,
     * {@code setAsync} stores (and replaces) a value, leaving the buffer's position and limit,
     * and {@code eraseAsync} removes a key (an absent key completes normally); on a store that is
     * not writable both return a future that completes exceptionally with a
     * {@link ReadOnlyException}. No future is null and none takes longer than 60 s.
     *
     * <p>Spec: zarrj {@link Store#getAsync(StoreKey)} and the other asynchronous operations
     * ("reports failure through its future, never by throwing"); core.rst {@code get},
     * {@code set}, {@code erase}.
     *
     * <p>If this fails, check: an asynchronous override that throws on the calling thread (wrap
     * the client call and complete the future exceptionally); a client's "not found" turned into
     * an exception or a null instead of an empty {@code Optional}; a future completed before the
     * write is visible.
     */
    @Test
    @DisplayName("S25 asynchronous get, set and erase agree with the blocking ones and fail through"
            + " their future (spec: zarrj Store.getAsync)")
    public void required_S25_asyncOperationsAgreeWithBlockingOnes() {
        check("S25", "asynchronous get, set and erase agree with the blocking ones and fail through their future", () -> {
            byte[] a = pattern(1000, 60);
            Map<String, byte[]> c = content("async/a", a, "async/empty", new byte[0], "zarr.json", "{}");
            Store s = storeWith(c);
            StoreKey ka = StoreKey.of("async/a");
            StoreKey missing = StoreKey.of("async/missing");
            for (Map.Entry<String, byte[]> e : c.entrySet()) {
                Optional<ByteBuffer> got = completes("getAsync('" + e.getKey() + "')",
                        () -> s.getAsync(StoreKey.of(e.getKey())));
                expectBytes(e.getValue(), got, "getAsync('" + e.getKey() + "')");
            }
            expectBytes(null, completes("getAsync('async/missing')", () -> s.getAsync(missing)),
                    "getAsync('async/missing')");
            for (ByteRange r : List.of(ByteRange.of(10, 20), ByteRange.from(990), ByteRange.suffix(5), ByteRange.all(),
                    ByteRange.of(1000, 0))) {
                String call = "getAsync('async/a', " + r + ")";
                expectBytes(s.get(ka, r).map(StoreBytes::array).orElse(null), completes(call, () -> s.getAsync(ka, r)), call);
                String absentCall = "getAsync('async/missing', " + r + ")";
                expectBytes(null, completes(absentCall, () -> s.getAsync(missing, r)), absentCall);
            }
            failsWith(ZarrException.class, "getAsync('async/a', [2000, 2010))",
                    () -> s.getAsync(ka, ByteRange.of(2000, 10)));
            List<KeyRange> req = List.of(new KeyRange(ka, ByteRange.suffix(4)), new KeyRange(missing, ByteRange.all()),
                    new KeyRange(ka, ByteRange.of(0, 2)), new KeyRange(StoreKey.of("async/empty"), ByteRange.all()),
                    new KeyRange(ka, ByteRange.suffix(4)));
            List<Optional<ByteBuffer>> blocking = s.getPartialValues(req);
            List<Optional<ByteBuffer>> async = completes("getPartialValuesAsync", () -> s.getPartialValuesAsync(req));
            if (async == null) {
                throw Rule.fail("getPartialValuesAsync completed with null instead of a list");
            }
            expectEquals(req.size(), async.size(), "number of results of getPartialValuesAsync");
            for (int i = 0; i < req.size(); i++) {
                expectBytes(blocking.get(i).map(StoreBytes::array).orElse(null), async.get(i),
                        "getPartialValuesAsync, result " + i + " for " + req.get(i).key() + " " + req.get(i).range());
            }
            failsWith(ZarrException.class, "getPartialValuesAsync with a range past the end",
                    () -> s.getPartialValuesAsync(List.of(new KeyRange(ka, ByteRange.all()),
                            new KeyRange(ka, ByteRange.of(2000, 10)))));
            Store w = fresh();
            if (w.capabilities().writable()) {
                asyncWrites(w);
            } else {
                asyncWritesRefused(w);
            }
            Optional<Store> ro = newReadOnlyStore(c);
            if (ro.isPresent()) {
                asyncWritesRefused(track(ro.get()));
            }
        });
    }

    private void asyncWrites(Store w) {
        StoreKey k = StoreKey.of("async/w");
        ByteBuffer v = ByteBuffer.wrap(pattern(300, 61));
        completes("setAsync('async/w')", () -> w.setAsync(k, v));
        expectEquals(0 + "/" + 300, v.position() + "/" + v.limit(), "position/limit of the buffer after setAsync");
        completes("setAsync('async/w') again", () -> w.setAsync(k, ByteBuffer.wrap(pattern(20, 62))));
        completes("setAsync('async/other')", () -> w.setAsync(StoreKey.of("async/other"), ByteBuffer.wrap(utf8("o"))));
        completes("eraseAsync('async/gone')", () -> w.eraseAsync(StoreKey.of("async/gone")));
        completes("setAsync('async/gone')", () -> w.setAsync(StoreKey.of("async/gone"), ByteBuffer.wrap(utf8("g"))));
        completes("eraseAsync('async/gone')", () -> w.eraseAsync(StoreKey.of("async/gone")));
        Store r = reopened(w);
        expectValue(r, "async/w", pattern(20, 62), "after setAsync replaced the value");
        expectValue(r, "async/other", utf8("o"), "after setAsync");
        expectAbsent(r, "async/gone", "after eraseAsync");
    }

    private static void asyncWritesRefused(Store s) {
        failsWith(ReadOnlyException.class, "setAsync('ro/new') on a store that is not writable",
                () -> s.setAsync(StoreKey.of("ro/new"), ByteBuffer.wrap(utf8("x"))));
        failsWith(ReadOnlyException.class, "eraseAsync('zarr.json') on a store that is not writable",
                () -> s.eraseAsync(StoreKey.of("zarr.json")));
        expectAbsent(s, "ro/new", "after a refused setAsync");
    }

    private static void expectBytes(byte[] expected, Optional<ByteBuffer> got, String call) {
        if (got == null) {
            throw Rule.fail(call + " completed with null instead of an Optional");
        }
        byte[] actual = got.map(StoreBytes::array).orElse(null);
        if (!Arrays.equals(expected, actual)) {
            throw Rule.fail(call + " gave " + show(actual) + ", expected " + show(expected)
                    + (expected == null ? " (absent: an empty Optional)" : ""));
        }
    }

    private static final int ASYNC_TIMEOUT_SECONDS = 60;

    /** The future {@code op} returns, checked to be non-null; a throw instead of a future fails the rule. */
    private static <T> CompletableFuture<T> started(String call, Supplier<? extends CompletableFuture<T>> op) {
        CompletableFuture<T> f;
        try {
            f = op.get();
        } catch (AssertionFailedError e) {
            throw e;
        } catch (RuntimeException e) {
            throw Rule.fail(call + " threw " + e + " instead of returning a future; an asynchronous operation"
                    + " reports failure by completing its future exceptionally");
        }
        if (f == null) {
            throw Rule.fail(call + " returned null instead of a future");
        }
        return f;
    }

    /** What the future of {@code op} completes with; failing, or not completing in time, fails the rule. */
    private static <T> T completes(String call, Supplier<? extends CompletableFuture<T>> op) {
        CompletableFuture<T> f = started(call, op);
        try {
            return f.get(ASYNC_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw Rule.fail(call + " completed exceptionally: " + e.getCause());
        } catch (TimeoutException e) {
            throw Rule.fail(call + " did not complete within " + ASYNC_TIMEOUT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Rule.fail(call + " was interrupted");
        }
    }

    /** Checks that the future of {@code op} completes exceptionally with a {@code type}. */
    private static <T> void failsWith(Class<? extends RuntimeException> type, String call,
                                      Supplier<? extends CompletableFuture<T>> op) {
        CompletableFuture<T> f = started(call, op);
        try {
            T v = f.get(ASYNC_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            throw Rule.fail(call + " completed with " + v + "; expected it to complete exceptionally with a "
                    + type.getSimpleName());
        } catch (ExecutionException e) {
            if (!type.isInstance(e.getCause())) {
                throw Rule.fail(call + " completed exceptionally with " + e.getCause() + "; expected a "
                        + type.getSimpleName());
            }
        } catch (TimeoutException e) {
            throw Rule.fail(call + " did not complete within " + ASYNC_TIMEOUT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Rule.fail(call + " was interrupted");
        }
    }

    /**
     * {@link Store#ioConcurrency()}, the number of requests the store suggests keeping in flight,
     * is 0 (no suggestion) or positive.
     *
     * <p>Spec: zarrj {@link Store#ioConcurrency()}.
     *
     * <p>If this fails, check: a negative or computed value (for example from a configuration that
     * was not set) returned unchecked.
     */
    @Test
    @DisplayName("S26 ioConcurrency() is 0 or positive (spec: zarrj Store.ioConcurrency)")
    public void required_S26_ioConcurrencyIsNotNegative() {
        check("S26", "ioConcurrency() is 0 or positive", () -> {
            int n = fresh().ioConcurrency();
            if (n < 0) {
                throw Rule.fail("ioConcurrency() is " + n + "; expected 0 (no suggestion) or a positive number");
            }
        });
    }

    /**
     * {@link Store#writeConcurrency()}, the number of asynchronous writes the store suggests
     * keeping outstanding, is 0 (no suggestion) or positive; when writable, that many
     * {@code setAsync} calls (at least 4) on distinct keys, all started before any is awaited,
     * each store their own value, and the store is done with each value's buffer when its future
     * completes: the kit overwrites every buffer as soon as its future completes, and the values
     * read back are still the ones given.
     *
     * <p>Spec: zarrj {@link Store#writeConcurrency()} and {@link Store#setAsync} (zarrj reuses a
     * value's memory for the next chunk once the future completes).
     *
     * <p>If this fails, check: a negative or computed value returned unchecked; a
     * {@code setAsync} that completes its future before it has written (or copied) the bytes, or
     * that keeps the caller's buffer to write it later; writes on shared threads that mix up
     * their keys or values.
     */
    @Test
    @DisplayName("S30 writeConcurrency() is 0 or positive, and concurrent setAsync calls are done with"
            + " their buffers when they complete (spec: zarrj Store.writeConcurrency)")
    public void required_S30_concurrentAsyncWritesReleaseTheirBuffers() {
        check("S30", "writeConcurrency() is 0 or positive, and concurrent setAsync calls are done with their"
                + " buffers when they complete", () -> {
            Store w = fresh();
            int n = w.writeConcurrency();
            if (n < 0) {
                throw Rule.fail("writeConcurrency() is " + n + "; expected 0 (no suggestion) or a positive number");
            }
            if (!w.capabilities().writable()) {
                return;
            }
            int count = Math.max(4, Math.min(n, 64));
            List<CompletableFuture<Void>> done = new ArrayList<>(count);
            List<byte[]> values = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                byte[] value = pattern(4096 + 17 * i, 70 + i);
                ByteBuffer buffer = ByteBuffer.allocateDirect(value.length).put(value).flip();
                values.add(value);
                StoreKey key = StoreKey.of("concurrent/" + i);
                done.add(started("setAsync('" + key + "')", () -> w.setAsync(key, buffer))
                        .whenComplete((ok, e) -> {
                            // What the caller does with its memory once the write is done.
                            for (int j = 0; j < buffer.capacity(); j++) {
                                buffer.put(j, (byte) 0xEE);
                            }
                        }));
            }
            for (int i = 0; i < count; i++) {
                int k = i;
                completes("setAsync('concurrent/" + i + "')", () -> done.get(k));
            }
            Store r = reopened(w);
            for (int i = 0; i < count; i++) {
                expectValue(r, "concurrent/" + i, values.get(i), "after " + count + " setAsync calls at once,"
                        + " each buffer overwritten as its future completed");
            }
        });
    }

    private static final String S31 = "a range reader's getAll with an allocator returns exactly the ranges";

    /**
     * {@link RangeReader#getAll(List, IntFunction)}: for a present value it
     * returns exactly what {@code getAll} returns, in the order given (bounded, from, suffix and
     * empty ranges), whether the store reads into the buffers it asks for or returns its own; it
     * asks at most once per range, each time for a range's length, and never for an absent key.
     * The kit's buffers are direct and heap alternately, larger than asked and not zeroed.
     *
     * <p>Spec: zarrj {@link RangeReader} (a shard's inner chunks are read through it into memory
     * the read reuses); core.rst {@code get_partial_values}.
     *
     * <p>If this fails, check: a buffer returned with its limit at the allocated capacity rather
     * than at the range's length; a buffer asked for with the value's size instead of the
     * range's; a range read into a buffer that was then not returned; the allocator called for an
     * absent key.
     */
    @Test
    @DisplayName("S31 a range reader's getAll with an allocator returns exactly the ranges"
            + " (spec: zarrj RangeReader.getAll)")
    public void required_S31_rangeReaderReadsIntoAllocatedBuffers() {
        check("S31", S31, () -> {
            byte[] v = pattern(300_000, 31);
            Store s = storeWith(content("large/c/0", v));
            List<ByteRange> ranges = List.of(ByteRange.of(0, 10), ByteRange.of(299_990, 10),
                    ByteRange.from(150_000), ByteRange.suffix(7), ByteRange.of(10, 0), ByteRange.of(1000, 200_000));
            List<Long> lengths = new ArrayList<>();
            for (ByteRange r : ranges) {
                long[] at = r.resolve(v.length);
                lengths.add(at[1] - at[0]);
            }
            List<Long> asked = Collections.synchronizedList(new ArrayList<>());
            IntFunction<ByteBuffer> allocate = n -> {
                asked.add((long) n);
                // More room than asked for, and not zeroed: each range must be exactly [0, n).
                ByteBuffer b = asked.size() % 2 == 0 ? ByteBuffer.allocateDirect(n + 16) : ByteBuffer.allocate(n + 16);
                for (int i = 0; i < b.capacity(); i++) {
                    b.put(i, (byte) 0x5A);
                }
                return b;
            };
            String call = "rangeReader('large/c/0').getAll(" + ranges + ", allocate)";
            try (RangeReader r = s.rangeReader(StoreKey.of("large/c/0"))) {
                if (r == null) {
                    throw Rule.fail("rangeReader('large/c/0') returned null");
                }
                expectReads(r.getAll(ranges, allocate), v, ranges, call);
            }
            List<Long> left = new ArrayList<>(lengths);
            for (long n : asked) {
                if (!left.remove(n)) {
                    throw Rule.fail(call + " asked for buffers of " + asked + " bytes; at most one per range, of"
                            + " the range's length " + lengths + ", is allowed");
                }
            }
            asked.clear();
            try (RangeReader absent = s.rangeReader(StoreKey.of("absent/key"))) {
                List<Optional<ByteBuffer>> got = absent.getAll(ranges.subList(0, 2), allocate);
                if (got == null || got.size() != 2 || got.stream().anyMatch(o -> o == null || o.isPresent())
                        || !asked.isEmpty()) {
                    throw Rule.fail("rangeReader('absent/key').getAll(2 ranges, allocate) gave " + got + " and asked"
                            + " for buffers of " + asked + " bytes; expected two empty values and no buffer");
                }
            }
        });
    }

    private static final String S32 = "getLent returns exactly the value and keeps it until released";

    /**
     * {@link Store#getLent}: for a present value it returns exactly the value (empty, one byte,
     * 300 kB, 2.5 MiB and 1.5 MiB, the last two mapped by a file store), whether it reads into the memory the kit lends
     * (heap and direct alternately, larger than asked, not zeroed; at most once, of the value's
     * size) or lends memory of its own; what it lends still holds the value after the other
     * values were read, until the kit runs every release action it registered, once, after which
     * the store still reads every value. For an absent key it returns empty and neither asks for
     * memory nor registers anything.
     *
     * <p>Spec: zarrj {@link Store#getLent} and {@link ReadMemory} (whole reads of plain chunks
     * copy out of it); core.rst {@code get}.
     *
     * <p>If this fails, check: a buffer returned with its limit at the allocated capacity rather
     * than at the value's size; memory given back, reused or unmapped before the release (one
     * value's mapping reused for the next); a release action that damages what the store reads
     * later; memory asked for, or a release registered, for an absent key.
     */
    @Test
    @DisplayName("S32 getLent returns exactly the value and keeps it until released" + SPEC)
    public void required_S32_getLentReturnsTheValueUntilReleased() {
        check("S32", S32, () -> {
            Map<String, byte[]> c = content(
                    "empty", new byte[0],
                    "one", new byte[] {42},
                    "medium/c/0", pattern(300_000, 32),
                    "large/c/0", pattern((5 << 20) / 2, 33),
                    "large/c/1", pattern((3 << 20) / 2, 34));
            Store s = storeWith(c);
            List<Runnable> releases = new ArrayList<>();
            List<Integer> sizes = new ArrayList<>();
            int[] allocations = new int[1];
            ReadMemory memory = new ReadMemory() {
                @Override
                public ByteBuffer allocate(int size) {
                    sizes.add(size);
                    // More room than asked for, and not zeroed: the value must be exactly [0, size).
                    ByteBuffer b = allocations[0]++ % 2 == 0 ? ByteBuffer.allocateDirect(size + 16)
                            : ByteBuffer.allocate(size + 16);
                    for (int i = 0; i < b.capacity(); i++) {
                        b.put(i, (byte) 0x5A);
                    }
                    return b;
                }

                @Override
                public void onRelease(Runnable release) {
                    releases.add(release);
                }
            };
            Map<String, ByteBuffer> lent = new LinkedHashMap<>();
            try {
                for (Map.Entry<String, byte[]> e : c.entrySet()) {
                    sizes.clear();
                    Optional<ByteBuffer> got = s.getLent(StoreKey.of(e.getKey()), memory);
                    if (got == null || got.isEmpty()) {
                        throw Rule.fail("getLent('" + e.getKey() + "', memory) found no value where one is stored");
                    }
                    if (sizes.size() > 1 || sizes.size() == 1 && sizes.get(0) != e.getValue().length) {
                        throw Rule.fail("getLent('" + e.getKey() + "', memory) asked for buffers of " + sizes
                                + " bytes; at most one, of the value's " + e.getValue().length + " bytes, is allowed");
                    }
                    lent.put(e.getKey(), got.get());
                }
                for (Map.Entry<String, ByteBuffer> e : lent.entrySet()) {
                    byte[] actual = new byte[e.getValue().remaining()];
                    e.getValue().duplicate().get(actual);
                    if (!Arrays.equals(actual, c.get(e.getKey()))) {
                        throw Rule.fail("getLent('" + e.getKey() + "', memory) returned " + actual.length + " bytes that"
                                + " differ from the " + c.get(e.getKey()).length + " stored, read after every value"
                                + " was lent and before any was released");
                    }
                }
                sizes.clear();
                int registered = releases.size();
                Optional<ByteBuffer> absent = s.getLent(StoreKey.of("absent/key"), memory);
                if (absent == null || absent.isPresent() || !sizes.isEmpty() || releases.size() != registered) {
                    throw Rule.fail("getLent('absent/key', memory) gave " + absent + ", asked for buffers of " + sizes
                            + " bytes and registered " + (releases.size() - registered) + " release action(s);"
                            + " expected empty and nothing asked or registered");
                }
            } finally {
                lent.clear();
                for (Runnable r : releases) {
                    r.run();
                }
            }
            for (Map.Entry<String, byte[]> e : c.entrySet()) {
                expectValue(s, e.getKey(), e.getValue(), "after getLent's release actions ran");
            }
        });
    }

    // ---- conditional writes ----

    private static final String S27 = "conditional writes store only if the key is absent or unchanged";

    /**
     * Optional ({@link Store#conditionalWrites()} present): the writes that take effect only if a
     * key is as the writer last saw it. {@code getVersioned} gives what {@code get} gives (absent:
     * empty) with a non-empty version; {@code setIfAbsent} stores on an absent key and returns
     * true, and on a present key returns false and leaves the value; {@code setIfMatch} with the
     * current version stores, after which the version differs; with a stale version (after another
     * {@code set} or conditional write) or on an erased key it returns false and leaves the key as
     * it is; both store the value's bytes from position to limit and leave the buffer's position
     * and limit; a store that is not writable (or {@link #newReadOnlyStore}'s store, when it claims
     * conditional writes) refuses both with {@link ReadOnlyException}. Four threads each make 50
     * compare-and-set increments of one counter value (read with its version, retry when
     * {@code setIfMatch} returns false): the counter ends at exactly 200.
     *
     * <p>Spec: zarrj {@link ConditionalWrites} (S3's {@code If-None-Match: *} and
     * {@code If-Match}); not part of core.rst's abstract store interface.
     *
     * <p>If this fails, check: a version that does not change when the value does (a modification
     * time coarser than the writes, a generation kept per store object rather than per write); a
     * compare and a write that are two steps, so that two writers both see the version match (the
     * counter ends below 200); the version compared but ignored when it differs.
     */
    @TestFactory
    @DisplayName("S27 conditional writes store only if the key is absent or unchanged"
            + " (optional: conditionalWrites; spec: zarrj ConditionalWrites)")
    public Stream<DynamicTest> optional_S27_conditionalWritesStoreOnlyIfUnchanged() {
        Store s = fresh();
        Optional<ConditionalWrites> claimed = s.conditionalWrites();
        if (claimed == null || claimed.isEmpty()) {
            Rule.notClaimed("optional_S27", subject);
            return Stream.empty();
        }
        return gated(Optional.of(s), "S27", S27, w -> {
            ConditionalWrites c = claimed.get();
            if (w.capabilities().writable()) {
                conditionalWritesHold(w, c);
                conditionalCounter(w, c);
            } else {
                conditionalWritesRefused(w, c, Map.of());
            }
            Map<String, byte[]> content = content("cw/a", pattern(40, 70), "zarr.json", "{}");
            Optional<Store> ro = newReadOnlyStore(content);
            if (ro.isPresent()) {
                Optional<ConditionalWrites> roc = track(ro.get()).conditionalWrites();
                if (roc.isPresent()) {
                    conditionalWritesRefused(ro.get(), roc.get(), content);
                }
            }
        });
    }

    private static void conditionalWritesHold(Store s, ConditionalWrites c) {
        StoreKey a = StoreKey.of("cw/a");
        StoreKey empty = StoreKey.of("cw/empty");
        StoreKey fresh = StoreKey.of("cw/new");
        s.set(a, ByteBuffer.wrap(pattern(300, 71)));
        s.set(empty, ByteBuffer.wrap(new byte[0]));
        String va = versionAgreeingWithGet(s, c, "cw/a", "after set");
        versionAgreeingWithGet(s, c, "cw/empty", "after set of an empty value");
        versionAgreeingWithGet(s, c, "cw/absent", "of a key never written");

        byte[] whole = pattern(50, 72);
        ByteBuffer window = ByteBuffer.wrap(whole).position(5).limit(45);
        expectTrue(c.setIfAbsent(fresh, window), "setIfAbsent('cw/new') on an absent key returned false");
        expectEquals("5/45", window.position() + "/" + window.limit(), "position/limit of the buffer after setIfAbsent");
        expectValue(s, "cw/new", Arrays.copyOfRange(whole, 5, 45), "after setIfAbsent (the buffer's position to limit)");
        expectTrue(!c.setIfAbsent(a, ByteBuffer.wrap(utf8("other"))),
                "setIfAbsent('cw/a') on a present key returned true");
        expectValue(s, "cw/a", pattern(300, 71), "after setIfAbsent on a present key");
        expectTrue(!c.setIfAbsent(empty, ByteBuffer.wrap(utf8("other"))),
                "setIfAbsent('cw/empty') on a key holding an empty value returned true");
        expectValue(s, "cw/empty", new byte[0], "after setIfAbsent on a key holding an empty value");

        ByteBuffer next = ByteBuffer.wrap(whole).position(10).limit(30);
        expectTrue(c.setIfMatch(a, next, va), "setIfMatch('cw/a') with its current version returned false");
        expectEquals("10/30", next.position() + "/" + next.limit(), "position/limit of the buffer after setIfMatch");
        expectValue(s, "cw/a", Arrays.copyOfRange(whole, 10, 30), "after setIfMatch with the current version");
        String va2 = versionAgreeingWithGet(s, c, "cw/a", "after setIfMatch");
        if (va2.equals(va)) {
            throw Rule.fail("the version of 'cw/a' is still " + va + " after setIfMatch stored a different value;"
                    + " a version must change whenever the value does");
        }
        expectTrue(!c.setIfMatch(a, ByteBuffer.wrap(utf8("stale")), va),
                "setIfMatch('cw/a') with the version read before the last setIfMatch returned true");
        expectValue(s, "cw/a", Arrays.copyOfRange(whole, 10, 30), "after setIfMatch with a stale version");

        s.set(a, ByteBuffer.wrap(pattern(120, 73)));
        expectTrue(!c.setIfMatch(a, ByteBuffer.wrap(utf8("lost")), va2),
                "setIfMatch('cw/a') with the version read before another set returned true: it would overwrite"
                        + " that set");
        expectValue(s, "cw/a", pattern(120, 73), "after setIfMatch with a version older than a set");
        String va3 = versionAgreeingWithGet(s, c, "cw/a", "after set");
        expectTrue(c.setIfMatch(a, ByteBuffer.wrap(pattern(7, 74)), va3),
                "setIfMatch('cw/a') with the version read after a set returned false");
        expectValue(s, "cw/a", pattern(7, 74), "after setIfMatch with the version read after a set");

        String vn = versionAgreeingWithGet(s, c, "cw/new", "after setIfAbsent");
        s.erase(fresh);
        expectTrue(!c.setIfMatch(fresh, ByteBuffer.wrap(utf8("back")), vn),
                "setIfMatch('cw/new') on an erased key returned true");
        expectAbsent(s, "cw/new", "after setIfMatch on an erased key");
        expectTrue(c.setIfAbsent(fresh, ByteBuffer.wrap(utf8("again"))),
                "setIfAbsent('cw/new') after an erase returned false");
        expectValue(s, "cw/new", utf8("again"), "after setIfAbsent of an erased key");
    }

    /** {@code getVersioned(key)}, checked against {@code get(key)}; the version, or "" when absent. */
    private static String versionAgreeingWithGet(Store s, ConditionalWrites c, String key, String when) {
        StoreKey k = StoreKey.of(key);
        Optional<VersionedValue> v = c.getVersioned(k);
        if (v == null) {
            throw Rule.fail("getVersioned('" + key + "') " + when + " returned null instead of an Optional");
        }
        byte[] expected = s.get(k).map(StoreBytes::array).orElse(null);
        byte[] actual = v.map(x -> StoreBytes.array(x.value())).orElse(null);
        if (!Arrays.equals(expected, actual)) {
            throw Rule.fail("getVersioned('" + key + "') " + when + " gave " + show(actual) + ", but get gives "
                    + show(expected));
        }
        return v.map(VersionedValue::version).orElse("");
    }

    private static void expectTrue(boolean condition, String failure) {
        if (!condition) {
            throw Rule.fail(failure);
        }
    }

    private static void conditionalWritesRefused(Store s, ConditionalWrites c, Map<String, byte[]> content) {
        String v = versionAgreeingWithGet(s, c, "cw/a", "in a store that is not writable");
        expectReadOnly("setIfAbsent('cw/new') on a store that is not writable",
                () -> c.setIfAbsent(StoreKey.of("cw/new"), ByteBuffer.wrap(utf8("x"))));
        expectReadOnly("setIfMatch('cw/a') with its current version on a store that is not writable",
                () -> c.setIfMatch(StoreKey.of("cw/a"), ByteBuffer.wrap(utf8("x")), v.isEmpty() ? "0" : v));
        expectAbsent(s, "cw/new", "after a refused setIfAbsent");
        for (Map.Entry<String, byte[]> e : content.entrySet()) {
            expectValue(s, e.getKey(), e.getValue(), "after refused conditional writes");
        }
    }

    private static final int COUNTER_THREADS = 4;
    private static final int COUNTER_INCREMENTS = 50;
    /** Attempts of one increment before the rule gives up: a livelock, not contention. */
    private static final int COUNTER_ATTEMPTS = 100_000;

    /**
     * {@link #COUNTER_THREADS} threads each add 1 to a counter {@link #COUNTER_INCREMENTS} times by
     * compare and set; a lost update leaves the counter short.
     */
    private static void conditionalCounter(Store s, ConditionalWrites c) {
        StoreKey k = StoreKey.of("cw/counter");
        expectTrue(c.setIfAbsent(k, ByteBuffer.wrap(utf8("0"))), "setIfAbsent('cw/counter') returned false");
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicInteger stored = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(COUNTER_THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < COUNTER_THREADS; t++) {
                done.add(pool.submit(() -> {
                    await(start);
                    for (int i = 0; i < COUNTER_INCREMENTS && problems.isEmpty(); i++) {
                        if (!increment(c, k, problems)) {
                            return;
                        }
                        stored.incrementAndGet();
                    }
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(300, TimeUnit.SECONDS);
            }
        } catch (ExecutionException e) {
            throw Rule.fail("a thread incrementing the counter failed: " + e.getCause());
        } catch (TimeoutException e) {
            throw Rule.fail("the threads incrementing the counter did not finish within 300 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Rule.fail("interrupted while threads incremented the counter");
        } finally {
            pool.shutdownNow();
        }
        if (!problems.isEmpty()) {
            throw Rule.fail(problems.size() + " problems while " + COUNTER_THREADS + " threads incremented a counter"
                    + " by compare and set, the first: " + problems.peek());
        }
        byte[] last = s.get(k).map(StoreBytes::array).orElse(null);
        String found = last == null ? "absent" : new String(last, java.nio.charset.StandardCharsets.UTF_8);
        int expected = COUNTER_THREADS * COUNTER_INCREMENTS;
        if (!found.equals(Integer.toString(expected))) {
            throw Rule.fail(COUNTER_THREADS + " threads made " + stored.get() + " compare-and-set increments of"
                    + " 'cw/counter' that setIfMatch reported stored, but the counter reads " + found + ", not "
                    + expected + ": updates were lost");
        }
    }

    /** Adds 1 to the counter, retrying while another thread came first; false (with a problem) when it cannot. */
    private static boolean increment(ConditionalWrites c, StoreKey k, ConcurrentLinkedQueue<String> problems) {
        for (int attempt = 0; attempt < COUNTER_ATTEMPTS; attempt++) {
            Optional<VersionedValue> v;
            int n;
            try {
                v = c.getVersioned(k);
                if (v.isEmpty()) {
                    problems.add("getVersioned('" + k + "') found no counter");
                    return false;
                }
                n = Integer.parseInt(new String(StoreBytes.array(v.get().value()),
                        java.nio.charset.StandardCharsets.UTF_8));
                if (c.setIfMatch(k, ByteBuffer.wrap(utf8(Integer.toString(n + 1))), v.get().version())) {
                    return true;
                }
            } catch (RuntimeException e) {
                problems.add("an increment threw " + e);
                return false;
            }
        }
        problems.add("an increment found the counter changed " + COUNTER_ATTEMPTS + " times in a row");
        return false;
    }

    // ---- maintenance ----

    /**
     * Leftovers ({@link Store#leftovers()}) are never values, and removing them
     * ({@link Store#removeLeftovers}) keeps every value — what a store can be held to without
     * knowing how it stores data. After sets, replacements and erases (on the written store and
     * on the store reopened after writing), and on a read-only store: {@code leftovers()} returns
     * normally and names no stored key's value; {@code removeLeftovers(Duration.ZERO)} leaves
     * every key reading back as before (and listing as before), returns only leftovers that
     * {@code leftovers()} had reported as not live, and a second call right after returns none
     * of those again; {@code removeLeftovers(null)} throws {@link NullPointerException}. When the
     * store is writable, {@code removeLeftovers(Duration.ZERO)} called over and over while
     * another thread makes 200 {@code set}s loses no write: every value reads back whole
     * afterwards.
     *
     * <p>A leftover names a value when its location, with {@code \} read as {@code /}, is
     * the key or ends with {@code /} and the key.
     *
     * <p>Spec: zarrj {@link Store#leftovers()}, {@link Store#removeLeftovers}, {@link Leftover}:
     * "Never removes a value and never a live leftover"; core.rst, "Abstract store interface".
     *
     * <p>If this fails, check: values mistaken for leftovers (an empty or a hidden file is still
     * a value); the temporary file of a {@code set} in progress in this process not known to be
     * live (a lock that this process cannot see, a registry consulted after the file exists);
     * a temporary file renamed into place after it was found, then removed under its new name.
     */
    @Test
    @DisplayName("S24 leftovers are never values, and removing them keeps every value"
            + " (spec: zarrj Store.leftovers, Store.removeLeftovers)")
    public void required_S24_leftoversAreNeverValues() {
        check("S24", "leftovers are never values, and removing them keeps every value", () -> {
            Map<String, byte[]> c = content(
                    "leftovers/a", pattern(300, 41),
                    "leftovers/c/0/0", pattern(100_000, 42),
                    "leftovers/deep/x y/\u00fc", "\u00fc value",
                    "leftovers/empty", new byte[0],
                    "leftovers/back", pattern(70, 43),
                    "zarr.json", "{}");
            Store s = fresh();
            if (!s.capabilities().writable()) {
                leftoversKeepValues(storeWith(c), c, Set.of(), "a read-only store");
                return;
            }
            Set<String> erased = Set.of("leftovers/gone", "leftovers/sub/gone");
            s.set(StoreKey.of("leftovers/a"), ByteBuffer.wrap(pattern(10, 40)));
            for (Map.Entry<String, byte[]> e : new TreeMap<>(c).entrySet()) {
                s.set(StoreKey.of(e.getKey()), ByteBuffer.wrap(e.getValue().clone()));
            }
            for (String k : erased) {
                s.set(StoreKey.of(k), ByteBuffer.wrap(pattern(50, 44)));
            }
            s.erase(StoreKey.of("leftovers/back"));
            s.set(StoreKey.of("leftovers/back"), ByteBuffer.wrap(c.get("leftovers/back").clone()));
            s.eraseValues(List.of(StoreKey.of("leftovers/gone"), StoreKey.of("leftovers/sub/gone")));
            leftoversKeepValues(s, c, erased, "the written store");
            leftoversKeepValues(reopened(s), c, erased, "the store reopened after writing");
            Optional<Store> ro = newReadOnlyStore(c);
            if (ro.isPresent()) {
                leftoversKeepValues(track(ro.get()), c, Set.of(), "the store of newReadOnlyStore");
            }
            removalDuringWrites(fresh());
        });
    }

    private void leftoversKeepValues(Store s, Map<String, byte[]> c, Set<String> erased, String where) {
        List<Leftover> before = leftoversNamingNoValue(s, c.keySet(), where);
        Set<String> dead = before.stream().filter(l -> !l.live()).map(Leftover::location).collect(Collectors.toSet());
        List<Leftover> removed = removeLeftoversNow(s, c.keySet(), where);
        for (Leftover l : removed) {
            if (!dead.contains(l.location())) {
                throw Rule.fail(where + ": removeLeftovers(0) removed " + l + ", which leftovers() did not report"
                        + " as a leftover that no writer owns; it reported " + before);
            }
        }
        expectValues(s, c, erased, where + ", after removeLeftovers(0)");
        Set<String> gone = removed.stream().map(Leftover::location).collect(Collectors.toSet());
        for (Leftover l : removeLeftoversNow(s, c.keySet(), where + ", called again")) {
            if (gone.contains(l.location())) {
                throw Rule.fail(where + ": a second removeLeftovers(0) removed " + l + " again");
            }
        }
        for (Leftover l : leftoversNamingNoValue(s, c.keySet(), where + ", after removeLeftovers(0)")) {
            if (gone.contains(l.location())) {
                throw Rule.fail(where + ": leftovers() still reports " + l + ", which removeLeftovers(0) removed");
            }
        }
        expectValues(s, c, erased, where + ", after removeLeftovers(0) twice");
        try {
            s.removeLeftovers(null);
        } catch (NullPointerException expected) {
            return;
        } catch (RuntimeException e) {
            throw Rule.fail(where + ": removeLeftovers(null) threw " + e + "; expected a NullPointerException");
        }
        throw Rule.fail(where + ": removeLeftovers(null) returned normally; expected a NullPointerException");
    }

    /** {@code s.leftovers()}, checked to be a list of leftovers none of which names a value of {@code keys}. */
    private static List<Leftover> leftoversNamingNoValue(Store s, Collection<String> keys, String where) {
        List<Leftover> found = s.leftovers();
        checkLeftovers(found, keys, where + ": leftovers()");
        return found;
    }

    /** {@code s.removeLeftovers(Duration.ZERO)}, checked as {@link #leftoversNamingNoValue}, none of them live. */
    private static List<Leftover> removeLeftoversNow(Store s, Collection<String> keys, String where) {
        List<Leftover> removed = s.removeLeftovers(Duration.ZERO);
        checkLeftovers(removed, keys, where + ": removeLeftovers(0)");
        for (Leftover l : removed) {
            if (l.live()) {
                throw Rule.fail(where + ": removeLeftovers(0) returned " + l + ", which is live");
            }
        }
        return removed;
    }

    private static void checkLeftovers(List<Leftover> leftovers, Collection<String> keys, String call) {
        if (leftovers == null) {
            throw Rule.fail(call + " returned null instead of a list");
        }
        for (Leftover l : leftovers) {
            if (l == null) {
                throw Rule.fail(call + " returned a list holding null: " + leftovers);
            }
            String location = l.location().replace('\\', '/');
            for (String k : keys) {
                if (location.equals(k) || location.endsWith("/" + k)) {
                    throw Rule.fail(call + " names the value of key '" + k + "' as a leftover: " + l);
                }
            }
        }
    }

    private static void expectValues(Store s, Map<String, byte[]> c, Set<String> erased, String what) {
        for (Map.Entry<String, byte[]> e : c.entrySet()) {
            expectValue(s, e.getKey(), e.getValue(), what);
        }
        for (String k : erased) {
            expectAbsent(s, k, what + ", an erased key");
        }
        if (s.capabilities().listable()) {
            expectEquals(new ArrayList<>(new TreeMap<>(c).keySet()), names(s.list()), what + ": list()");
        }
    }

    private static final int RACING_SETS = 200;
    private static final int RACING_KEYS = 100;

    private static String racingKey(int i) {
        return "racing/d" + (i % 10) + "/k" + (i % RACING_KEYS);
    }

    private static byte[] racingValue(int i) {
        return pattern(1000 + 37 * i, 50 + i);
    }

    /**
     * One thread makes {@link #RACING_SETS} sets (each key twice) and reads each back, while this
     * thread removes leftovers over and over until it is done; then every key holds its last value.
     */
    private void removalDuringWrites(Store s) throws Exception {
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < RACING_KEYS; k++) {
            keys.add(racingKey(k));
        }
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> writer = pool.submit(() -> {
                await(start);
                for (int i = 0; i < RACING_SETS; i++) {
                    StoreKey k = StoreKey.of(racingKey(i));
                    byte[] v = racingValue(i);
                    try {
                        s.set(k, ByteBuffer.wrap(v));
                        byte[] back = s.get(k).map(StoreBytes::array).orElse(null);
                        if (!Arrays.equals(v, back)) {
                            problems.add("set " + show(v) + " to " + k + " and read back " + show(back));
                        }
                    } catch (RuntimeException e) {
                        problems.add("set of " + k + " threw " + e);
                    }
                }
            });
            start.countDown();
            int calls = 0;
            do {
                removeLeftoversNow(s, keys, "while another thread sets values (call " + ++calls + ")");
                leftoversNamingNoValue(s, keys, "while another thread sets values");
            } while (!writer.isDone());
            writer.get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        if (!problems.isEmpty()) {
            throw Rule.fail("while removeLeftovers(0) ran, " + problems.size() + " sets failed or were lost, the first: "
                    + problems.peek());
        }
        Map<String, byte[]> last = new TreeMap<>();
        for (int i = RACING_SETS - RACING_KEYS; i < RACING_SETS; i++) {
            last.put(racingKey(i), racingValue(i));
        }
        expectValues(s, last, Set.of(), "after removeLeftovers(0) ran during 200 sets (the written store)");
        expectValues(reopened(s), last, Set.of(), "after removeLeftovers(0) ran during 200 sets");
    }
}
