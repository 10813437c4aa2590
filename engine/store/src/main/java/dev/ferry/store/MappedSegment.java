package dev.ferry.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.function.BooleanSupplier;

/**
 * One fixed-size file, memory-mapped once, named by the 20-digit zero-padded offset of its first byte in the whole
 * log. The single writer (the owner of the enclosing log's write lock) writes, as {@link SegmentWrites} says, with
 * absolute puts into the mapping or with positional writes through the file channel, and then publishes the new
 * {@link #writePosition()}; readers only read the mapping, below a published position (the page cache is shared, so
 * channel writes are visible there at once). The flushing thread owns {@link #flushedPosition()}. The mapping is
 * never unmapped explicitly: a deleted segment's slices stay readable until the garbage collector drops the mapping.
 */
final class MappedSegment {
    private final Path file;
    private final long baseOffset;
    private final int size;
    private final MappedByteBuffer map;
    /** Open for the segment's life under {@link SegmentWrites#CHANNEL}; null when writes go into the mapping. */
    private final FileChannel channel;
    private volatile int writePosition;
    private volatile int flushedPosition;
    private volatile long lastWriteTimestamp;

    private MappedSegment(Path file, long baseOffset, int size, MappedByteBuffer map, FileChannel channel,
                          long lastWriteTimestamp) {
        this.channel = channel;
        this.file = file;
        this.baseOffset = baseOffset;
        this.size = size;
        this.map = map;
        this.lastWriteTimestamp = lastWriteTimestamp;
    }

    /** The file name for a segment starting at {@code baseOffset}. */
    static String fileName(long baseOffset) {
        return String.format("%020d", baseOffset);
    }

    /**
     * Maps {@code dir/<baseOffset>}, creating it or extending a short (torn) file to {@code size} bytes of zeroes.
     * {@code dir} must exist: {@link SegmentedFile} creates it, durably. Write and flushed positions start at 0; the
     * loader sets them.
     */
    static MappedSegment open(Path dir, long baseOffset, int size, long nowMillis, SegmentWrites writes) {
        Path file = dir.resolve(fileName(baseOffset));
        FileChannel channel = null;
        try {
            boolean existed = Files.exists(file);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
            if (channel.size() < size) {
                channel.write(ByteBuffer.allocate(1), size - 1L);
            }
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
            long lastWrite = existed ? Files.getLastModifiedTime(file).toMillis() : nowMillis;
            if (writes == SegmentWrites.MAPPED) {
                channel.close();
                channel = null;
            }
            return new MappedSegment(file, baseOffset, size, map, channel, lastWrite);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot map segment " + file, e);
        }
    }

    /**
     * Writes {@code length} zero bytes to a new file {@code target}, forces them and only then gives it its final
     * name, so a file with that name is always wholly allocated; false, leaving the staging file, when
     * {@code abandoned} says to stop. What {@link SegmentWrites#CHANNEL} segments are made from ahead of time.
     */
    static boolean writeZeroFilled(Path staging, Path target, int length, BooleanSupplier abandoned)
        throws IOException {
        ByteBuffer zeroes = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel out = FileChannel.open(staging, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long position = 0;
            while (position < length) {
                if (abandoned.getAsBoolean()) {
                    return false;
                }
                zeroes.clear().limit((int) Math.min(zeroes.capacity(), length - position));
                position += out.write(zeroes, position);
            }
            out.force(true);
        }
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        return true;
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing; the first error is the one to report
            }
        }
    }

    Path file() {
        return file;
    }

    long baseOffset() {
        return baseOffset;
    }

    int size() {
        return size;
    }

    /** The whole mapping, for absolute reads and writes; never move its position. */
    ByteBuffer buffer() {
        return map;
    }

    int writePosition() {
        return writePosition;
    }

    int remaining() {
        return size - writePosition;
    }

    /** Offset just past the last written byte. */
    long writtenOffset() {
        return baseOffset + writePosition;
    }

    void publishWritePosition(int position, long nowMillis) {
        this.writePosition = position;
        this.lastWriteTimestamp = nowMillis;
    }

    /** Sets positions at load or truncation time (no write in flight). */
    void resetPositions(int position) {
        this.writePosition = position;
        this.flushedPosition = Math.min(flushedPosition, position);
    }

    int flushedPosition() {
        return flushedPosition;
    }

    /** Time of the last write (file modification time when loaded); what retention compares. */
    long lastWriteTimestamp() {
        return lastWriteTimestamp;
    }

    /**
     * Writes the bytes remaining in {@code source} at {@code position} through the file channel. Only for
     * {@link SegmentWrites#CHANNEL} segments; the caller publishes the position afterwards.
     */
    void writeThroughChannel(ByteBuffer source, int position) {
        try {
            int at = position;
            while (source.hasRemaining()) {
                at += channel.write(source, at);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to segment " + file, e);
        }
    }

    /** Whether writes go through the file channel ({@link SegmentWrites#CHANNEL}) rather than into the mapping. */
    boolean writesThroughChannel() {
        return channel != null;
    }

    /** Forces written-but-unflushed bytes to the device; returns the new flushed position. */
    int flush() {
        int target = writePosition;
        int from = flushedPosition;
        if (target > from) {
            if (channel != null) {
                force(channel);
            } else {
                map.force(from, target - from);
            }
            flushedPosition = target;
        }
        return target;
    }

    private void force(FileChannel open) {
        try {
            open.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force segment " + file, e);
        }
    }

    /** Releases the file channel, if the segment holds one; the mapping stays readable. */
    void close() {
        closeQuietly(channel);
    }

    /** Marks everything written as flushed: used after loading, when the data on disk is what it is. */
    void markFlushed() {
        flushedPosition = writePosition;
    }

    /** A read-only view of {@code length} bytes at {@code position}. */
    ByteBuffer slice(int position, int length) {
        return map.slice(position, length).asReadOnlyBuffer();
    }

    /**
     * Zeroes every non-zero byte from {@code position} to the end and forces what changed, so a torn tail is never
     * read again. Untouched (sparse) pages are only read, never written. Returns the length of the span it cleared.
     */
    int zeroFrom(int position) {
        int firstDirty = -1;
        int lastDirty = -1;
        for (int p = position; p < size; p++) {
            if ((p & 7) == 0 && p + 8 <= size) {
                if (map.getLong(p) == 0) {
                    p += 7;
                    continue;
                }
                map.putLong(p, 0);
                firstDirty = firstDirty < 0 ? p : firstDirty;
                lastDirty = p + 8;
                p += 7;
            } else if (map.get(p) != 0) {
                map.put(p, (byte) 0);
                firstDirty = firstDirty < 0 ? p : firstDirty;
                lastDirty = p + 1;
            }
        }
        resetPositions(position);
        if (firstDirty < 0) {
            return 0;
        }
        map.force(firstDirty, lastDirty - firstDirty);
        return lastDirty - firstDirty;
    }

    void delete() {
        close();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete segment " + file, e);
        }
    }

    @Override
    public String toString() {
        return file.toString() + "@" + writePosition;
    }
}
