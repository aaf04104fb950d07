package dev.zarrj.api.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * {@link ForwardingStore} passes every operation of {@link Store} to the store beneath, those with
 * a default included: each with the same arguments, to the same overload, once, returning what the
 * store beneath returned. Driven by reflection over {@link Store}, so an operation added to it
 * and not passed on fails here.
 */
class ForwardingStoreTest {
    /** A store beneath that records each call and answers it with a value of its own. */
    private static final class Recorder {
        final List<String> calls = new ArrayList<>();
        final Map<Method, Object> answers = new HashMap<>();
        final Store store = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.getName().equals("equals") ? proxy == args[0]
                                : method.getName().equals("hashCode") ? System.identityHashCode(proxy) : "recorder";
                    }
                    calls.add(signature(method) + Arrays.deepToString(args == null ? new Object[0] : args));
                    return answers.computeIfAbsent(method, m -> answer(m.getReturnType()));
                });
    }

    private static String signature(Method m) {
        return m.getName() + Arrays.toString(m.getParameterTypes());
    }

    /** A value of each return type, its own object for each operation (primitives aside). */
    private static Object answer(Class<?> type) {
        if (type == void.class) {
            return null;
        }
        if (type == int.class) {
            return 7;
        }
        if (type == boolean.class) {
            return true;
        }
        if (type == String.class) {
            return "answer";
        }
        if (type == CompletableFuture.class) {
            return new CompletableFuture<>();
        }
        if (type == StoreCapabilities.class) {
            return new StoreCapabilities(true, false, true, false);
        }
        if (type == java.util.Optional.class) {
            return java.util.Optional.of(ByteBuffer.allocate(1));
        }
        if (type == java.util.OptionalLong.class) {
            return java.util.OptionalLong.of(11);
        }
        if (type == ListDirResult.class) {
            return new ListDirResult(List.of(StoreKey.of("k")), List.of("p/"));
        }
        if (type.isInterface() && type != List.class) {
            return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> null);
        }
        if (type == List.class) {
            return new ArrayList<>(List.of("answer"));
        }
        throw new AssertionError("no test answer of " + type + ": add one for the new operation of Store");
    }

    /** An argument of each parameter type the operations of {@link Store} take. */
    private static Object argument(Class<?> type) {
        if (type == StoreKey.class) {
            return StoreKey.of("a/b");
        }
        if (type == dev.zarrj.api.ByteRange.class) {
            return dev.zarrj.api.ByteRange.of(3, 4);
        }
        if (type == ByteBuffer.class) {
            return ByteBuffer.wrap(new byte[] {1, 2, 3});
        }
        if (type == String.class) {
            return "some/prefix/";
        }
        if (type == java.time.Duration.class) {
            return java.time.Duration.ofSeconds(9);
        }
        if (type == List.class || type == java.util.Collection.class) {
            return List.of(StoreKey.of("x"));
        }
        if (type == IntFunction.class) {
            return (IntFunction<ByteBuffer>) ByteBuffer::allocate;
        }
        if (type == ReadMemory.class) {
            return new ReadMemory() {
                @Override
                public ByteBuffer allocate(int size) {
                    return ByteBuffer.allocate(size);
                }

                @Override
                public void onRelease(Runnable release) {}
            };
        }
        throw new AssertionError("no test argument of " + type + ": add one for the new operation of Store");
    }

    private static List<Method> operations() {
        List<Method> ops = new ArrayList<>();
        for (Method m : Store.class.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers())) {
                ops.add(m);
            }
        }
        return ops;
    }

    @Test
    void declaresEveryOperationOfStore() {
        for (Method m : operations()) {
            try {
                Method own = ForwardingStore.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
                assertTrue(Modifier.isPublic(own.getModifiers()) && !Modifier.isAbstract(own.getModifiers()),
                        signature(m));
            } catch (NoSuchMethodException e) {
                fail("ForwardingStore does not pass on " + signature(m) + ": it would run Store's default"
                        + " instead of the wrapped store's own");
            }
        }
    }

    @Test
    void passesEachOperationToTheSameOperationBeneathOnce() throws Exception {
        for (Method m : operations()) {
            Recorder beneath = new Recorder();
            Store wrapper = new ForwardingStore(beneath.store) {};
            Object[] args = Arrays.stream(m.getParameterTypes()).map(ForwardingStoreTest::argument).toArray();
            Object got;
            try {
                got = m.invoke(wrapper, args);
            } catch (InvocationTargetException e) {
                throw new AssertionError(signature(m) + " threw", e.getCause());
            }
            assertEquals(List.of(signature(m) + Arrays.deepToString(args)), beneath.calls, signature(m));
            if (m.getReturnType() != void.class) {
                Object answered = beneath.answers.get(m);
                if (m.getReturnType().isPrimitive()) {
                    assertEquals(answered, got, signature(m));
                } else {
                    assertSame(answered, got, signature(m));
                }
            }
        }
    }

    @Test
    void aWrapperOverridesOnlyWhatItChanges() {
        Recorder beneath = new Recorder();
        List<StoreKey> written = new ArrayList<>();
        Store counting = new ForwardingStore(beneath.store) {
            @Override
            public void set(StoreKey key, ByteBuffer value) {
                written.add(key);
                super.set(key, value);
            }
        };
        counting.set(StoreKey.of("c/0"), ByteBuffer.wrap(new byte[] {5}));
        counting.erase(StoreKey.of("c/1"));
        assertEquals(List.of(StoreKey.of("c/0")), written);
        assertArrayEquals(new String[] {"set", "erase"},
                beneath.calls.stream().map(c -> c.substring(0, c.indexOf('['))).toArray());
    }
}
