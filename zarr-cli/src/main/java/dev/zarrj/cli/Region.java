package dev.zarrj.cli;

import java.util.Arrays;

/**
 * A region given on the command line: one {@code start:stop} per dimension, comma-separated
 * ({@code 0:10,5:20}); {@code :} or an empty side means the whole dimension or up to its end, a
 * single number {@code i} means {@code i:i+1}.
 */
record Region(long[] offset, long[] shape) {
    static Region whole(long[] arrayShape) {
        return new Region(new long[arrayShape.length], arrayShape.clone());
    }

    static Region parse(String text, long[] arrayShape) {
        if (text == null || text.isBlank()) {
            return whole(arrayShape);
        }
        String[] parts = arrayShape.length == 0 && text.isBlank() ? new String[0] : text.split(",", -1);
        if (parts.length != arrayShape.length) {
            throw new UserError("region '" + text + "' has " + parts.length + " dimension(s); the array has "
                    + arrayShape.length + " (shape " + Arrays.toString(arrayShape) + ")");
        }
        long[] off = new long[parts.length];
        long[] ext = new long[parts.length];
        for (int d = 0; d < parts.length; d++) {
            String p = parts[d].trim();
            long start;
            long stop;
            try {
                int colon = p.indexOf(':');
                if (colon < 0) {
                    start = Long.parseLong(p);
                    stop = start + 1;
                } else {
                    String a = p.substring(0, colon).trim();
                    String b = p.substring(colon + 1).trim();
                    start = a.isEmpty() ? 0 : Long.parseLong(a);
                    stop = b.isEmpty() ? arrayShape[d] : Long.parseLong(b);
                }
            } catch (NumberFormatException e) {
                throw new UserError("region '" + text + "': '" + p + "' is not start:stop");
            }
            if (start < 0 || stop > arrayShape[d] || start > stop) {
                throw new UserError("region '" + text + "': " + start + ":" + stop + " is outside dimension " + d
                        + " of length " + arrayShape[d]);
            }
            off[d] = start;
            ext[d] = stop - start;
        }
        return new Region(off, ext);
    }

    long elementCount() {
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        return n;
    }
}
