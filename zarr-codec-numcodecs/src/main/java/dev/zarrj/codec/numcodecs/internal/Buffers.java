package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BytesToBytesCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/** Byte plumbing shared by the codecs: streams over buffers, bounded output, sizes. */
final class Buffers {
    /** Largest byte[] the JVM reliably allocates. */
    static final int MAX_BUFFER = Integer.MAX_VALUE - 8;

    private Buffers() {}

    /** The bytes from position to limit, as a new array (the buffer is left unchanged). */
    static byte[] toArray(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    /** An input stream over the bytes from position to limit, leaving the buffer unchanged. */
    static InputStream in(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        return new InputStream() {
            @Override
            public int read() {
                return d.hasRemaining() ? d.get() & 0xff : -1;
            }

            @Override
            public int read(byte[] dst, int off, int len) {
                if (len == 0) {
                    return 0;
                }
                if (!d.hasRemaining()) {
                    return -1;
                }
                int n = Math.min(len, d.remaining());
                d.get(dst, off, n);
                return n;
            }

            @Override
            public int available() {
                return d.remaining();
            }
        };
    }

    /** A growable output with a first capacity. */
    static final class Out extends OutputStream {
        private byte[] buf;
        private int size;

        Out(long firstCapacity) {
            buf = new byte[(int) Math.max(16, Math.min(firstCapacity, MAX_BUFFER))];
        }

        @Override
        public void write(int b) {
            ensure(1);
            buf[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
        }

        private void ensure(int more) {
            if ((long) size + more > buf.length) {
                long want = Math.max((long) size + more, Math.min(2L * buf.length, MAX_BUFFER));
                if (want > MAX_BUFFER) {
                    throw new ZarrException("ZARR-CODEC", "encoded data would exceed the largest buffer ("
                            + MAX_BUFFER + " bytes); use smaller chunks");
                }
                buf = Arrays.copyOf(buf, (int) want);
            }
        }

        ByteBuffer result() {
            byte[] b = size < buf.length / 2 ? Arrays.copyOf(buf, size) : buf;
            return ByteBuffer.wrap(b, 0, size).slice();
        }
    }

    /** Opens a decompressing stream; may fail on a bad header, as the libraries' constructors do. */
    @FunctionalInterface
    interface StreamOpener {
        InputStream open() throws IOException;
    }

    /**
     * Reads a decompressing stream to its end into a buffer no larger than {@code decodedSize}
     * allows, so that a corrupt or hostile value cannot exhaust memory, then checks the size.
     * Library exceptions (I/O errors, and the runtime exceptions decoders throw on bad input)
     * become {@link CorruptDataException}s naming the codec.
     */
    static ByteBuffer readAll(String codec, StreamOpener opener, EncodedSize decodedSize, int encodedLength) {
        long limit = Math.min(decodedSize.max(), MAX_BUFFER);
        long first = decodedSize instanceof EncodedSize.Fixed f ? f.bytes()
                : Math.min(limit, Math.max(4L * encodedLength, 8192));
        byte[] buf = new byte[(int) Math.min(limit, first)];
        int size = 0;
        try (InputStream in = opener.open()) {
            while (true) {
                if (size == buf.length) {
                    if (buf.length >= limit) {
                        if (in.read() < 0) {
                            break;
                        }
                        throw tooLarge(codec, decodedSize, limit);
                    }
                    buf = Arrays.copyOf(buf, (int) Math.min(limit, Math.max(2L * buf.length, 8192)));
                }
                int n = in.read(buf, size, buf.length - size);
                if (n < 0) {
                    break;
                }
                size += n;
            }
        } catch (CorruptDataException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new CorruptDataException(codec + ": invalid or truncated data: " + describe(e), e);
        }
        BytesToBytesCodec.checkDecodedSize(codec, size, decodedSize);
        byte[] out = size < buf.length / 2 ? Arrays.copyOf(buf, size) : buf;
        return ByteBuffer.wrap(out, 0, size).slice();
    }

    static CorruptDataException tooLarge(String codec, EncodedSize expected, long limit) {
        String allowed = expected instanceof EncodedSize.Fixed f ? "the expected " + f.bytes() + " bytes"
                : limit < expected.max() ? MAX_BUFFER + " bytes, the largest buffer Java can allocate"
                : "the allowed " + limit + " bytes";
        return new CorruptDataException(codec + ": decoded data is larger than " + allowed
                + "; stopped decoding (corrupt data or a decompression bomb)");
    }

    static String describe(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    /** {@code size + extra}, keeping the kind of the decoded size; unbounded when it overflows. */
    static EncodedSize plus(EncodedSize decoded, long extra) {
        if (decoded instanceof EncodedSize.Unbounded || decoded.max() > Long.MAX_VALUE - extra) {
            return EncodedSize.unbounded();
        }
        return decoded instanceof EncodedSize.Fixed f ? EncodedSize.fixed(f.bytes() + extra)
                : EncodedSize.bounded(decoded.max() + extra);
    }

    /** A bound of the form {@code n + n / perBytes * perCost + fixed}, from a decoded bound; unbounded on overflow. */
    static EncodedSize bound(EncodedSize decoded, java.util.function.LongUnaryOperator bound) {
        if (decoded instanceof EncodedSize.Unbounded || decoded.max() > Long.MAX_VALUE / 4) {
            return EncodedSize.unbounded();
        }
        return EncodedSize.bounded(bound.applyAsLong(decoded.max()));
    }
}
