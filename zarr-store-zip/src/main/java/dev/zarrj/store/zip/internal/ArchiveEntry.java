package dev.zarrj.store.zip.internal;

/**
 * One entry of an archive's central directory, with its data located.
 *
 * @param name               the entry's name, for example {@code inner/c/0/1} or {@code inner/c/} (a directory)
 * @param method             the compression method (0 stored, 8 deflated, others unsupported)
 * @param dataOffset         where its (compressed) data starts in the archive
 * @param compressedSize     the length of its data in the archive
 * @param size               its length once inflated
 * @param crc                its CRC-32
 * @param time               its modification time, in milliseconds since the epoch
 * @param unixMode           its Unix mode, or 0 when the archive has none
 * @param externalAttributes its external attributes as recorded
 * @param problem            why its data cannot be read, or null: found when the archive is
 *                           opened, reported when the entry is read
 */
record ArchiveEntry(String name, int method, long dataOffset, long compressedSize, long size, long crc, long time,
        int unixMode, long externalAttributes, Problem problem) {
    /**
     * Why an entry cannot be read.
     *
     * @param corrupt whether the archive is damaged (else it uses a feature this store lacks)
     * @param reason  what is wrong, for the message
     */
    record Problem(boolean corrupt, String reason) {}

    static final int STORED = 0;
    static final int DEFLATED = 8;

    /** Whether this is a directory entry (its name ends with {@code /}); directories are not keys. */
    boolean isDirectory() {
        return name.endsWith("/");
    }
}
