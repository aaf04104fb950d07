package dev.zarrj.store.fs.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Unmaps a file mapping when its reader is done, rather than when the collector finds the buffer
 * unreachable: a read of many chunks would otherwise keep a mapping per chunk until the next
 * collection, and the process runs out of mappings ({@code vm.max_map_count}) long before it runs
 * out of heap. Java 17 has no public way to do it; {@code sun.misc.Unsafe.invokeCleaner} in the
 * {@code jdk.unsupported} module does. Where it cannot be reached, the file store does not map.
 */
final class Unmapper {
    private static final MethodHandle INVOKE_CLEANER = find();

    private Unmapper() {}

    private static MethodHandle find() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field f = unsafeClass.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            Object unsafe = f.get(null);
            return MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(unsafe);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Whether mappings can be unmapped on demand here. */
    static boolean available() {
        return INVOKE_CLEANER != null;
    }

    /** Unmaps {@code m}, which nothing may read after. */
    static void unmap(MappedByteBuffer m) {
        try {
            INVOKE_CLEANER.invokeExact((ByteBuffer) m);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
