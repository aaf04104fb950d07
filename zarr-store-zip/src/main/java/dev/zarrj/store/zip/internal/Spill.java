package dev.zarrj.store.zip.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An append-only temporary file holding the values written to a zip store until the archive is
 * rewritten. Each {@code set} appends; a value is never changed once written, so readers need no
 * lock. A value replaced by a later {@code set} stays in the file as dead space until it is deleted.
 */
final class Spill implements AutoCloseable {
    /** Where one value lies in the spill file. */
    record Slot(long offset, int length) {}

    private final ArchiveChannel channel;
    private final AtomicLong end = new AtomicLong();

    private Spill(ArchiveChannel channel) {
        this.channel = channel;
    }

    /** Creates the spill file, which must not exist. */
    static Spill create(Path path) throws IOException {
        return new Spill(ArchiveChannel.create(path));
    }

    Path path() {
        return channel.path();
    }

    /** Appends a value (position to limit; the buffer is not modified). */
    Slot append(ByteBuffer value) throws IOException {
        ByteBuffer v = value.duplicate();
        int length = v.remaining();
        long offset = end.getAndAdd(length);
        channel.writeFully(v, offset);
        return new Slot(offset, length);
    }

    /** Reads {@code length} bytes of a value from {@code start}. */
    ByteBuffer read(Slot slot, long start, long length) throws IOException {
        ByteBuffer out = ByteBuffer.allocate((int) length);
        channel.readFully(out, slot.offset() + start);
        return out.flip();
    }

    /** A value as a stream. */
    InputStream stream(Slot slot) {
        return new ChannelInputStream(channel, slot.offset(), slot.length());
    }

    /** Closes and deletes the file. */
    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(channel.path());
        }
    }
}
