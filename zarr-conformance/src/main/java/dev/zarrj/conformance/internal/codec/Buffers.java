package dev.zarrj.conformance.internal.codec;

import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.BufferLender;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Byte buffers and arrays in the forms callers really pass, and comparisons that say where two
 * values first differ.
 */
public final class Buffers {
    /** A buffer or array in one form, with what a message calls it. */
    public record Variant<T>(String name, T value) {}

    /** The source of a value that is not stored: every read answers absent. */
    public static final ByteSource ABSENT = range -> Optional.empty();

    private static final int BEFORE = 7;
    private static final int AFTER = 5;

    private Buffers() {}

    /** A heap copy of the bytes from position to limit, at position 0. */
    public static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer out = ByteBuffer.allocate(b.remaining());
        out.put(b.duplicate());
        return out.flip();
    }

    /**
     * Lends memory as a write pipeline does: heap or direct buffers 29 bytes larger than asked,
     * every byte set to {@code old} (what a reused buffer still holds).
     */
    public static BufferLender lender(boolean direct, byte old) {
        return size -> {
            ByteBuffer b = direct ? ByteBuffer.allocateDirect(size + 29) : ByteBuffer.allocate(size + 29);
            for (int i = 0; i < b.capacity(); i++) {
                b.put(i, old);
            }
            return b;
        };
    }

    /**
     * A lender as {@link #lender} whose {@link BufferLender#giveBack} takes a buffer back at once
     * and fills it with {@code old} again, as the next chunk to borrow it would overwrite it; what a
     * codec gives back that it was not lent, or twice, is noted in {@link TakingBack#misuse()}.
     */
    public static TakingBack takingBack(boolean direct, byte old) {
        return new TakingBack(lender(direct, old), old);
    }

    /** The lender of {@link #takingBack}. */
    public static final class TakingBack implements BufferLender {
        private final BufferLender lend;
        private final byte old;
        private final List<ByteBuffer> out = new ArrayList<>();
        private final List<String> misuse = new ArrayList<>();

        private TakingBack(BufferLender lend, byte old) {
            this.lend = lend;
            this.old = old;
        }

        @Override
        public synchronized ByteBuffer borrow(int size) {
            ByteBuffer b = lend.borrow(size);
            out.add(b);
            return b;
        }

        @Override
        public synchronized void giveBack(ByteBuffer buffer) {
            // By identity: ByteBuffer.equals compares contents.
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i) == buffer) {
                    out.remove(i);
                    for (int j = 0; j < buffer.capacity(); j++) {
                        buffer.put(j, old);
                    }
                    return;
                }
            }
            misuse.add("giveBack of a buffer (capacity " + buffer.capacity()
                    + ") that borrow did not return, or that was already given back");
        }

        /** What the codec gave back wrongly, empty when nothing. */
        public synchronized List<String> misuse() {
            return List.copyOf(misuse);
        }
    }

    /** The bytes from position to limit. */
    public static byte[] toArray(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** The first {@code length} bytes of a buffer's remaining bytes, as a heap copy. */
    public static ByteBuffer prefix(ByteBuffer b, int length) {
        ByteBuffer d = b.duplicate();
        d.limit(d.position() + length);
        return copy(d);
    }

    /** The remaining bytes followed by {@code extra} more, as a heap copy. */
    public static ByteBuffer append(ByteBuffer b, byte[] extra) {
        ByteBuffer out = ByteBuffer.allocate(b.remaining() + extra.length);
        out.put(b.duplicate()).put(extra);
        return out.flip();
    }

    /**
     * The same bytes as: a window at an offset into a larger heap array (with other bytes around
     * it), a direct buffer, a read-only buffer, and a buffer whose byte order is little-endian.
     */
    public static List<Variant<ByteBuffer>> variants(ByteBuffer b) {
        int n = b.remaining();
        byte[] big = new byte[BEFORE + n + AFTER];
        Arrays.fill(big, (byte) 0xA5);
        b.duplicate().get(big, BEFORE, n);
        ByteBuffer window = ByteBuffer.wrap(big, BEFORE, n);
        ByteBuffer direct = ByteBuffer.allocateDirect(n).put(b.duplicate()).flip();
        ByteBuffer readOnly = copy(b).asReadOnlyBuffer();
        ByteBuffer little = copy(b).order(ByteOrder.LITTLE_ENDIAN);
        return List.of(new Variant<>("a heap buffer at position " + BEFORE + " of a larger array", window),
                new Variant<>("a direct buffer", direct),
                new Variant<>("a read-only buffer", readOnly),
                new Variant<>("a buffer set to little-endian order", little));
    }

    /**
     * The same elements as arrays over: a window at an offset into a larger heap buffer, a direct
     * buffer, and a read-only buffer. An array of objects (a variable-length type), which has no
     * buffer, as a view that starts inside a larger array.
     */
    public static List<Variant<NdArray>> variants(NdArray a) {
        if (a.holdsObjects()) {
            return List.of(new Variant<>("an array that is a view inside a larger array (its elements start at index "
                    + BEFORE + ")", ArrayRegions.viewInsideLarger(a, BEFORE, AFTER)));
        }
        List<Variant<NdArray>> out = new java.util.ArrayList<>();
        for (Variant<ByteBuffer> v : variants(a.bytes())) {
            if (!v.value().order().equals(ByteOrder.LITTLE_ENDIAN)) {
                out.add(new Variant<>("an array over " + v.name(), NdArray.wrap(a.dataType(), v.value(), a.shape())));
            }
        }
        return out;
    }

    /** The same value in every form {@link #variants(ByteBuffer)} or {@link #variants(NdArray)} gives. */
    @SuppressWarnings("unchecked")
    public static <T> List<Variant<T>> variantsOf(T value) {
        List<?> out = value instanceof NdArray a ? variants(a) : variants((ByteBuffer) value);
        return (List<Variant<T>>) out;
    }

    /** What a value held before an operation, to tell whether the operation changed it. */
    public interface Before {
        /** Empty when {@code value} (the same object) is unchanged, otherwise what changed. */
        String changes(Object value);
    }

    /**
     * A snapshot of a buffer (its position, limit and bytes) or an array (its bytes, or for an
     * array of objects, a copy of its elements).
     */
    public static Before before(Object value) {
        if (value instanceof NdArray a && a.holdsObjects()) {
            NdArray copy = ArrayRegions.copyOf(a);
            return now -> {
                String d = difference(copy, (NdArray) now);
                return d.isEmpty() ? "" : "its elements changed: " + d;
            };
        }
        return Snapshot.of(value instanceof NdArray a ? a.bytes() : (ByteBuffer) value);
    }

    /** {@link #difference(NdArray, NdArray)} or {@link #difference(ByteBuffer, ByteBuffer)}, by the expected value's type. */
    public static String differenceOf(Object expected, Object actual) {
        if (expected instanceof NdArray e) {
            return difference(e, (NdArray) actual);
        }
        return difference((ByteBuffer) expected, (ByteBuffer) actual);
    }

    /** Whether two buffers hold the same bytes from position to limit. */
    public static boolean same(ByteBuffer a, ByteBuffer b) {
        return a.remaining() == b.remaining() && a.duplicate().equals(b.duplicate());
    }

    /**
     * Empty when the buffers hold the same bytes, otherwise where they first differ.
     */
    public static String difference(ByteBuffer expected, ByteBuffer actual) {
        if (actual == null) {
            return "got null";
        }
        if (same(expected, actual)) {
            return "";
        }
        int n = Math.min(expected.remaining(), actual.remaining());
        int e0 = expected.position();
        int a0 = actual.position();
        for (int i = 0; i < n; i++) {
            if (expected.get(e0 + i) != actual.get(a0 + i)) {
                return String.format("expected %d bytes, got %d; first difference at byte %d: expected 0x%02x, got 0x%02x",
                        expected.remaining(), actual.remaining(), i, expected.get(e0 + i) & 0xff,
                        actual.get(a0 + i) & 0xff);
            }
        }
        return "expected " + expected.remaining() + " bytes, got " + actual.remaining()
                + " (the shorter is a prefix of the longer)";
    }

    /**
     * Empty when {@code actual} is {@code expected}'s data type, shape and bytes; otherwise what
     * differs.
     */
    public static String difference(NdArray expected, NdArray actual) {
        if (actual == null) {
            return "got null";
        }
        if (!expected.dataType().equals(actual.dataType())) {
            return "expected data type " + expected.dataType().name() + ", got " + actual.dataType().name();
        }
        if (!Arrays.equals(expected.shape(), actual.shape())) {
            return "expected shape " + Arrays.toString(expected.shape()) + ", got " + Arrays.toString(actual.shape());
        }
        if (expected.holdsObjects() || actual.holdsObjects()) {
            return elementDifference(expected, actual);
        }
        String d = difference(expected.bytes(), actual.bytes());
        if (d.isEmpty()) {
            return "";
        }
        int es = expected.dataType().size();
        ByteBuffer e = expected.bytes();
        ByteBuffer a = actual.bytes();
        for (int i = 0; i < e.remaining(); i++) {
            if (e.get(i) != a.get(i)) {
                return "elements differ; the first at flat index " + (i / es) + " (byte " + (i % es)
                        + " of the element: expected 0x" + String.format("%02x", e.get(i) & 0xff) + ", got 0x"
                        + String.format("%02x", a.get(i) & 0xff) + ")";
            }
        }
        return d;
    }

    /** Compares arrays of a variable-length type element by element. */
    private static String elementDifference(NdArray expected, NdArray actual) {
        if (expected.holdsObjects() != actual.holdsObjects()) {
            return "expected an array holding " + (expected.holdsObjects() ? "objects" : "bytes") + ", got one holding "
                    + (actual.holdsObjects() ? "objects" : "bytes");
        }
        long n = expected.elementCount();
        for (long i = 0; i < n; i++) {
            byte[] e = expected.getBytes(i);
            byte[] a = actual.getBytes(i);
            if (!Arrays.equals(e, a)) {
                return "elements differ; the first at flat index " + i + ": expected " + element(expected, i) + ", got "
                        + element(actual, i);
            }
        }
        return "";
    }

    /** One element of a variable-length array for a message: quoted text, or hex bytes, abbreviated. */
    public static String element(NdArray a, long index) {
        byte[] b = a.getBytes(index);
        if (a.dataType().kind() == dev.zarrj.api.datatype.ElementKind.STRING) {
            String s = a.getString(index);
            StringBuilder out = new StringBuilder("\"");
            s.codePoints().limit(40).forEach(cp -> {
                if (cp < 0x20 || cp == '"' || cp == '\\' || cp >= 0x7f) {
                    out.append(cp > 0xffff ? String.format("\\U%08x", cp) : String.format("\\u%04x", cp));
                } else {
                    out.appendCodePoint(cp);
                }
            });
            return out.append(s.codePointCount(0, s.length()) > 40 ? "...\"" : "\"").append(" (")
                    .append(b.length).append(" bytes of UTF-8)").toString();
        }
        String hex = java.util.HexFormat.of().formatHex(b, 0, Math.min(b.length, 24));
        return "[" + hex + (b.length > 24 ? "..." : "") + "] (" + b.length + " bytes)";
    }

    /** Empty when an array has the representation of {@code spec}, otherwise what differs. */
    public static String representationDifference(ChunkSpec spec, NdArray actual) {
        if (actual == null) {
            return "got null";
        }
        if (!spec.dataType().equals(actual.dataType())) {
            return "expected data type " + spec.dataType().name() + ", got " + actual.dataType().name();
        }
        if (!Arrays.equals(spec.shape(), actual.shape())) {
            return "expected shape " + Arrays.toString(spec.shape()) + ", got " + Arrays.toString(actual.shape());
        }
        return "";
    }

    /** A snapshot of a buffer: its position, limit and remaining bytes. */
    public record Snapshot(int position, int limit, byte[] bytes) implements Before {
        public static Snapshot of(ByteBuffer b) {
            return new Snapshot(b.position(), b.limit(), toArray(b));
        }

        @Override
        public String changes(Object value) {
            return changes(value instanceof NdArray a ? a.bytes() : (ByteBuffer) value);
        }

        /** Empty when {@code b} is unchanged, otherwise what changed. */
        public String changes(ByteBuffer b) {
            if (b.position() != position || b.limit() != limit) {
                return "its position/limit changed from " + position + "/" + limit + " to " + b.position() + "/"
                        + b.limit();
            }
            ByteBuffer now = b.duplicate().position(position).limit(limit);
            if (!now.equals(ByteBuffer.wrap(bytes))) {
                return "its contents changed";
            }
            return "";
        }
    }
}
