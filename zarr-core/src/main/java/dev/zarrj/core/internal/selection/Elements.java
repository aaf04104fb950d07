package dev.zarrj.core.internal.selection;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.ElementKind;
import java.nio.ByteBuffer;

/**
 * Copies elements between two arrays of one data type by flat (C order) index: bytes for types
 * of fixed-size elements, references for variable-length ones.
 */
final class Elements {
    private final NdArray src;
    private final NdArray dst;
    private final ByteBuffer from;
    private final ByteBuffer to;
    private final int size;
    private final boolean strings;

    Elements(NdArray src, NdArray dst) {
        if (src.holdsObjects() != dst.holdsObjects() || src.dataType().size() != dst.dataType().size()
                || src.holdsObjects() && src.dataType().kind() != dst.dataType().kind()) {
            throw new IllegalArgumentException("cannot copy " + src.dataType().name() + " elements into a "
                    + dst.dataType().name() + " array");
        }
        this.src = src;
        this.dst = dst;
        this.size = src.dataType().size();
        if (src.holdsObjects()) {
            from = null;
            to = null;
            strings = src.dataType().kind() == ElementKind.STRING;
        } else {
            from = src.bytes();
            to = dst.bytes();
            strings = false;
        }
    }

    /** Copies element {@code s} of the source to element {@code d} of the destination. */
    void copy(long s, long d) {
        if (from == null) {
            if (strings) {
                dst.setString(d, src.getString(s));
            } else {
                dst.setBytes(d, src.getBytes(s));
            }
            return;
        }
        int si = (int) (s * size);
        int di = (int) (d * size);
        switch (size) {
            case 1 -> to.put(di, from.get(si));
            case 2 -> to.putShort(di, from.getShort(si));
            case 4 -> to.putInt(di, from.getInt(si));
            case 8 -> to.putLong(di, from.getLong(si));
            default -> to.put(di, from, si, size);
        }
    }

    /** Copies {@code n} consecutive elements from {@code s} to {@code d}. */
    void copy(long s, long d, int n) {
        if (n == 1 || from == null) {
            for (int i = 0; i < n; i++) {
                copy(s + i, d + i);
            }
            return;
        }
        to.put((int) (d * size), from, (int) (s * size), n * size);
    }

    /**
     * Copies element {@code baseS + s[i]} of the source to {@code baseD + d[i]} of the destination
     * for each i, the element size's case chosen once.
     */
    void copyEach(long baseS, long baseD, int[] s, int[] d) {
        if (from == null) {
            for (int i = 0; i < s.length; i++) {
                copy(baseS + s[i], baseD + d[i]);
            }
            return;
        }
        int bs = (int) (baseS * size);
        int bd = (int) (baseD * size);
        switch (size) {
            case 1 -> {
                for (int i = 0; i < s.length; i++) {
                    to.put(bd + d[i], from.get(bs + s[i]));
                }
            }
            case 2 -> {
                for (int i = 0; i < s.length; i++) {
                    to.putShort(bd + 2 * d[i], from.getShort(bs + 2 * s[i]));
                }
            }
            case 4 -> {
                for (int i = 0; i < s.length; i++) {
                    to.putInt(bd + 4 * d[i], from.getInt(bs + 4 * s[i]));
                }
            }
            case 8 -> {
                for (int i = 0; i < s.length; i++) {
                    to.putLong(bd + 8 * d[i], from.getLong(bs + 8 * s[i]));
                }
            }
            default -> {
                for (int i = 0; i < s.length; i++) {
                    to.put(bd + size * d[i], from, bs + size * s[i], size);
                }
            }
        }
    }

    /**
     * Copies the outer product of per-dimension index pairs: for each dimension d and each i, the
     * element at {@code a[d][i]} along d of one array and {@code b[d][i]} of the other, where
     * {@code a} indexes the source when {@code aIsSource}, else the destination. Visits the
     * combinations in C order of i, so a later pair wins when two name one destination element.
     */
    static void outer(Elements e, long[][] a, long[] aStrides, long[][] b, long[] bStrides, boolean aIsSource) {
        int rank = a.length;
        int last = rank - 1;
        long[] la = a[last];
        long[] lb = b[last];
        // Runs along the last dimension where both sides advance by one.
        int[] runAt = new int[la.length];
        int[] runLen = new int[la.length];
        int runs = 0;
        for (int i = 0; i < la.length; i++) {
            if (runs > 0 && la[i] == la[i - 1] + 1 && lb[i] == lb[i - 1] + 1) {
                runLen[runs - 1]++;
            } else {
                runAt[runs] = i;
                runLen[runs++] = 1;
            }
        }
        int[] at = new int[last];
        for (int d = 0; d < last; d++) {
            if (a[d].length == 0) {
                return;
            }
        }
        long sa = aStrides[last];
        long sb = bStrides[last];
        // Short runs: element by element over precomputed offsets; long ones: bulk copies.
        boolean each = runs * 4L > la.length;
        int[] offA = null;
        int[] offB = null;
        if (each) {
            offA = new int[la.length];
            offB = new int[la.length];
            for (int i = 0; i < la.length; i++) {
                offA[i] = Math.toIntExact(la[i] * sa);
                offB[i] = Math.toIntExact(lb[i] * sb);
            }
        }
        while (true) {
            long baseA = 0;
            long baseB = 0;
            for (int d = 0; d < last; d++) {
                baseA += a[d][at[d]] * aStrides[d];
                baseB += b[d][at[d]] * bStrides[d];
            }
            if (each) {
                if (aIsSource) {
                    e.copyEach(baseA, baseB, offA, offB);
                } else {
                    e.copyEach(baseB, baseA, offB, offA);
                }
            }
            for (int r = 0; r < runs && !each; r++) {
                int i = runAt[r];
                long ia = baseA + la[i] * sa;
                long ib = baseB + lb[i] * sb;
                if (aIsSource) {
                    e.copy(ia, ib, runLen[r]);
                } else {
                    e.copy(ib, ia, runLen[r]);
                }
            }
            int d = last - 1;
            while (d >= 0 && ++at[d] == a[d].length) {
                at[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /** The C-order strides, in elements, of an array of this shape. */
    static long[] strides(long[] shape) {
        long[] s = new long[shape.length];
        long n = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            s[d] = n;
            n *= shape[d];
        }
        return s;
    }

    static long[] asLongs(int[] v) {
        long[] out = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }
}
