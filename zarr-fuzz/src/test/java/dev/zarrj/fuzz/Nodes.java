package dev.zarrj.fuzz;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.util.List;

/** What the metadata targets do with a node they opened: read a small corner of an array, walk a group. */
final class Nodes {
    /** At most this many elements are read from an array, whatever its shape claims. */
    static final int MAX_ELEMENTS = 64;
    /** At most this many nodes of a hierarchy are opened. */
    static final int MAX_NODES = 16;

    private Nodes() {}

    /** Reads the first few elements of an array and checks that the count is the one asked for. */
    static void readCorner(ZarrArray array) {
        long[] shape = array.shape();
        long[] extent = new long[shape.length];
        long budget = MAX_ELEMENTS;
        for (int d = shape.length - 1; d >= 0; d--) {
            extent[d] = Math.max(0, Math.min(shape[d], budget));
            budget = extent[d] == 0 ? budget : budget / extent[d];
            budget = Math.max(budget, 1);
        }
        long expected = 1;
        for (long e : extent) {
            expected *= e;
        }
        NdArray values = array.read(new long[shape.length], extent);
        if (values.elementCount() != expected) {
            throw new AssertionError("read " + values.elementCount() + " elements of a region of " + expected);
        }
    }

    /** Opens a node's children (through consolidated metadata when it has some) and reads a corner of each array. */
    static void visit(ZarrNode node) {
        if (node instanceof ZarrArray array) {
            readCorner(array);
        } else if (node instanceof ZarrGroup group) {
            node.attributes();
            List<String> paths = group.consolidatedPaths().orElseGet(group::childNames);
            int opened = 0;
            for (String path : paths) {
                if (opened++ == MAX_NODES) {
                    break;
                }
                ZarrNode child = group.open(path);
                if (child instanceof ZarrArray a) {
                    readCorner(a);
                } else {
                    child.attributes();
                }
            }
        }
    }
}
