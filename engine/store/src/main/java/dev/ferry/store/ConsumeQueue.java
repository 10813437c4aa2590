package dev.ferry.store;

import dev.ferry.format.Clock;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One queue's index into the commit log: fixed 20-byte entries (commit-log offset 8, size 4, tag code 8) in
 * {@link SegmentedFile} segments named by byte offset; the logical offset of an entry is its byte position / 20. The
 * dispatcher is the only writer of entries, one thread at a time in its turn (recovery runs before it starts); the
 * retention thread only moves {@link #minOffset()} and deletes head segments, which the segment list's monitor keeps
 * apart from the writer's segment rolls. Readers on any thread read between the published min and next offsets.
 */
final class ConsumeQueue {
    static final int ENTRY_SIZE = 20;
    /** Size value of an entry that fills a gap in the queue offsets; readers skip it. */
    static final int FILLER_SIZE = Integer.MAX_VALUE;
    private static final System.Logger LOG = System.getLogger(ConsumeQueue.class.getName());

    private final QueueKey key;
    private final SegmentedFile file;
    private final Clock clock;
    private volatile long minOffset;
    private volatile long nextOffset;

    ConsumeQueue(QueueKey key, Path dir, int entriesPerSegment, Clock clock) {
        this.key = key;
        this.file = new SegmentedFile(dir, entriesPerSegment * ENTRY_SIZE);
        this.clock = clock;
    }

    /** Maps the segments and finds the last written entry. */
    void load() {
        file.load(clock.millis());
        Optional<MappedSegment> last = file.last();
        if (last.isEmpty()) {
            return;
        }
        MappedSegment segment = last.get();
        int position = 0;
        while (position < segment.size() && segment.buffer().getInt(position + 8) != 0) {
            position += ENTRY_SIZE;
        }
        segment.resetPositions(position);
        segment.markFlushed();
        minOffset = file.minOffset() / ENTRY_SIZE;
        nextOffset = segment.writtenOffset() / ENTRY_SIZE;
    }

    /** Smallest logical offset still readable. */
    long minOffset() {
        return minOffset;
    }

    /** The next logical offset to be written: one past the last entry. */
    long nextOffset() {
        return nextOffset;
    }

    /**
     * Writes the entry for {@code queueOffset}; an offset already present is ignored (re-dispatch after recovery), a
     * gap is filled with filler entries.
     */
    void put(long queueOffset, long physicalOffset, int size, long tagsCode) {
        if (queueOffset < nextOffset) {
            return;
        }
        if (queueOffset > nextOffset) {
            LOG.log(Level.WARNING, "consume queue {0} jumps from {1} to {2}; filling the gap", key, nextOffset,
                queueOffset);
            while (nextOffset < queueOffset) {
                write(0, FILLER_SIZE, 0);
            }
        }
        write(physicalOffset, size, tagsCode);
    }

    private void write(long physicalOffset, int size, long tagsCode) {
        long byteOffset = nextOffset * ENTRY_SIZE;
        MappedSegment segment = file.lastOrCreate(byteOffset, clock.millis());
        if (segment.remaining() < ENTRY_SIZE) {
            segment = file.addSegment(segment.baseOffset() + segment.size(), clock.millis());
        }
        int position = segment.writePosition();
        ByteBuffer buffer = segment.buffer();
        buffer.putLong(position, physicalOffset);
        buffer.putInt(position + 8, size);
        buffer.putLong(position + 12, tagsCode);
        segment.publishWritePosition(position + ENTRY_SIZE, clock.millis());
        nextOffset = nextOffset + 1;
    }

    /** The entry at a logical offset, if it is between min and max and not a filler. */
    Optional<Entry> entry(long offset) {
        if (offset < minOffset || offset >= nextOffset) {
            return Optional.empty();
        }
        long byteOffset = offset * ENTRY_SIZE;
        return file.segmentFor(byteOffset).map(segment -> {
            int position = (int) (byteOffset - segment.baseOffset());
            ByteBuffer buffer = segment.buffer();
            return new Entry(offset, buffer.getLong(position), buffer.getInt(position + 8),
                buffer.getLong(position + 12));
        }).filter(e -> e.size() != FILLER_SIZE);
    }

    /** Drops entries that point at or beyond {@code validEndOffset} of the commit log (after its truncation). */
    void truncateBeyond(long validEndOffset) {
        long keep = nextOffset;
        while (keep > minOffset && pointsBeyond(keep - 1, validEndOffset)) {
            keep--;
        }
        if (keep < nextOffset) {
            LOG.log(Level.INFO, "consume queue {0}: dropping offsets {1} to {2} beyond commit log offset {3}", key,
                keep, nextOffset, validEndOffset);
            file.truncateTo(keep * ENTRY_SIZE);
            nextOffset = keep;
        }
    }

    private boolean pointsBeyond(long offset, long validEndOffset) {
        long byteOffset = offset * ENTRY_SIZE;
        Optional<MappedSegment> segment = file.segmentFor(byteOffset);
        if (segment.isEmpty()) {
            return false;
        }
        ByteBuffer buffer = segment.get().buffer();
        int position = (int) (byteOffset - segment.get().baseOffset());
        int size = buffer.getInt(position + 8);
        return size == FILLER_SIZE || buffer.getLong(position) + size > validEndOffset;
    }

    /**
     * Moves the min offset to the first entry at or after {@code minPhysicalOffset} of the commit log and deletes the
     * segments all of whose entries point below it.
     */
    void advanceMinOffset(long minPhysicalOffset) {
        long offset = minOffset;
        while (offset < nextOffset && entryPointsBelow(offset, minPhysicalOffset)) {
            offset++;
        }
        minOffset = offset;
        long firstKeptByte = offset * ENTRY_SIZE;
        file.deleteHeadWhile(segment -> segment.baseOffset() + segment.size() <= firstKeptByte);
    }

    private boolean entryPointsBelow(long offset, long minPhysicalOffset) {
        long byteOffset = offset * ENTRY_SIZE;
        Optional<MappedSegment> segment = file.segmentFor(byteOffset);
        if (segment.isEmpty()) {
            return true;
        }
        int position = (int) (byteOffset - segment.get().baseOffset());
        ByteBuffer buffer = segment.get().buffer();
        return buffer.getInt(position + 8) == FILLER_SIZE || buffer.getLong(position) < minPhysicalOffset;
    }

    /** Releases the queue's segments and deletes their files (its topic was deleted). */
    void destroy() {
        file.close();
        file.segments().forEach(MappedSegment::delete);
    }

    void flush() {
        file.flush();
    }

    /**
     * One consume-queue entry.
     *
     * @param queueOffset    its logical offset
     * @param physicalOffset commit-log offset of the message
     * @param size           stored size of the message
     * @param tagsCode       hash code of the message's tags (0 without tags)
     */
    record Entry(long queueOffset, long physicalOffset, int size, long tagsCode) {
    }
}
