package dev.zarrj.codec.blosc.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.Set;

/** Inputs, buffers and stand-in libraries for the tests. */
final class TestData {
    private TestData() {}

    /** The system c-blosc (the tests need it installed). */
    static BloscLibrary system() {
        return NativeBlosc.library();
    }

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Slowly varying little-endian numbers: what shuffling is for. */
    static byte[] numbers(int n, int typesize, long seed) {
        Random r = new Random(seed);
        byte[] b = new byte[n];
        long v = 1000;
        for (int i = 0; i < n; i += typesize) {
            v += r.nextInt(7) - 3;
            for (int j = 0; j < typesize && i + j < n; j++) {
                b[i + j] = (byte) (v >>> (8 * j));
            }
        }
        return b;
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** The same bytes as heap, direct, read-only and offset buffers: the codec must not care. */
    enum Kind {
        HEAP {
            @Override
            ByteBuffer wrap(byte[] b) {
                return ByteBuffer.wrap(b);
            }
        },
        DIRECT {
            @Override
            ByteBuffer wrap(byte[] b) {
                return ByteBuffer.allocateDirect(b.length).put(b).flip();
            }
        },
        READ_ONLY {
            @Override
            ByteBuffer wrap(byte[] b) {
                return ByteBuffer.wrap(b).asReadOnlyBuffer();
            }
        },
        /** A heap window with garbage before and after it. */
        HEAP_WINDOW {
            @Override
            ByteBuffer wrap(byte[] b) {
                byte[] big = random(b.length + 14, b.length);
                System.arraycopy(b, 0, big, 7, b.length);
                return ByteBuffer.wrap(big, 7, b.length);
            }
        },
        /** A direct window with garbage before and after it: c-blosc must start at its position. */
        DIRECT_WINDOW {
            @Override
            ByteBuffer wrap(byte[] b) {
                ByteBuffer big = ByteBuffer.allocateDirect(b.length + 14).put(random(b.length + 14, b.length)).clear();
                big.put(7, b);
                return big.position(7).limit(7 + b.length);
            }
        };

        abstract ByteBuffer wrap(byte[] b);

        /** Whether {@link #wrap} gives a direct buffer. */
        boolean direct() {
            return wrap(new byte[1]).isDirect();
        }
    }

    /** The native address of a direct buffer's position; 0 for a heap buffer. */
    static long address(ByteBuffer b) {
        if (!b.isDirect()) {
            return 0;
        }
        return com.sun.jna.Pointer.nativeValue(com.sun.jna.Native.getDirectBufferPointer(b)) + b.position();
    }

    static int intLE(byte[] b, int at) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(at);
    }

    static void putIntLE(byte[] b, int at, int v) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
    }

    /** The system library, reporting only {@code compressors}; calls still reach c-blosc. */
    static BloscLibrary withCompressors(Set<String> compressors) {
        return new Delegating(system()) {
            @Override
            public Set<String> compressors() {
                return compressors;
            }
        };
    }

    /** The system library, failing the test if c-blosc's decompressor is called. */
    static BloscLibrary noDecompression() {
        return new Delegating(system()) {
            @Override
            public int decompress(ByteBuffer src, ByteBuffer dest, int destSize) {
                throw new AssertionError("the frame reached c-blosc");
            }
        };
    }

    static class Delegating implements BloscLibrary {
        private final BloscLibrary target;

        Delegating(BloscLibrary target) {
            this.target = target;
        }

        @Override
        public String version() {
            return target.version();
        }

        @Override
        public Set<String> compressors() {
            return target.compressors();
        }

        @Override
        public int compress(int clevel, int doshuffle, int typesize, ByteBuffer src, int srcSize, ByteBuffer dest,
                            int destSize, String compressor, int blocksize) {
            return target.compress(clevel, doshuffle, typesize, src, srcSize, dest, destSize, compressor, blocksize);
        }

        @Override
        public int decompress(ByteBuffer src, ByteBuffer dest, int destSize) {
            return target.decompress(src, dest, destSize);
        }
    }
}
