package dev.zarrj.conformance.internal.codec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/** Truncated and corrupted copies of encoded values, chosen reproducibly. */
public final class Damage {
    /** Encoded values up to this size are truncated at every length. */
    public static final int EVERY_LENGTH_UP_TO = 256;

    /** A damaged copy and what a message calls it ("the first 3 of 12 bytes"). */
    public record Damaged(String description, ByteBuffer bytes) {}

    private Damage() {}

    /**
     * The lengths to truncate an encoded value of {@code length} bytes to: every shorter length
     * when it is small; otherwise the first few, the last few (where trailers and checksums sit),
     * the middle, and a few random ones.
     */
    public static int[] truncationLengths(int length, boolean heavy, long seed) {
        TreeSet<Integer> out = new TreeSet<>();
        if (length <= EVERY_LENGTH_UP_TO) {
            for (int k = 0; k < length; k++) {
                out.add(k);
            }
        } else {
            int[] head = heavy ? new int[] {0, 1} : new int[] {0, 1, 2, 3, 4, 8, 16};
            int[] tail = heavy ? new int[] {1, 8} : new int[] {1, 2, 3, 4, 5, 8, 16};
            for (int k : head) {
                out.add(k);
            }
            for (int k : tail) {
                out.add(length - k);
            }
            out.add(length / 2);
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < (heavy ? 1 : 4); i++) {
                out.add(random.nextInt(length));
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Prefixes of an encoded value, at the {@link #truncationLengths}. */
    public static List<Damaged> truncations(ByteBuffer encoded, boolean heavy, long seed) {
        int length = encoded.remaining();
        List<Damaged> out = new ArrayList<>();
        for (int k : truncationLengths(length, heavy, seed)) {
            out.add(new Damaged("the first " + k + " of " + length + " bytes", Buffers.prefix(encoded, k)));
        }
        return out;
    }

    /**
     * Copies of an encoded value with bytes flipped: one or a few random bytes XORed with a random
     * non-zero value, and single bits flipped in the first and the last byte.
     */
    public static List<Damaged> corruptions(ByteBuffer encoded, boolean heavy, long seed) {
        int n = encoded.remaining();
        List<Damaged> out = new ArrayList<>();
        if (n == 0) {
            return out;
        }
        SplittableRandom random = new SplittableRandom(seed ^ 0xC0FFEE);
        int trials = heavy ? 3 : n <= EVERY_LENGTH_UP_TO ? 24 : 8;
        for (int t = 0; t < trials; t++) {
            int flips = 1 + t % 3;
            ByteBuffer copy = Buffers.copy(encoded);
            StringBuilder sb = new StringBuilder("an encoding with bytes ");
            for (int f = 0; f < flips; f++) {
                int at = random.nextInt(n);
                int mask = 1 + random.nextInt(255);
                copy.put(at, (byte) (copy.get(at) ^ mask));
                sb.append(f == 0 ? "" : ", ").append(at).append(String.format(" (^0x%02x)", mask));
            }
            out.add(new Damaged(sb.append(" of ").append(n).append(" flipped").toString(), copy));
        }
        for (int at : new int[] {0, n - 1}) {
            int bit = random.nextInt(8);
            ByteBuffer copy = Buffers.copy(encoded);
            copy.put(at, (byte) (copy.get(at) ^ (1 << bit)));
            out.add(new Damaged("an encoding with bit " + bit + " of byte " + at + " of " + n + " flipped", copy));
        }
        return out;
    }
}
