package dev.zarrj.codec.numcodecs.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.Optional;

/**
 * The C API of zfp 1.0 ({@code libzfp}, Debian's {@code libzfp1}) that numcodecs' ZFPY uses
 * through zfpy, bound with JNA. Loaded on first use; absent when the library cannot be loaded.
 */
interface ZfpLibrary extends Library {
    int TYPE_INT32 = 1;
    int TYPE_INT64 = 2;
    int TYPE_FLOAT = 3;
    int TYPE_DOUBLE = 4;
    /** ZFP_HEADER_FULL: magic, field metadata and compression mode. */
    int HEADER_FULL = 0x7;

    Pointer stream_open(Pointer buffer, long bytes);

    void stream_close(Pointer stream);

    Pointer zfp_stream_open(Pointer bitstream);

    void zfp_stream_close(Pointer zfp);

    void zfp_stream_set_bit_stream(Pointer zfp, Pointer bitstream);

    void zfp_stream_rewind(Pointer zfp);

    double zfp_stream_set_accuracy(Pointer zfp, double tolerance);

    double zfp_stream_set_rate(Pointer zfp, double rate, int type, int dims, int align);

    int zfp_stream_set_precision(Pointer zfp, int precision);

    void zfp_stream_set_reversible(Pointer zfp);

    long zfp_stream_maximum_size(Pointer zfp, Pointer field);

    Pointer zfp_field_alloc();

    Pointer zfp_field_1d(Pointer data, int type, long nx);

    Pointer zfp_field_2d(Pointer data, int type, long nx, long ny);

    Pointer zfp_field_3d(Pointer data, int type, long nx, long ny, long nz);

    Pointer zfp_field_4d(Pointer data, int type, long nx, long ny, long nz, long nw);

    void zfp_field_free(Pointer field);

    int zfp_field_type(Pointer field);

    int zfp_field_dimensionality(Pointer field);

    long zfp_field_size(Pointer field, Pointer size);

    void zfp_field_set_pointer(Pointer field, Pointer data);

    long zfp_write_header(Pointer zfp, Pointer field, int mask);

    long zfp_read_header(Pointer zfp, Pointer field, int mask);

    long zfp_compress(Pointer zfp, Pointer field);

    long zfp_decompress(Pointer zfp, Pointer field);

    /** The library, or why it could not be loaded. */
    final class Holder {
        static final Optional<ZfpLibrary> LIBRARY;
        static final String PROBLEM;

        static {
            ZfpLibrary lib = null;
            String problem = null;
            for (String name : new String[] {"zfp", "libzfp.so.1"}) {
                try {
                    lib = Native.load(name, ZfpLibrary.class);
                    break;
                } catch (Throwable t) {
                    problem = t.getMessage();
                }
            }
            LIBRARY = Optional.ofNullable(lib);
            PROBLEM = lib == null ? problem : null;
        }

        private Holder() {}
    }
}
