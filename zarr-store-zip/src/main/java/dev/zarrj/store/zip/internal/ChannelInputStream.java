package dev.zarrj.store.zip.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** A part of a shared file read with positional reads, as a stream; it does not close the file. */
final class ChannelInputStream extends InputStream {
    private final ArchiveChannel channel;
    private long at;
    private final long end;

    ChannelInputStream(ArchiveChannel channel, long start, long length) {
        this.channel = channel;
        this.at = start;
        this.end = start + length;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (at >= end) {
            return -1;
        }
        int n = (int) Math.min(len, end - at);
        channel.readFully(ByteBuffer.wrap(b, off, n), at);
        at += n;
        return n;
    }
}
