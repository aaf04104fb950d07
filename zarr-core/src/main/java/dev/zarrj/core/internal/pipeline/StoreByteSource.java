package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One stored value read with ranged requests, for partial decoders. {@link #readAll} merges
 * ranges that touch or overlap into one request each, so that reading k adjacent inner chunks of
 * a shard costs one request, not k.
 *
 * <p>When the value is absent, reads return empty, which the chunk reader turns into the fill
 * value: no request is spent asking for the size first.
 */
final class StoreByteSource implements ByteSource {
    private final Store store;
    private final StoreKey key;

    StoreByteSource(Store store, StoreKey key) {
        this.store = store;
        this.key = key;
    }

    @Override
    public Optional<ByteBuffer> read(ByteRange range) {
        return store.get(key, range);
    }

    @Override
    public Optional<List<ByteBuffer>> readAll(List<ByteRange> ranges) {
        int n = ranges.size();
        ByteBuffer[] out = new ByteBuffer[n];
        List<Integer> bounded = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (ranges.get(i) instanceof ByteRange.Bounded) {
                bounded.add(i);
            } else {
                Optional<ByteBuffer> b = read(ranges.get(i));
                if (b.isEmpty()) {
                    return Optional.empty();
                }
                out[i] = b.get();
            }
        }
        bounded.sort(Comparator.comparingLong(i -> ((ByteRange.Bounded) ranges.get(i)).start()));
        // Group ranges whose extents touch or overlap; one request per group.
        List<KeyRange> requests = new ArrayList<>();
        List<long[]> groups = new ArrayList<>();
        List<List<Integer>> members = new ArrayList<>();
        for (int i : bounded) {
            ByteRange.Bounded r = (ByteRange.Bounded) ranges.get(i);
            long end = r.start() + r.length();
            if (!groups.isEmpty() && r.start() <= groups.get(groups.size() - 1)[1]) {
                long[] g = groups.get(groups.size() - 1);
                g[1] = Math.max(g[1], end);
                members.get(members.size() - 1).add(i);
            } else {
                groups.add(new long[] {r.start(), end});
                members.add(new ArrayList<>(List.of(i)));
            }
        }
        for (long[] g : groups) {
            requests.add(new KeyRange(key, ByteRange.of(g[0], g[1] - g[0])));
        }
        List<Optional<ByteBuffer>> values = requests.isEmpty() ? List.of() : store.getPartialValues(requests);
        for (int gi = 0; gi < groups.size(); gi++) {
            if (values.get(gi).isEmpty()) {
                return Optional.empty();
            }
            ByteBuffer whole = values.get(gi).get();
            long base = groups.get(gi)[0];
            for (int i : members.get(gi)) {
                ByteRange.Bounded r = (ByteRange.Bounded) ranges.get(i);
                out[i] = whole.slice(whole.position() + (int) (r.start() - base), (int) r.length());
            }
        }
        return Optional.of(Arrays.asList(out));
    }
}
