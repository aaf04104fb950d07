package dev.zarrj.spark.internal.write;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The driver's side of one write job: prepares the store before the tasks run, stores the
 * metadata when they all succeeded, cleans up when the job failed. See {@link ZarrWrite} for
 * the protocol.
 */
final class WriteJob {
    /** The metadata documents a node may have, in every format zarrj writes. */
    private static final List<String> DOCUMENTS = List.of("zarr.json", ".zarray", ".zattrs", ".zgroup", ".zmetadata");

    private final WritePlan plan;

    WriteJob(WritePlan plan) {
        this.plan = plan;
    }

    /** Before the tasks run: erases the array an overwrite replaces. */
    void prepare() {
        if (plan.erasesExisting) {
            Zarr zarr = Zarr.defaults();
            try (Store store = zarr.openStore(plan.location)) {
                // The metadata first, so that from now on no reader sees the array, then its chunks.
                store.eraseValues(documentKeys());
                zarr.erase(store, plan.path);
            } catch (Exception e) {
                throw new ZarrWriteException("cannot erase the array at " + plan.describe() + " to overwrite it: "
                        + e.getMessage(), e);
            }
        }
    }

    private List<StoreKey> documentKeys() {
        String prefix = plan.path.isEmpty() ? "" : plan.path.replaceAll("^/+|/+$", "") + "/";
        List<StoreKey> keys = new ArrayList<>();
        for (String d : DOCUMENTS) {
            keys.add(StoreKey.of(prefix + d));
        }
        return keys;
    }

    /**
     * After every task succeeded: checks that no two tasks wrote one object, then stores the
     * metadata of an array the job creates.
     */
    void commit(List<WrittenObjects> messages) {
        Map<String, Integer> writer = new HashMap<>();
        for (int t = 0; t < messages.size(); t++) {
            for (String k : messages.get(t).keys()) {
                Integer other = writer.putIfAbsent(k, t);
                if (other != null) {
                    throw new ZarrWriteException("tasks " + other + " and " + t + " both wrote '" + k + "' of the "
                            + "array at " + plan.describe() + "; one may have overwritten the other's elements (the "
                            + "write was not distributed by stored object)");
                }
            }
        }
        if (!plan.createsArray) {
            return;
        }
        Zarr zarr = Zarr.defaults();
        try (Store store = zarr.openStore(plan.location)) {
            try {
                zarr.createArray(store, plan.path, plan.documentNode(), false, plan.zarrFormat).close();
            } catch (InvalidMetadataException e) {
                if (zarr.exists(store, plan.path)) {
                    throw new ZarrWriteException("the array at " + plan.describe() + " was created by another writer "
                            + "while this job wrote its chunks, so this job does not store its metadata; the chunks it "
                            + "wrote are erased, which may also erase the other writer's chunks at the same keys: "
                            + "check that array", e);
                }
                throw e;
            }
        } catch (ZarrWriteException e) {
            throw e;
        } catch (Exception e) {
            throw new ZarrWriteException("cannot store the metadata of the array at " + plan.describe() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * For an array the job was creating: erases the chunks its tasks stored (those the committed
     * tasks reported, and, when no other writer has created an array there meanwhile, every chunk
     * found under the array's path: failed tasks report nothing), so that the path is as empty as
     * before. An append into an existing array cannot be undone: the objects written stay, and
     * the array's metadata are unchanged.
     */
    void abort(List<WrittenObjects> messages) {
        if (!plan.createsArray) {
            return;
        }
        Zarr zarr = Zarr.defaults();
        try (Store store = zarr.openStore(plan.location)) {
            Set<StoreKey> keys = new LinkedHashSet<>();
            for (WrittenObjects w : messages) {
                w.keys().forEach(k -> keys.add(StoreKey.of(k)));
            }
            if (!zarr.exists(store, plan.path) && store.capabilities().listable()) {
                ZarrArray array = plan.unstoredArray(zarr, store);
                for (long[] c : array.storedChunks()) {
                    keys.add(StoreKey.of(array.chunkKey(c)));
                }
            }
            store.eraseValues(keys);
        } catch (NodeNotFoundException e) {
            // nothing stored
        } catch (Exception e) {
            throw new ZarrWriteException("the write job failed, and erasing the chunks it wrote for the array at "
                    + plan.describe() + " failed too: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "WriteJob[" + plan + "]";
    }
}
