package dev.zarrj.codec.blosc.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.TaskRunner;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.codec.blosc.BloscConfiguration;
import dev.zarrj.codec.blosc.BloscConfiguration.Shuffle;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The {@code blosc} bytes→bytes codec: the blosc 1.x container format, written and read by the
 * system c-blosc library.
 *
 * <p>Blosc splits its input into blocks, optionally shuffles each block's bytes or bits with a
 * stride of {@code typesize}, compresses each with {@code cname}, and writes a 16-byte header
 * followed by the blocks. Encoding calls c-blosc's context-based {@code blosc_compress_ctx} with
 * one internal thread, so calls from many threads never share c-blosc's global state, and an
 * output buffer of {@code n + 16} bytes, as numcodecs does; the same c-blosc version and settings
 * give the same bytes.
 *
 * <p>Decoding reads the header first ({@link BloscHeader}): the frame must be exactly as long as
 * it says, and decode to the size the caller allows, before anything is allocated or handed to
 * c-blosc, so a corrupt, truncated or hostile frame can neither exhaust memory nor make c-blosc
 * read or write outside its buffers. Frames stored uncompressed are returned as a view of the
 * input, without a copy.
 *
 * <p>Specification: <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/blosc/">
 * codecs-blosc.rst</a>; format: c-blosc's README_CHUNK_FORMAT.
 *
 * <p>Names accepted: {@code blosc}. No aliases.
 *
 * <p>Configuration example ({@code cname}, {@code clevel}, {@code shuffle} and {@code blocksize}
 * are required; {@code typesize} is required unless {@code shuffle} is {@code "noshuffle"}, and
 * when it is left out of a new array's metadata, {@link #resolveDefaults} records the data type's
 * size):
 *
 * <pre>{@code
 * {"name": "blosc", "configuration":
 *     {"cname": "lz4", "clevel": 1, "shuffle": "shuffle", "typesize": 4, "blocksize": 0}}
 * }</pre>
 *
 * <p>{@link #decode} (a chunk read on its own) decodes a large frame of several blocks in pieces
 * of whole blocks, in parallel where the zarrj instance has idle threads ({@link #decodePieces});
 * a partial read decodes only the blocks it needs ({@link #partialDecoder}). The encoded size is {@link EncodedSize.Bounded} by
 * the decoded size plus 16 when that is known.
 *
 * <p>c-blosc is asked for when the codec first needs it (to encode, to decode, or to read a frame's
 * size), not when it is created: opening an array loads no native code. That first use fails, with
 * the error the library supplier gives, when c-blosc cannot be loaded, or with an
 * {@link InvalidMetadataException} naming {@code cname} when the installed c-blosc lacks that
 * compressor.
 *
 * <p>Immutable and thread-safe. c-blosc works on native memory: a direct input is handed to it
 * where it is, a heap input is copied once into pooled native scratch memory, and results are
 * copied once from scratch memory to the heap ({@link Scratch}). Results are not direct buffers
 * written by c-blosc in place: the memory of a fresh {@code ByteBuffer.allocateDirect} is freed
 * only by a collection, which a caller that allocates little on the heap rarely triggers, so
 * every call zeroes and page-faults new memory: for a 2 MiB chunk, about as long as decompressing
 * it, several times the heap allocation and copy it would save.
 */
public final class BloscCodec implements BytesToBytesCodec {
    private static final String NAME = BloscConfiguration.NAME;

    private final BloscConfiguration config;
    /** Asked for on first use ({@link #library()}), never by the constructor. */
    private final Supplier<BloscLibrary> libraries;
    /** JSON pointers of {@code cname} and {@code typesize} in the metadata this codec came from, for messages. */
    private final String cnamePointer;
    private final String typesizePointer;
    /** Where the pieces of one large frame are decoded in parallel. */
    private final TaskRunner tasks;
    /** The library once it has been found to have {@code cname}; a cache, not state. */
    private volatile BloscLibrary checked;

    /**
     * A codec that calls the library {@code libraries} gives when it first needs it, which should
     * load it only once ({@link LoadOnce}).
     */
    BloscCodec(BloscConfiguration config, Supplier<BloscLibrary> libraries, String cnamePointer,
               String typesizePointer) {
        this(config, libraries, cnamePointer, typesizePointer, TaskRunner.sequential());
    }

    /** As above, decoding the pieces of large frames on {@code tasks}. */
    BloscCodec(BloscConfiguration config, Supplier<BloscLibrary> libraries, String cnamePointer,
               String typesizePointer, TaskRunner tasks) {
        this.tasks = Objects.requireNonNull(tasks, "tasks");
        this.config = Objects.requireNonNull(config, "config");
        this.libraries = Objects.requireNonNull(libraries, "libraries");
        this.cnamePointer = Objects.requireNonNull(cnamePointer, "cnamePointer");
        this.typesizePointer = Objects.requireNonNull(typesizePointer, "typesizePointer");
    }

    /**
     * c-blosc, loaded if this is the first use, once it is known to include {@code cname}.
     *
     * @throws ZarrException when c-blosc cannot be loaded, saying how to install it
     * @throws InvalidMetadataException naming {@code cname} when the installed c-blosc lacks it
     */
    private BloscLibrary library() {
        BloscLibrary lib = checked;
        if (lib != null) {
            return lib;
        }
        lib = libraries.get();
        String cname = config.cname().jsonName();
        if (!lib.compressors().contains(cname)) {
            throw new InvalidMetadataException(cnamePointer, NAME + ": \"" + cname + "\" is not included in the"
                    + " installed c-blosc " + lib.version() + ", which has "
                    + String.join(", ", lib.compressors().stream().sorted().toList())
                    + "; choose one of those, or install a c-blosc built with " + cname);
        }
        checked = lib;
        return lib;
    }

    /** The typed configuration. */
    public BloscConfiguration bloscConfiguration() {
        return config;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Every field; {@code typesize} is missing only when the metadata left it out and it was not resolved. */
    @Override
    public ObjectNode configuration() {
        return config.configurationJson();
    }

    /** Records the data type's size as {@code typesize} when the configuration left it out. */
    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        if (!config.hasAutoTypesize()) {
            return this;
        }
        return new BloscCodec(config.withTypesize(decoded.dataType().size()), libraries, cnamePointer, typesizePointer,
                tasks);
    }

    /** {@code n + 16} at most for {@code n} decoded bytes: c-blosc stores blocks that do not compress. */
    @Override
    public EncodedSize encodedSize(EncodedSize decoded) {
        if (decoded instanceof EncodedSize.Unbounded || decoded.max() > Long.MAX_VALUE - BloscHeader.SIZE) {
            return EncodedSize.unbounded();
        }
        return EncodedSize.bounded(decoded.max() + BloscHeader.SIZE);
    }

    @Override
    public ByteBuffer encode(ByteBuffer decoded) {
        BloscLibrary library = library();
        ByteBuffer in = decoded.slice();
        int n = in.remaining();
        if (n > BloscHeader.MAX_BUFFER) {
            throw new ZarrException("ZARR-CODEC", NAME + ": cannot compress " + n + " bytes: c-blosc 1.x takes at most "
                    + BloscHeader.MAX_BUFFER + " bytes; use smaller chunks");
        }
        int typesize = encodingTypesize();
        int destSize = n + BloscHeader.SIZE;
        // Both blocks of the same size, so that pooled blocks are interchangeable (Scratch).
        try (Scratch out = Scratch.take(destSize); Scratch copy = in.isDirect() ? null : Scratch.take(destSize)) {
            ByteBuffer src = in;
            if (copy != null) {
                src = copy.buffer(n).put(0, in, 0, n);
            }
            ByteBuffer dest = out.buffer(destSize);
            int size = library.compress(config.clevel(), shuffleCode(config.shuffle()), typesize, src, n, dest,
                    destSize, config.cname().jsonName(), config.blocksize());
            if (size < BloscHeader.SIZE || size > destSize) {
                throw new ZarrException("ZARR-CODEC", NAME + ": c-blosc " + library.version() + " failed to compress "
                        + n + " bytes with " + config + " (result " + size + ")");
            }
            byte[] result = new byte[size];
            dest.get(0, result);
            return ByteBuffer.wrap(result);
        }
    }

    /** The typesize to compress with: the configured one, 1 when unset and unused. */
    private int encodingTypesize() {
        if (!config.hasAutoTypesize()) {
            return config.typesize();
        }
        if (config.shuffle() == Shuffle.NOSHUFFLE) {
            return 1;
        }
        throw new InvalidMetadataException(typesizePointer, NAME + ": 'typesize' is required when 'shuffle' is \""
                + config.shuffle().jsonName() + "\", and this array's metadata has none, so its chunks can be read but"
                + " not written; add \"typesize\" (the size in bytes of the data type, for example 4 for float32)");
    }

    private static int shuffleCode(Shuffle shuffle) {
        return switch (shuffle) {
            case NOSHUFFLE -> 0;
            case SHUFFLE -> 1;
            case BITSHUFFLE -> 2;
        };
    }

    /** Exactly the header's {@code nbytes}, once the header has passed the checks of {@link BloscHeader#read}. */
    @Override
    public EncodedSize decodedSize(ByteBuffer encoded) {
        return EncodedSize.fixed(BloscHeader.read(encoded.slice(), EncodedSize.unbounded(), library().compressors())
                .nbytes());
    }

    /**
     * Decodes a frame of 1 MiB or more in pieces of whole blocks on the instance's threads
     * ({@link #decodePieces}): this is how a chunk read on its own ({@code readChunk}) is decoded.
     */
    @Override
    public ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize) {
        Objects.requireNonNull(decodedSize, "decodedSize");
        BloscLibrary library = library();
        ByteBuffer in = encoded.slice();
        BloscHeader h = BloscHeader.read(in, decodedSize, library.compressors());
        int n = h.nbytes();
        if (n == 0) {
            return ByteBuffer.allocate(0);
        }
        if (h.memcpyed()) {
            return in.slice(BloscHeader.SIZE, n);
        }
        byte[] result = new byte[n];
        try (Scratch out = Scratch.take(blockSize(h))) {
            ByteBuffer dest = out.buffer(n);
            if (!decodeInPieces(library, in, h, dest, ByteBuffer.wrap(result))) {
                decompress(library, in, h, dest);
                dest.get(0, result);
            }
            return ByteBuffer.wrap(result);
        }
    }

    /**
     * Decompresses straight into a direct destination; a heap destination receives one copy out
     * of native scratch memory. In one call when the caller runs one piece of a parallel read
     * ({@link TaskRunner#inPiece()}: the chunks of a read into the caller's array keep every
     * thread busy with chunks of their own, where pieces only cost; a whole-array read of 4 MiB
     * chunks took about 5% more CPU and time in pieces); otherwise (a chunk read on its own,
     * decoded straight into its result) a frame of 1 MiB or more in pieces, as {@link #decode}.
     */
    @Override
    public void decodeInto(ByteBuffer encoded, ByteBuffer destination) {
        BloscLibrary library = library();
        ByteBuffer in = encoded.slice();
        int n = destination.remaining();
        BloscHeader h = BloscHeader.read(in, EncodedSize.fixed(n), library.compressors());
        if (n == 0) {
            return;
        }
        if (h.memcpyed()) {
            destination.put(destination.position(), in, BloscHeader.SIZE, n);
            return;
        }
        boolean alone = !tasks.inPiece();
        if (destination.isDirect()) {
            ByteBuffer dest = destination.slice(); // position 0, whatever JNA does with positions
            if (!alone || !decodeInPieces(library, in, h, dest, null)) {
                decompress(library, in, h, dest);
            }
            return;
        }
        try (Scratch out = Scratch.take(blockSize(h))) {
            ByteBuffer dest = out.buffer(n);
            ByteBuffer copyTo = destination.slice(destination.position(), n);
            if (!alone || !decodeInPieces(library, in, h, dest, copyTo)) {
                decompress(library, in, h, dest);
                copyTo.put(0, dest, 0, n);
            }
        }
    }

    /** Frames that decode to less than this are decoded whole, in one call. */
    static final int SPLIT_FROM = 1 << 20;
    /** The least decoded bytes of one piece of a frame decoded in pieces. */
    static final int MIN_PIECE = 512 << 10;
    /**
     * The most pieces one frame is decoded in: the cores, at most 4. Each piece costs a c-blosc
     * context (its working memory is allocated and freed per call), so when every thread is busy
     * with chunks of its own, more pieces only cost more; measured on two cores, four pieces cost a
     * whole-array read about 8% more CPU, two about 3%.
     */
    static final int MAX_PIECES = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));

    /** Into how many pieces {@code blocks} blocks holding {@code bytes} decoded bytes are split; 1: not. */
    static int pieces(int blocks, long bytes) {
        if (bytes < SPLIT_FROM) {
            return 1;
        }
        return (int) Math.min(Math.min(blocks, MAX_PIECES), bytes / MIN_PIECE);
    }

    /**
     * Decodes a checked, compressed frame of several blocks in pieces on {@link #tasks}, when it is
     * large enough ({@link #pieces}) and its layout plain ({@link BloscBlocks#of}).
     *
     * @return false when it did not, or c-blosc rejected a piece: the caller decodes the whole
     *         frame then, which reports what is wrong as before
     * @see #decodePieces
     */
    private boolean decodeInPieces(BloscLibrary library, ByteBuffer in, BloscHeader h, ByteBuffer dest,
                                   ByteBuffer copyTo) {
        if (pieces(BloscBlocks.count(h), h.nbytes()) < 2) {
            return false;
        }
        BloscBlocks blocks = BloscBlocks.of(h, in);
        return blocks != null
                && decodePieces(library, blocks, 0, blocks.count(), in, 0, dest, copyTo, true);
    }

    /**
     * Decodes blocks {@code [first, last)} as {@link #pieces} sub-frames ({@link BloscBlocks}), on
     * {@link #tasks}: idle threads of the instance's budget take pieces, and the caller runs the
     * rest, so a read that keeps every thread busy with its own chunks loses only the cost of
     * cutting the frame.
     *
     * @param first      the first block; not the frame's partial last block alone
     * @param data       the frame's bytes from offset {@code dataOffset} on, holding those blocks
     * @param dest       direct, position 0: receives the blocks' decoded bytes
     * @param copyTo     when not null, each piece is copied there too, at the same offset
     * @param split      false: one sub-frame, decoded in the caller
     * @return false when c-blosc rejected a piece (the content of {@code dest} is then undefined)
     */
    boolean decodePieces(BloscLibrary library, BloscBlocks blocks, int first, int last, ByteBuffer data,
                         int dataOffset, ByteBuffer dest, ByteBuffer copyTo, boolean split) {
        if (!blocks.streamsFit(data, dataOffset, first, last)) {
            return false;
        }
        // The frame's partial last block goes with the block before it (BloscBlocks.decodableFirst).
        int units = last - first - (last == blocks.count() && blocks.hasPartialLast() && last - first > 1 ? 1 : 0);
        int pieces = split ? Math.max(1, Math.min(units, pieces(units, blocks.decodedSize(first, last)))) : 1;
        int[] bounds = new int[pieces + 1];
        int[] frameAt = new int[pieces + 1];
        for (int p = 0; p <= pieces; p++) {
            bounds[p] = p == pieces ? last : first + (int) ((long) units * p / pieces);
            if (p > 0) {
                frameAt[p] = frameAt[p - 1] + blocks.subFrameSize(bounds[p - 1], bounds[p]);
            }
        }
        AtomicBoolean rejected = new AtomicBoolean();
        long base = blocks.decodedStart(first);
        try (Scratch frames = Scratch.take(Math.max(blockSize(blocks.header()), frameAt[pieces]))) {
            ByteBuffer all = frames.buffer(frameAt[pieces]);
            tasks.forEach(pieces, p -> {
                if (rejected.get()) {
                    return;
                }
                int a = bounds[p];
                int b = bounds[p + 1];
                int size = blocks.writeSubFrame(a, b, data, dataOffset, all, frameAt[p]);
                int at = (int) (blocks.decodedStart(a) - base);
                int n = blocks.decodedSize(a, b);
                int got = library.decompress(all.slice(frameAt[p], size), dest.slice(at, n), n);
                if (got != n) {
                    rejected.set(true);
                } else if (copyTo != null) {
                    copyTo.put(copyTo.position() + at, dest, at, n);
                }
            });
        }
        return !rejected.get();
    }

    /**
     * Reads only the blocks of a stored frame that each read needs, and decodes them as sub-frames
     * ({@link BloscBlocks}); present when {@code decodedSize} is exact. See
     * {@link BloscPartialSource}.
     */
    @Override
    public Optional<ByteSource> partialDecoder(ByteSource input, EncodedSize decodedSize) {
        if (!(decodedSize instanceof EncodedSize.Fixed f) || f.bytes() > BloscHeader.MAX_BUFFER) {
            return Optional.empty();
        }
        return Optional.of(new BloscPartialSource(this, input, (int) f.bytes()));
    }

    /** c-blosc, for {@link BloscPartialSource}. */
    BloscLibrary nativeLibrary() {
        return library();
    }

    /** The size an encoder of the same chunk asks for, so that pooled blocks are interchangeable (Scratch). */
    static int blockSize(BloscHeader h) {
        return Math.max(h.nbytes() + BloscHeader.SIZE, h.cbytes());
    }

    /**
     * Decompresses a checked frame into {@code dest} (direct, position 0, the decoded size
     * remaining), copying a heap input into native scratch memory first.
     */
    private static void decompress(BloscLibrary library, ByteBuffer in, BloscHeader h, ByteBuffer dest) {
        int n = h.nbytes();
        try (Scratch copy = in.isDirect() ? null : Scratch.take(blockSize(h))) {
            ByteBuffer src = in;
            if (copy != null) {
                src = copy.buffer(h.cbytes()).put(0, in, 0, h.cbytes());
            }
            int size = library.decompress(src, dest, n);
            if (size != n) {
                throw new CorruptDataException(NAME + ": corrupt frame: c-blosc " + library.version()
                        + (size < 0 ? " rejected it (error " + size + ")" : " decoded " + size + " bytes")
                        + "; the header promised " + n + " bytes compressed with " + h.formatName());
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BloscCodec other && config.equals(other.config);
    }

    @Override
    public int hashCode() {
        return config.hashCode();
    }

    @Override
    public String toString() {
        return "BloscCodec" + config.configurationJson();
    }
}
