package dev.zarrj.reliability.stress;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The writes of a stress run, and the checks that what was stored and read is explained by them.
 *
 * <p>A chunk is stored whole by each write that touches it, at one moment between the write's start
 * and end. So its final content is right if and only if some order of those writes, consistent with
 * real time (a write that ended before another began comes first), ends with each element's final
 * writer after every other write covering that element. The check builds that precedence graph per
 * chunk and requires it acyclic; a lost update (a read, modify, write that stored a stale chunk)
 * makes a cycle, or leaves an element whose value no covering write explains.
 *
 * <p>Real-time order is an interval order and would need a quadratic number of edges; it is encoded
 * instead through one node per write end, chained by time: write → its end node, and the end node
 * of the latest end before a write's start → that write. A path from write a to write b through end
 * nodes exists exactly when a ended before b began.
 */
final class History {
    record Write(int id, long[] off, long[] shape, long start, long end) {
        boolean covers(long i, long j) {
            return i >= off[0] && i < off[0] + shape[0] && j >= off[1] && j < off[1] + shape[1];
        }

        boolean touches(long[] o, long[] s) {
            for (int d = 0; d < 2; d++) {
                if (off[d] + shape[d] <= o[d] || o[d] + s[d] <= off[d]) {
                    return false;
                }
            }
            return true;
        }

        @Override public String toString() {
            return "write " + id + " of [" + off[0] + "+" + shape[0] + ", " + off[1] + "+" + shape[1] + "] at "
                    + start + ".." + end;
        }
    }

    record Read(long[] off, long[] shape, int[] values, long start, long end) {}

    private final int size;
    private final Map<Integer, Write> byId = new HashMap<>();
    private final List<Write> writes;

    History(int size, List<Write> writes) {
        this.size = size;
        this.writes = writes;
        for (Write w : writes) {
            byId.put(w.id(), w);
        }
    }

    /** Checks every value of a read; returns how many were checked. */
    long checkRead(Read r) {
        int k = 0;
        for (long i = r.off()[0]; i < r.off()[0] + r.shape()[0]; i++) {
            for (long j = r.off()[1]; j < r.off()[1] + r.shape()[1]; j++, k++) {
                int v = r.values()[k];
                if (v == 0) {
                    continue;
                }
                Write w = byId.get(v);
                if (w == null || !w.covers(i, j) || w.start() > r.end()) {
                    throw new AssertionError("a read at " + r.start() + ".." + r.end() + " saw " + v + " at [" + i
                            + ", " + j + "], which " + (w == null ? "no completed write wrote"
                            : w + (w.covers(i, j) ? " started after the read ended" : " did not cover")));
                }
            }
        }
        return k;
    }

    /**
     * Checks the chunk at {@code off} of shape {@code shape} in {@code fin} (the final content, row
     * major, {@code size} x {@code size}); returns how many writes touched it.
     */
    long checkChunk(int[] fin, long[] off, long[] shape) {
        List<Write> touching = new ArrayList<>();
        for (Write w : writes) {
            if (w.touches(off, shape)) {
                touching.add(w);
            }
        }
        int n = touching.size();
        Map<Integer, Integer> node = new HashMap<>();
        for (int k = 0; k < n; k++) {
            node.put(touching.get(k).id(), k);
        }
        // Nodes 0..n-1: writes; n..2n-1: end nodes, in order of end time.
        Integer[] byEnd = new Integer[n];
        for (int k = 0; k < n; k++) {
            byEnd[k] = k;
        }
        Arrays.sort(byEnd, (x, y) -> Long.compare(touching.get(x).end(), touching.get(y).end()));
        long[] ends = new long[n];
        int[] endRank = new int[n];
        for (int r = 0; r < n; r++) {
            ends[r] = touching.get(byEnd[r]).end();
            endRank[byEnd[r]] = r;
        }
        List<Set<Integer>> edges = new ArrayList<>();
        for (int k = 0; k < 2 * n; k++) {
            edges.add(new HashSet<>());
        }
        for (int r = 0; r + 1 < n; r++) {
            edges.get(n + r).add(n + r + 1);
        }
        for (int k = 0; k < n; k++) {
            edges.get(k).add(n + endRank[k]);
            int before = lastBefore(ends, touching.get(k).start());
            if (before >= 0) {
                edges.get(n + before).add(k);
            }
        }
        // Each element's final writer comes after every other write covering it.
        for (long i = off[0]; i < off[0] + shape[0]; i++) {
            for (long j = off[1]; j < off[1] + shape[1]; j++) {
                int v = fin[(int) (i * size + j)];
                Integer last = v == 0 ? null : node.get(v);
                if (v != 0 && (last == null || !touching.get(last).covers(i, j))) {
                    throw new AssertionError("element [" + i + ", " + j + "] holds " + v + ", which "
                            + (byId.containsKey(v) ? byId.get(v) + " did not cover" : "no completed write wrote"));
                }
                for (int k = 0; k < n; k++) {
                    Write w = touching.get(k);
                    if (w.covers(i, j) && (last == null || k != last)) {
                        if (last == null) {
                            throw new AssertionError("element [" + i + ", " + j + "] holds the fill value, but "
                                    + w + " covered it: lost");
                        }
                        edges.get(k).add(last);
                    }
                }
            }
        }
        List<Integer> cycle = findCycle(edges);
        if (cycle != null) {
            StringBuilder sb = new StringBuilder("chunk at [" + off[0] + ", " + off[1] + "]: no linearizable history"
                    + " explains its final content (a lost update); a cycle of precedences:");
            for (int k : cycle) {
                if (k < n) {
                    sb.append("\n  ").append(touching.get(k));
                }
            }
            throw new AssertionError(sb.toString());
        }
        return n;
    }

    /** The rank of the latest end strictly before {@code t}, or -1. */
    private static int lastBefore(long[] ends, long t) {
        int lo = 0;
        int hi = ends.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (ends[mid] < t) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** A cycle of the graph, as its nodes, or null when it has none (iterative depth-first search). */
    static List<Integer> findCycle(List<Set<Integer>> edges) {
        int n = edges.size();
        int[] state = new int[n]; // 0 new, 1 on the path, 2 done
        int[] parent = new int[n];
        List<List<Integer>> adj = new ArrayList<>();
        for (Set<Integer> e : edges) {
            adj.add(new ArrayList<>(e));
        }
        int[] next = new int[n];
        for (int root = 0; root < n; root++) {
            if (state[root] != 0) {
                continue;
            }
            ArrayDeque<Integer> stack = new ArrayDeque<>();
            stack.push(root);
            state[root] = 1;
            parent[root] = -1;
            while (!stack.isEmpty()) {
                int u = stack.peek();
                if (next[u] < adj.get(u).size()) {
                    int v = adj.get(u).get(next[u]++);
                    if (state[v] == 0) {
                        state[v] = 1;
                        parent[v] = u;
                        stack.push(v);
                    } else if (state[v] == 1) {
                        List<Integer> cycle = new ArrayList<>();
                        for (int x = u; x != v; x = parent[x]) {
                            cycle.add(0, x);
                        }
                        cycle.add(0, v);
                        return cycle;
                    }
                } else {
                    state[u] = 2;
                    stack.pop();
                }
            }
        }
        return null;
    }
}
