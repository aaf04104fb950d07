package dev.zarrj.store.zip;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/**
 * A seeded mutation fuzzer of zip archives that hold Zarr hierarchies: base archives written by
 * zarrj (stored and deflated) and by commons-compress with ZIP64 records, mutated where a zip's
 * structure lies (bit flips, truncations at record boundaries, sizes, offsets and counts pushed to
 * extremes or pointed at other records, central-directory entries duplicated or removed, comment
 * lengths that lie, names with {@code /}, {@code \}, {@code ..}, NUL, or empty), then read through
 * {@link ZipStores#open} and {@link Zarr}. {@link #check} returns what broke the promise: an
 * exception that is not a {@link ZarrException}, or a value read whole that differs from the one
 * written.
 */
final class ZipFuzz {
    static final int LOCAL = 0x04034b50;
    static final int CENTRAL = 0x02014b50;
    static final int EOCD = 0x06054b50;
    static final int ZIP64_EOCD = 0x06064b50;
    static final int ZIP64_LOCATOR = 0x07064b50;

    private static final Zarr ZARR = Zarr.defaults();

    /** A valid archive, the values of its keys, and the arrays it holds. */
    record Base(String name, byte[] zip, Map<String, byte[]> values, Map<String, NdArray> arrays) {}

    /** A mutated archive; {@code keysMayChange} when the mutation may legitimately add or remove keys. */
    record Case(byte[] zip, String what, boolean keysMayChange) {}

    /** A numeric field of a record: where, how wide. */
    record Field(int at, int width, String what) {}

    /** The records of an archive, found by walking it from its end record. */
    record Layout(List<Field> fields, List<Integer> boundaries, List<int[]> central, List<int[]> names,
            int eocd, int cdStart, int cdEnd) {}

    private ZipFuzz() {}

    // ---- bases ----

    /** The Zarr hierarchy written to a memory store: several arrays, codecs and data types. */
    static Store hierarchy() {
        Store s = ZARR.openStore("memory:");
        ZARR.createGroup(s, "/");
        ZARR.createGroup(s, "/g");
        SplittableRandom r = new SplittableRandom(7);
        write(ZARR.array(DataTypes.INT32, 20, 30).chunks(8, 8).codec("gzip", Map.of("level", 1)).create(s, "/a"), r);
        write(ZARR.array(DataTypes.UINT8, 100).chunks(16).create(s, "/g/b"), r);
        write(ZARR.array(DataTypes.FLOAT64, 10, 10).chunks(5, 5).codecs(
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"crc32c\"}]")
                .create(s, "/g/c"), r);
        write(ZARR.array(DataTypes.INT16, 9).chunks(4).create(s, "/g/d"), r);
        return s;
    }

    private static void write(ZarrArray a, SplittableRandom r) {
        NdArray d = NdArray.allocate(a.dataType(), a.shape());
        byte[] b = new byte[d.byteSize()];
        r.nextBytes(b);
        if (a.dataType() == DataTypes.FLOAT64) {
            for (int i = 7; i < b.length; i += 8) {
                b[i] = 0x3f; // finite numbers, so that values compare equal
            }
        }
        a.write(NdArray.wrap(a.dataType(), ByteBuffer.wrap(b), a.shape()));
    }

    static Map<String, byte[]> values(Store s) {
        Map<String, byte[]> out = new TreeMap<>();
        for (StoreKey k : s.list()) {
            out.put(k.value(), bytes(s.get(k).orElseThrow()));
        }
        return out;
    }

    static Map<String, NdArray> arrays(Store s) {
        Map<String, NdArray> out = new TreeMap<>();
        for (String p : List.of("/a", "/g/b", "/g/c", "/g/d")) {
            out.put(p, ZARR.openArray(s, p).read());
        }
        return out;
    }

