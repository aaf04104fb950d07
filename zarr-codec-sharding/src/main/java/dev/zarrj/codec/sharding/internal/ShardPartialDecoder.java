package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import java.util.Optional;

/**
 * Decodes regions of a shard behind a {@link ByteSource}, reading only the index and the inner
 * chunks a region touches (the requests are {@link ShardReader}'s). The index is read once per
 * decoder, on first use; a shard that is not stored decodes to empty. Thread-safe.
 */
final class ShardPartialDecoder implements ArrayPartialDecoder {
    private final ShardingCodec codec;
    private final ShardLayout layout;
    private final ByteSource input;
    private volatile Optional<ShardReader> reader;

    ShardPartialDecoder(ShardingCodec codec, ShardLayout layout, ByteSource input) {
        this.codec = codec;
        this.layout = layout;
        this.input = input;
    }

    @Override
    public Optional<NdArray> decode(Region region) {
        layout.checkRegion(region);
        ChunkSpec spec = layout.innerSpec();
        NdArray out = NdArray.filled(spec.dataType(), spec.fillValue(), region.shape());
        return decodeInto(region, out, new long[region.rank()], true) ? Optional.of(out) : Optional.empty();
    }

    /** The inner chunks, each read and decoded on its own. */
    @Override
    public Optional<long[]> innerChunkShape() {
        return Optional.of(layout.innerShape().clone());
    }

    /** Decodes each touched inner chunk straight into the destination. */
    @Override
    public boolean decodeInto(Region region, NdArray destination, long[] destinationOffset) {
        return decodeInto(region, destination, destinationOffset, false);
    }

    private boolean decodeInto(Region region, NdArray destination, long[] destinationOffset, boolean filled) {
        layout.checkRegion(region); // before anything is read
        Optional<ShardReader> r = reader();
        return r.isPresent() && r.get().decodeInto(region, destination, destinationOffset, filled);
    }

    /** The reader, opened on first use with one ranged request for the index; empty when no shard is stored. */
    private Optional<ShardReader> reader() {
        Optional<ShardReader> r = reader;
        if (r == null) {
            synchronized (this) {
                r = reader;
                if (r == null) {
                    r = ShardReader.open(codec, layout, input);
                    reader = r;
                }
            }
        }
        return r;
    }
}
