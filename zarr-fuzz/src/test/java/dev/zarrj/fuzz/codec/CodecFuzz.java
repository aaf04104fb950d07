package dev.zarrj.fuzz.codec;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.fuzz.Outcomes;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the codec targets share: a menu of small arrays (one per codec configuration), each created
 * once in its own memory store, and the decode of fuzzed bytes stored as one of their chunks,
 * read whole and for a sub-region as a user would.
 *
 * <p>An input of a codec target is {@code [menu byte][region byte][chunk bytes...]}: the first byte
 * picks the configuration (modulo the menu's size), the second the sub-region read, the rest is
 * the value stored under the key of chunk {@code (0, ..., 0)}. Every configuration is small, so an
 * execution is cheap.
 */
final class CodecFuzz {
    /** One thread: the fuzzer drives one input at a time and a hang shows as the input's timeout. */
    static final Zarr ZARR = Zarr.builder().threads(1).build();

    private CodecFuzz() {}

    /** An array configuration of a menu: a name for messages and seeds, and how to create it. */
    record Config(String name, Creator creator) {}

    /** Creates the array of a configuration in an empty store. */
    @FunctionalInterface
    interface Creator {
        ZarrArray create(Store store);
    }

    /** The configurations of one target, each created on first use. */
    static final class Menu {
        private final List<Config> configs;
        private final Map<Integer, ZarrArray> arrays = new HashMap<>();

        Menu(List<Config> configs) {
            this.configs = List.copyOf(configs);
        }

        int size() {
            return configs.size();
        }

        Config config(int index) {
            return configs.get(index);
        }

        /** The array of configuration {@code index}, created on first use in its own memory store. */
        synchronized ZarrArray array(int index) {
            return arrays.computeIfAbsent(index, i -> {
                Config c = configs.get(i);
                try {
                    return c.creator().create(ZARR.openStore("memory:"));
                } catch (RuntimeException e) {
                    throw new AssertionError("the menu's configuration " + c.name() + " cannot be created", e);
                }
            });
        }

        /**
         * Decodes one input of this menu's target (see the class comment) and checks the property:
         * a correct result or a {@link ZarrException} with a message.
         */
        void decode(byte[] input) {
            if (input.length < 2) {
                return;
            }
            ZarrArray array = array(Byte.toUnsignedInt(input[0]) % size());
            byte[] chunk = Arrays.copyOfRange(input, 2, input.length);
            CodecFuzz.decode(array, array.chunkKey(new long[array.rank()]), chunk, input[1]);
        }
    }

    /**
     * Stores {@code value} under {@code key} of the array's store, then reads the whole array and a
     * sub-region of chunk {@code (0, ..., 0)} chosen by {@code regionByte}. Each read returns the
     * region's shape, or throws a {@link ZarrException} with a message; when both succeed, the
     * sub-region equals the same elements of the whole read (the partial decoders agree with the
     * whole decode).
     */
    static void decode(ZarrArray array, String key, byte[] value, byte regionByte) {
        Store store = array.store();
        store.set(StoreKey.of(key), ByteBuffer.wrap(value));
        long[] shape = array.shape();
        NdArray[] whole = new NdArray[1];
        property(() -> {
            NdArray all = array.read();
            checkShape(all, shape, "the whole array");
            whole[0] = all;
        });
        long[] chunk = array.chunkShape();
        long[] offset = new long[shape.length];
        long[] extent = new long[shape.length];
        int r = Byte.toUnsignedInt(regionByte);
        for (int d = 0; d < shape.length; d++) {
            long c = Math.min(chunk[d], shape[d]);
            offset[d] = ((r & 3) * c) / 4;
            extent[d] = ((r >> 2) & 1) == 0 ? 1 : c - offset[d];
            r >>>= 3;
        }
        property(() -> {
            NdArray part = array.read(offset, extent);
            checkShape(part, extent, "the region at " + Arrays.toString(offset));
            if (whole[0] != null) {
                sameAsWhole(whole[0], shape, part, offset, extent);
            }
        });
    }

    /** The property of every target: {@link Outcomes#zarrErrorOrNothing}. */
    static ZarrException property(Outcomes.Action action) {
        return Outcomes.zarrErrorOrNothing(action);
    }

    static void checkShape(NdArray values, long[] shape, String what) {
        if (!Arrays.equals(values.shape(), shape)) {
            throw new AssertionError(what + " read with shape " + Arrays.toString(values.shape()) + ", expected "
                    + Arrays.toString(shape));
        }
    }

    private static void sameAsWhole(NdArray whole, long[] shape, NdArray part, long[] offset, long[] extent) {
        int rank = shape.length;
        long[] index = new long[rank];
        long n = part.elementCount();
        for (long i = 0; i < n; i++) {
            long rest = i;
            long flat = 0;
            for (int d = rank - 1; d >= 0; d--) {
                index[d] = rest % extent[d];
                rest /= extent[d];
            }
            for (int d = 0; d < rank; d++) {
                flat = flat * shape[d] + offset[d] + index[d];
            }
            if (!Arrays.equals(whole.getBytes(flat), part.getBytes(i))) {
                throw new AssertionError("element " + Arrays.toString(index) + " of the region at "
                        + Arrays.toString(offset) + " differs from the whole read: " + Arrays.toString(part.getBytes(i))
                        + " vs " + Arrays.toString(whole.getBytes(flat)));
            }
        }
    }

    /** Whether two arrays hold the same elements, compared element by element as bytes. */
    static int firstDifference(NdArray expected, NdArray actual) {
        if (expected.elementCount() != actual.elementCount()) {
            return 0;
        }
        for (long i = 0; i < expected.elementCount(); i++) {
            if (!Arrays.equals(expected.getBytes(i), actual.getBytes(i))) {
                return (int) i;
            }
        }
        return -1;
    }

    /** A codec chain configuration as zarr.json spells it. */
    static String codec(String name, String configuration) {
        return configuration == null ? "{\"name\":\"" + name + "\"}"
                : "{\"name\":\"" + name + "\",\"configuration\":" + configuration + "}";
    }

    /** A configuration whose array is {@code dataType} of {@code shape} chunked by {@code chunks}. */
    static Config array(String name, DataType dataType, long[] shape, long[] chunks, String... codecs) {
        String json = "[" + String.join(",", codecs) + "]";
        return new Config(name, store -> ZARR.array(dataType, shape).chunks(chunks).codecs(json).create(store, "a"));
    }
}