    /**
     * The bases: zarrj's archives stored and deflated, a ZIP64 one, and, when {@code zipTool},
     * archives made by the {@code zip} command ({@code -0} and deflated) from a directory store.
     */
    static List<Base> bases(Path tmp, boolean zipTool) throws IOException, InterruptedException {
        Store h = hierarchy();
        Map<String, byte[]> values = values(h);
        Map<String, NdArray> arrays = arrays(h);
        List<Base> out = new ArrayList<>();
        for (ZipStoreOptions.Compression c : ZipStoreOptions.Compression.values()) {
            Path z = tmp.resolve("base-" + c + ".zip");
            ZipStores.copy(h, z, ZipStoreOptions.defaults().withCompression(c));
            out.add(new Base("zarrj " + c, Files.readAllBytes(z), values, arrays));
            Files.delete(z);
        }
        Path z64 = tmp.resolve("base-zip64.zip");
        try (ZipArchiveOutputStream zo = new ZipArchiveOutputStream(z64)) {
            zo.setUseZip64(Zip64Mode.Always);
            boolean deflate = false;
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                ZipArchiveEntry ze = new ZipArchiveEntry(e.getKey());
                ze.setMethod(deflate ? ZipArchiveEntry.DEFLATED : ZipArchiveEntry.STORED);
                ze.setSize(e.getValue().length);
                if (!deflate) {
                    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                    crc.update(e.getValue());
                    ze.setCrc(crc.getValue());
                }
                deflate = !deflate;
                zo.putArchiveEntry(ze);
                zo.write(e.getValue());
                zo.closeArchiveEntry();
            }
        }
        out.add(new Base("zip64", Files.readAllBytes(z64), values, arrays));
        Files.delete(z64);
        if (zipTool) {
            Path dir = tmp.resolve("dirstore");
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                Path p = dir.resolve(e.getKey());
                Files.createDirectories(p.getParent());
                Files.write(p, e.getValue());
            }
            for (String level : List.of("-0", "-6")) {
                Path z = tmp.resolve("tool" + level + ".zip");
                Process p = new ProcessBuilder("zip", "-q", "-r", level, z.toString(), ".").directory(dir.toFile())
                        .redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (p.waitFor() != 0) {
                    throw new IOException("zip " + level + " failed");
                }
                out.add(new Base("zip " + level, Files.readAllBytes(z), values, arrays));
                Files.delete(z);
            }
        }
        return out;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    // ---- layout ----

    /** The layout, or null when the archive (mutated before) cannot be walked. */
    static Layout layout(byte[] z) {
        try {
            return walk(z);
        } catch (IndexOutOfBoundsException e) {
            return null;
        }
    }

    private static Layout walk(byte[] z) {
        ByteBuffer b = ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN);
        List<Field> f = new ArrayList<>();
        List<Integer> bounds = new ArrayList<>();
        List<int[]> central = new ArrayList<>();
        List<int[]> names = new ArrayList<>();
        int eocd = -1;
        for (int i = z.length - 22; i >= 0; i--) {
            if (b.getInt(i) == EOCD) {
                eocd = i;
                break;
            }
        }
        if (eocd < 0) {
            return null;
        }
        f.add(new Field(eocd + 8, 2, "eocd entries on disk"));
        f.add(new Field(eocd + 10, 2, "eocd entries"));
        f.add(new Field(eocd + 12, 4, "eocd cd size"));
        f.add(new Field(eocd + 16, 4, "eocd cd offset"));
        f.add(new Field(eocd + 20, 2, "eocd comment length"));
        f.add(new Field(eocd + 4, 2, "eocd disk"));
        bounds.add(eocd);
        bounds.add(eocd + 22);
        int cdStart = b.getInt(eocd + 16);
        int cdEnd = eocd;
        if (eocd >= 20 && b.getInt(eocd - 20) == ZIP64_LOCATOR) {
            int loc = eocd - 20;
            bounds.add(loc);
            f.add(new Field(loc + 8, 8, "zip64 locator offset"));
            f.add(new Field(loc + 16, 4, "zip64 locator disks"));
            int z64 = (int) b.getLong(loc + 8);
            bounds.add(z64);
            f.add(new Field(z64 + 4, 8, "zip64 eocd record size"));
            f.add(new Field(z64 + 24, 8, "zip64 eocd entries on disk"));
            f.add(new Field(z64 + 32, 8, "zip64 eocd entries"));
            f.add(new Field(z64 + 40, 8, "zip64 eocd cd size"));
            f.add(new Field(z64 + 48, 8, "zip64 eocd cd offset"));
            cdStart = (int) b.getLong(z64 + 48);
            cdEnd = z64;
        }
        for (int at = cdStart; at + 46 <= cdEnd && b.getInt(at) == CENTRAL; ) {
            bounds.add(at);
            int n = b.getShort(at + 28) & 0xffff;
            int x = b.getShort(at + 30) & 0xffff;
            int c = b.getShort(at + 32) & 0xffff;
            int end = at + 46 + n + x + c;
            if (end > cdEnd) {
                break;
            }
            central.add(new int[] {at, end});
            names.add(new int[] {at + 46, n});
            f.add(new Field(at + 10, 2, "cd method"));
            f.add(new Field(at + 8, 2, "cd flags"));
            f.add(new Field(at + 16, 4, "cd crc"));
            f.add(new Field(at + 20, 4, "cd compressed size"));
            f.add(new Field(at + 24, 4, "cd size"));
            f.add(new Field(at + 28, 2, "cd name length"));
            f.add(new Field(at + 30, 2, "cd extra length"));
            f.add(new Field(at + 32, 2, "cd comment length"));
            f.add(new Field(at + 38, 4, "cd external attributes"));
            f.add(new Field(at + 42, 4, "cd local header offset"));
            f.add(new Field(at + 4, 2, "cd version made by"));
            for (int e = at + 46 + n; e + 4 <= at + 46 + n + x; ) {
                int id = b.getShort(e) & 0xffff;
                int len = b.getShort(e + 2) & 0xffff;
                f.add(new Field(e + 2, 2, "cd extra length of " + id));
                if (id == 1) {
                    for (int k = 0; k + 8 <= len; k += 8) {
                        f.add(new Field(e + 4 + k, 8, "cd zip64 extra value " + k / 8));
                    }
                }
                e += 4 + len;
            }
            int lh = b.getInt(at + 42);
            if (lh >= 0 && lh + 30 <= z.length && b.getInt(lh) == LOCAL) {
                bounds.add(lh);
                int ln = b.getShort(lh + 26) & 0xffff;
                int lx = b.getShort(lh + 28) & 0xffff;
                names.add(new int[] {lh + 30, ln});
                bounds.add(lh + 30 + ln + lx);
                bounds.add(lh + 30 + ln + lx + b.getInt(at + 20));
                f.add(new Field(lh + 8, 2, "local method"));
                f.add(new Field(lh + 6, 2, "local flags"));
                f.add(new Field(lh + 14, 4, "local crc"));
                f.add(new Field(lh + 18, 4, "local compressed size"));
                f.add(new Field(lh + 22, 4, "local size"));
                f.add(new Field(lh + 26, 2, "local name length"));
                f.add(new Field(lh + 28, 2, "local extra length"));
            }
            at = end;
        }
        bounds.add(cdStart);
        bounds.add(z.length);
        return new Layout(f, bounds, central, names, eocd, cdStart, cdEnd);
    }

    // ---- mutation ----

    /** One to three mutations of a base archive. */
    static Case mutate(Base base, SplittableRandom r) {
        byte[] z = base.zip().clone();
        StringBuilder what = new StringBuilder(base.name());
        boolean keysMayChange = false;
        int n = 1 + (r.nextInt(4) == 0 ? 1 + r.nextInt(2) : 0);
        for (int i = 0; i < n; i++) {
            Layout l = layout(z);
            if (l == null || l.eocd() < 0 || l.central().isEmpty()) {
                break;
            }
            int kind = r.nextInt(10);
            switch (kind) {
                case 0 -> { // flip a bit anywhere
                    int at = r.nextInt(z.length);
                    int bit = r.nextInt(8);
                    z[at] ^= (byte) (1 << bit);
                    what.append("; flip bit ").append(bit).append(" at ").append(at);
                }
                case 1 -> { // flip a bit in the central directory or end records
                    int at = l.cdStart() + r.nextInt(Math.max(1, z.length - l.cdStart()));
                    at = Math.min(at, z.length - 1);
                    int bit = r.nextInt(8);
                    z[at] ^= (byte) (1 << bit);
                    what.append("; flip cd bit ").append(bit).append(" at ").append(at);
                }
                case 2 -> { // truncate at a structural boundary
                    int at = l.boundaries().get(r.nextInt(l.boundaries().size())) + r.nextInt(5) - 2;
                    at = Math.max(0, Math.min(at, z.length - 1));
                    z = Arrays.copyOf(z, at);
                    what.append("; truncate at ").append(at);
                }
                case 3, 4, 5 -> { // a numeric field pushed to an extreme
                    Field f = l.fields().get(r.nextInt(l.fields().size()));
                    if (f.at() < 0 || f.at() + f.width() > z.length) {
                        break;
                    }
                    long v = extreme(r, z, l, f);
                    put(z, f.at(), f.width(), v);
                    what.append("; ").append(f.what()).append(" at ").append(f.at()).append(" = ").append(v);
                }
                case 6 -> { // duplicate or remove a central directory entry
                    int[] e = l.central().get(r.nextInt(l.central().size()));
                    boolean dup = r.nextBoolean();
                    boolean fix = r.nextInt(3) != 0;
                    z = splice(z, l, e, dup, fix);
                    what.append(dup ? "; duplicate" : "; remove").append(" cd entry at ").append(e[0])
                            .append(fix ? " (counts fixed)" : "");
                    keysMayChange = true;
                }
                case 7 -> { // comment length lies, or a comment holding a fake end record
                    ByteBuffer b = ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN);
                    if (r.nextBoolean()) {
                        int v = r.nextInt(4) == 0 ? 0xffff : r.nextInt(64);
                        b.putShort(l.eocd() + 20, (short) v);
                        what.append("; comment length ").append(v);
                    } else {
                        byte[] fake = Arrays.copyOfRange(z, l.eocd(), l.eocd() + 22);
                        ByteBuffer fb = ByteBuffer.wrap(fake).order(ByteOrder.LITTLE_ENDIAN);
                        fb.putInt(16, r.nextInt(z.length + 10));
                        fb.putShort(10, (short) r.nextInt(40));
                        byte[] comment = new byte[22 + r.nextInt(8)];
                        System.arraycopy(fake, 0, comment, r.nextInt(comment.length - 21), 22);
                        z = Arrays.copyOf(z, z.length + comment.length);
                        System.arraycopy(comment, 0, z, z.length - comment.length, comment.length);
                        ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN).putShort(l.eocd() + 20,
                                (short) (r.nextBoolean() ? comment.length : r.nextInt(comment.length + 1)));
                        what.append("; comment with a fake end record");
                    }
                }
                default -> { // a name changed: in the central directory, its local header, or both alike
                    int[] e = l.central().get(r.nextInt(l.central().size()));
                    ByteBuffer b = ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN);
                    int len = b.getShort(e[0] + 28) & 0xffff;
                    int lh = b.getInt(e[0] + 42);
                    if (len == 0 || lh < 0 || lh + 30 + len > z.length || (b.getShort(lh + 26) & 0xffff) != len) {
                        break;
                    }
                    String[] bad = {"/", "\\", "..", "\0", ".", "a", "0", "1", "//"};
                    String str = bad[r.nextInt(bad.length)];
                    int at = r.nextInt(len);
                    int where = r.nextInt(3); // 0 central, 1 local, 2 both
                    for (int k = 0; k < str.length() && at + k < len; k++) {
                        if (where != 1) {
                            z[e[0] + 46 + at + k] = (byte) str.charAt(k);
                        }
                        if (where != 0) {
                            z[lh + 30 + at + k] = (byte) str.charAt(k);
                        }
                    }
                    if (r.nextInt(6) == 0) {
                        if (where != 1) {
                            put(z, e[0] + 28, 2, at);
                        }
                        if (where != 0) {
                            put(z, lh + 26, 2, at);
                        }
                        what.append("; name length ").append(at);
                    }
                    what.append("; name of cd entry at ").append(e[0]).append(" gets '")
                            .append(str.replace("\0", "\\0")).append("' at ").append(at)
                            .append(where == 0 ? " in the central directory" : where == 1 ? " in the local header" : "");
                    keysMayChange |= where == 2;
                }
            }
        }
        return new Case(z, what.toString(), keysMayChange);
    }

    private static long extreme(SplittableRandom r, byte[] z, Layout l, Field f) {
        long old = get(z, f.at(), f.width());
        long max = f.width() == 2 ? 0xffff : f.width() == 4 ? 0xffffffffL : -1L;
        return switch (r.nextInt(12)) {
            case 0 -> 0;
            case 1 -> max;
            case 2 -> f.width() == 8 ? Long.MAX_VALUE : max >>> 1;
            case 3 -> f.width() == 8 ? Long.MIN_VALUE : (max >>> 1) + 1;
            case 4 -> z.length;
            case 5 -> z.length + 1 + r.nextInt(100);
            case 6 -> old + 1;
            case 7 -> old - 1;
            case 8 -> l.boundaries().get(r.nextInt(l.boundaries().size()));
            case 9 -> l.central().get(r.nextInt(l.central().size()))[0];
            case 10 -> old * 2;
            default -> r.nextLong() & max;
        };
    }

    private static long get(byte[] z, int at, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = (v << 8) | (z[at + i] & 0xff);
        }
        return v;
    }

    private static void put(byte[] z, int at, int width, long v) {
        for (int i = 0; i < width; i++) {
            z[at + i] = (byte) (v >>> (8 * i));
        }
    }

    /** Duplicates or removes one central-directory entry; with {@code fix}, the end record follows. */
    private static byte[] splice(byte[] z, Layout l, int[] e, boolean dup, boolean fix) {
        int len = e[1] - e[0];
        byte[] out;
        if (dup) {
            out = new byte[z.length + len];
            System.arraycopy(z, 0, out, 0, e[1]);
            System.arraycopy(z, e[0], out, e[1], len);
            System.arraycopy(z, e[1], out, e[1] + len, z.length - e[1]);
        } else {
            out = new byte[z.length - len];
            System.arraycopy(z, 0, out, 0, e[0]);
            System.arraycopy(z, e[1], out, e[0], z.length - e[1]);
        }
        if (fix) {
            int delta = dup ? len : -len;
            int count = dup ? 1 : -1;
            int eocd = l.eocd() + delta;
            ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
            b.putShort(eocd + 8, (short) (b.getShort(eocd + 8) + count));
            b.putShort(eocd + 10, (short) (b.getShort(eocd + 10) + count));
            b.putInt(eocd + 12, b.getInt(eocd + 12) + delta);
            if (eocd >= 20 && b.getInt(eocd - 20) == ZIP64_LOCATOR) {
                int z64 = (int) b.getLong(eocd - 20 + 8) + delta;
                b.putLong(eocd - 20 + 8, z64);
                if (z64 >= 0 && z64 + 56 <= out.length && b.getInt(z64) == ZIP64_EOCD) {
                    b.putLong(z64 + 24, b.getLong(z64 + 24) + count);
                    b.putLong(z64 + 32, b.getLong(z64 + 32) + count);
                    b.putLong(z64 + 40, b.getLong(z64 + 40) + delta);
                }
            }
        }
        return out;
    }

    // ---- reading ----

    /**
     * Reads a mutated archive every way a user would; returns what broke the promise, or null.
     * {@code stats} counts outcomes: opened, refused, values read, values refused, ranges read.
     */
    static String check(Base base, Case c, Path file, SplittableRandom r, Map<String, Integer> stats)
            throws IOException {
        Files.write(file, c.zip());
        try {
            return read(base, c, file, r, stats);
        } catch (ZarrException e) {
            stats.merge("refused: " + e.getClass().getSimpleName(), 1, Integer::sum);
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                return "a " + e.getClass().getSimpleName() + " without a message";
            }
            return null;
        } catch (RuntimeException | Error e) {
            return "not a ZarrException: " + trace(e);
        }
    }

    static String trace(Throwable e) {
        StringBuilder s = new StringBuilder(e.toString());
        for (StackTraceElement t : Arrays.copyOf(e.getStackTrace(), Math.min(6, e.getStackTrace().length))) {
            s.append("\n    at ").append(t);
        }
        if (e.getCause() != null && e.getCause() != e) {
            s.append("\n  caused by ").append(e.getCause());
        }
        return s.toString();
    }

    private static String read(Base base, Case c, Path file, SplittableRandom r, Map<String, Integer> stats) {
        try (Store s = r.nextInt(4) == 0 ? ZipStores.open(file, "g") : ZipStores.open(file, "")) {
            boolean inner = s.describe().endsWith("!/g");
            String prefix = inner ? "g/" : "";
            stats.merge("opened", 1, Integer::sum);
            List<StoreKey> keys = s.list();
            Set<String> listed = new HashSet<>();
            for (StoreKey k : keys) {
                listed.add(prefix + k.value());
            }
            Set<String> expected = new HashSet<>();
            for (String k : base.values().keySet()) {
                if (k.startsWith(prefix)) {
                    expected.add(k);
                }
            }
            if (!c.keysMayChange() && !listed.equals(expected)) {
                Set<String> extra = new HashSet<>(listed);
                extra.removeAll(expected);
                Set<String> missing = new HashSet<>(expected);
                missing.removeAll(listed);
                return "keys changed silently: extra " + extra + ", missing " + missing;
            }
            boolean allSame = listed.equals(expected);
            for (StoreKey k : keys) {
                byte[] want = base.values().get(prefix + k.value());
                try {
                    Optional<ByteBuffer> v = s.get(k);
                    if (v.isPresent()) {
                        stats.merge("values read", 1, Integer::sum);
                        if (want != null && !Arrays.equals(want, bytes(v.get()))) {
                            return "key '" + k + "' read whole differs from what was written (" + v.get().remaining()
                                    + " bytes, written " + want.length + ")";
                        }
                    } else if (!c.keysMayChange()) {
                        return "listed key '" + k + "' reads as absent";
                    }
                } catch (ZarrException e) {
                    stats.merge("values refused", 1, Integer::sum);
                    allSame = false;
                }
                String err = ranges(s, k, want, r, stats);
                if (err != null) {
                    return err;
                }
            }
            String err = hierarchy(s, base, inner, allSame, r, stats);
            if (err != null) {
                return err;
            }
        }
        return null;
    }

    private static String ranges(Store s, StoreKey k, byte[] want, SplittableRandom r, Map<String, Integer> stats) {
        long size;
        try {
            size = s.size(k).orElse(-1);
        } catch (ZarrException e) {
            size = -1;
        }
        long n = size < 0 ? r.nextInt(64) : r.nextLong(Math.min(size, Long.MAX_VALUE - 3) + 3);
        ByteRange[] ranges = {ByteRange.of(0, n), ByteRange.suffix(n), ByteRange.from(n),
                ByteRange.of(n / 2, Math.max(0, n - n / 2))};
        for (ByteRange range : ranges) {
            Optional<ByteBuffer> v;
            try {
                v = s.get(k, range);
            } catch (ZarrException e) {
                stats.merge("ranges refused", 1, Integer::sum);
                continue;
            }
            if (v.isEmpty()) {
                continue;
            }
            stats.merge("ranges read", 1, Integer::sum);
            byte[] got = bytes(v.get());
            if (size < 0) {
                return "range " + range + " of key '" + k + "' read, but its size cannot be told";
            }
            long[] at;
            try {
                at = range.resolve(size);
            } catch (IllegalArgumentException e) {
                return "range " + range + " of key '" + k + "' (size " + size + ") read, though it lies outside";
            }
            if (got.length != at[1] - at[0]) {
                return "range " + range + " of key '" + k + "' (size " + size + ") returned " + got.length + " bytes";
            }
            if (want != null && at[1] <= want.length
                    && !Arrays.equals(got, Arrays.copyOfRange(want, (int) at[0], (int) at[1]))) {
                stats.merge("ranges read that differ (no CRC on a range)", 1, Integer::sum);
            }
        }
        return null;
    }

    private static String hierarchy(Store s, Base base, boolean inner, boolean allSame, SplittableRandom r,
            Map<String, Integer> stats) {
        ZarrNode root;
        try {
            root = ZARR.open(s, "/");
        } catch (ZarrException e) {
            return null;
        }
        List<ZarrNode> todo = new ArrayList<>(List.of(root));
        int seen = 0;
        while (!todo.isEmpty() && seen++ < 20) {
            ZarrNode node = todo.remove(todo.size() - 1);
            try {
                if (node instanceof ZarrGroup g) {
                    todo.addAll(g.children());
                } else if (node instanceof ZarrArray a) {
                    String path = (inner ? "/g" : "") + (a.path().startsWith("/") ? a.path() : "/" + a.path());
                    NdArray want = base.arrays().get(path);
                    NdArray got = a.read();
                    stats.merge("arrays read", 1, Integer::sum);
                    if (allSame && want != null && !got.contentEquals(want)) {
                        return "array " + path + " read whole differs from what was written";
                    }
                    long[] shape = a.shape();
                    long[] off = new long[shape.length];
                    long[] len = new long[shape.length];
                    for (int d = 0; d < shape.length; d++) {
                        off[d] = shape[d] == 0 ? 0 : r.nextLong(shape[d]);
                        len[d] = shape[d] == 0 ? 0 : Math.min(3, shape[d] - off[d]);
                    }
                    a.read(off, len);
                }
            } catch (ZarrException e) {
                stats.merge("nodes refused", 1, Integer::sum);
            }
        }
        return null;
    }

    /** Runs {@code cases} seeded cases; returns the failures, at most {@code maxFailures}. */
    static List<String> run(List<Base> bases, long seed, int cases, Path tmp, Map<String, Integer> stats,
            int maxFailures) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        List<String> failures = new ArrayList<>();
        Path file = tmp.resolve("fuzz.zip");
        for (int i = 0; i < cases && failures.size() < maxFailures; i++) {
            Base b = bases.get(r.nextInt(bases.size()));
            Case c = mutate(b, r);
            String f = check(b, c, file, r.split(), stats);
            stats.merge("cases", 1, Integer::sum);
            if (f != null) {
                failures.add("case " + i + " (" + c.what() + "): " + f);
                if (Boolean.getBoolean("zipfuzz.keep")) {
                    Files.write(tmp.resolve("fail-" + i + ".zip"), c.zip());
                }
            }
        }
        Files.deleteIfExists(file);
        return failures;
    }

    /** A long run: {@code ZipFuzz <seed> <cases> <tmp>}; prints failures grouped by their first line. */
    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        int cases = Integer.parseInt(args[1]);
        Path tmp = Files.createDirectories(Path.of(args[2]));
        List<Base> bases = bases(tmp, true);
        Map<String, Integer> stats = new TreeMap<>();
        List<String> failures = run(bases, seed, cases, tmp, stats, 100000);
        Map<String, List<String>> classes = new LinkedHashMap<>();
        for (String f : failures) {
            String key = f.substring(f.indexOf("): ") + 3).split("\n")[0].replaceAll("[0-9]+", "N");
            key = key.length() > 160 ? key.substring(0, 160) : key;
            classes.computeIfAbsent(key, x -> new ArrayList<>()).add(f);
        }
        System.out.println(stats);
        System.out.println(failures.size() + " failures in " + classes.size() + " classes");
        for (Map.Entry<String, List<String>> e : classes.entrySet()) {
            System.out.println("=== " + e.getValue().size() + " x " + e.getKey());
            System.out.println(e.getValue().get(0));
        }
    }
}
