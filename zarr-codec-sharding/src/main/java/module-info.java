import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.sharding.internal.ShardingCodecProvider;

/**
 * The {@code sharding_indexed} array→bytes codec of Zarr v3: many inner chunks in one stored
 * value, with an index that allows reading and rewriting each inner chunk on its own.
 *
 * <p>Exports only {@link dev.zarrj.codec.sharding.ShardingConfiguration} and
 * {@link dev.zarrj.codec.sharding.IndexLocation}, for building metadata in code.
 *
 * @provides CodecProvider {@code sharding_indexed}
 */
module dev.zarrj.codec.sharding {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.codec.sharding;

    provides CodecProvider with ShardingCodecProvider;
}
