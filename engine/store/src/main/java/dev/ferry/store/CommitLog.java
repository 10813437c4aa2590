package dev.ferry.store;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The commit log: every message of every topic, appended in arrival order to {@link SegmentedFile} segments in the
 * stored-message layout, rolled with the end-of-segment blank marker. Appending threads take turns under one lock,
 * which covers assigning offsets and copying the prepared bytes; the lock also guards the next queue offset of every
 * queue. Readers on any thread see entries below {@link #writtenOffset()}; the flushing thread moves
 * {@link #flushedOffset()}.
 */
final class CommitLog {
    private final SegmentedFile file;
    private final Clock clock;
    private final DiskGuard diskGuard;
    private final ReentrantLock appendLock = new ReentrantLock();
    private final Map<QueueKey, Long> nextQueueOffsets = new HashMap<>();
    private volatile long writtenOffset;
    private volatile long flushedOffset;
    private volatile boolean closed;
    private volatile long forces;
    private long lastStoreTimestamp;
    /** Where an entry is encoded before a channel write; guarded by the append lock. */
    private ByteBuffer staging = ByteBuffer.allocate(0);

    CommitLog(SegmentedFile file, Clock clock, DiskGuard diskGuard) {
        this.file = file;
        this.clock = clock;
        this.diskGuard = diskGuard;
    }

    SegmentedFile file() {
        return file;
    }

    /**
     * Appends one prepared message. The returned result's offsets are final; durability is the flush service's
     * business.
     */
    AppendResult append(PreparedMessage message) {
        int length = message.encodedLength();
        int segmentSize = file.segmentSize();
        if (length + StoredMessageCodec.BLANK_MARKER_SIZE > segmentSize) {
            return AppendResult.rejected(AppendStatus.MESSAGE_TOO_LARGE,
                "entry of " + length + " bytes does not fit a segment of " + segmentSize);
        }
        appendLock.lock();
        try {
            if (closed) {
                return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, "commit log is closed");
            }
            MappedSegment segment = file.lastOrCreate(writtenOffset, clock.millis());
            boolean roll = segment.remaining() < length + StoredMessageCodec.BLANK_MARKER_SIZE;
            if (!diskGuard.allowsAppend(roll ? segmentSize : 0)) {
                return AppendResult.rejected(AppendStatus.DISK_FULL, diskGuard.reason());
            }
            long now = Math.max(clock.millis(), lastStoreTimestamp);
            if (roll) {
                segment = roll(segment, now);
            }
            return write(segment, message, now);
        } catch (UncheckedIOException e) {
            // nothing was published: the next append writes over whatever part of this one reached the file
            return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, e.getMessage());
        } finally {
            appendLock.unlock();
        }
    }

    private MappedSegment roll(MappedSegment full, long now) {
        if (full.remaining() > 0) {
            int position = full.writePosition();
            if (full.writesThroughChannel()) {
                ByteBuffer staging = staging(StoredMessageCodec.BLANK_MARKER_SIZE);
                StoredMessageCodec.encodeBlank(staging, 0, full.remaining());
                full.writeThroughChannel(staging, position);
            } else {
                StoredMessageCodec.encodeBlank(full.buffer(), position, full.remaining());
            }
            full.publishWritePosition(full.size(), now);
        }
        return file.addSegment(full.baseOffset() + full.size(), now);
    }

    private AppendResult write(MappedSegment segment, PreparedMessage message, long storeTimestamp) {
        int position = segment.writePosition();
        long physicalOffset = segment.baseOffset() + position;
        QueueKey queue = new QueueKey(message.message().topic(), message.message().queueId());
        long queueOffset = message.isDispatched() ? nextQueueOffsets.getOrDefault(queue, 0L) : 0L;
        if (segment.writesThroughChannel()) {
            ByteBuffer staging = staging(message.encodedLength());
            StoredMessageCodec.encode(staging, 0, message, queueOffset, physicalOffset, storeTimestamp);
            segment.writeThroughChannel(staging, position);
        } else {
            StoredMessageCodec.encode(segment.buffer(), position, message, queueOffset, physicalOffset,
                storeTimestamp);
        }
        segment.publishWritePosition(position + message.encodedLength(), storeTimestamp);
        if (message.isDispatched()) {
            nextQueueOffsets.put(queue, queueOffset + 1);
        }
        lastStoreTimestamp = storeTimestamp;
        writtenOffset = physicalOffset + message.encodedLength();
        return new AppendResult(AppendStatus.PUT_OK, physicalOffset, message.encodedLength(), queueOffset,
            storeTimestamp, message.message().storeHost(), "");
    }

    /** The staging buffer for channel writes, cleared and limited to {@code length}; grown when too small. */
    private ByteBuffer staging(int length) {
        if (staging.capacity() < length) {
            staging = ByteBuffer.allocateDirect(Math.max(length, staging.capacity() * 2));
        }
        return staging.clear().limit(length);
    }

    /** Forces written bytes; returns the new flushed offset. Serialized: the flush thread, or close. */
    synchronized long flush() {
        long target = writtenOffset;
        if (target > flushedOffset) {
            file.flush();
            forces = forces + 1;
            flushedOffset = target;
        }
        return flushedOffset;
    }

    /** How many times {@link #flush()} forced bytes to disk. */
    long forces() {
        return forces;
    }

    long writtenOffset() {
        return writtenOffset;
    }

    long flushedOffset() {
        return flushedOffset;
    }

    long minOffset() {
        return file.minOffset();
    }

    /** Sets the state found by recovery: the end of the valid entries and every queue's next offset. */
    void restore(long validEndOffset, Map<QueueKey, Long> queueOffsets) {
        appendLock.lock();
        try {
            writtenOffset = validEndOffset;
            flushedOffset = validEndOffset;
            nextQueueOffsets.clear();
            nextQueueOffsets.putAll(queueOffsets);
        } finally {
            appendLock.unlock();
        }
    }

    /** A read-only slice of {@code size} bytes at {@code physicalOffset}, if all of it is written and on disk. */
    Optional<ByteBuffer> slice(long physicalOffset, int size) {
        if (physicalOffset < 0 || size <= 0 || physicalOffset + size > writtenOffset) {
            return Optional.empty();
        }
        return file.segmentFor(physicalOffset).flatMap(segment -> {
            int position = (int) (physicalOffset - segment.baseOffset());
            return position + size <= segment.writePosition()
                ? Optional.of(segment.slice(position, size)) : Optional.empty();
        });
    }

    /** The message entry starting at {@code physicalOffset}, if there is one. */
    Optional<StoredMessageView> messageAt(long physicalOffset) {
        return slice(physicalOffset, StoredMessageCodec.BLANK_MARKER_SIZE).flatMap(header -> {
            int magic = header.getInt(StoredMessageCodec.MAGIC_POSITION);
            if (magic != StoredMessageCodec.MAGIC_V1 && magic != StoredMessageCodec.MAGIC_V2) {
                return Optional.empty();
            }
            return slice(physicalOffset, header.getInt(StoredMessageCodec.TOTAL_SIZE_POSITION))
                .map(StoredMessageView::over);
        });
    }

    /**
     * Hands every message entry from {@code from} up to {@code limit} to {@code sink}, skipping blank markers, and
     * returns the offset reached. Entries below the first segment are skipped to it.
     */
    long forEachEntry(long from, long limit, Consumer<StoredMessageView> sink) {
        long offset = Math.max(from, file.minOffset());
        while (offset < limit) {
            Optional<MappedSegment> found = file.segmentFor(offset);
            if (found.isEmpty()) {
                break;
            }
            MappedSegment segment = found.get();
            int position = (int) (offset - segment.baseOffset());
            ByteBuffer buffer = segment.buffer();
            int size = buffer.getInt(position + StoredMessageCodec.TOTAL_SIZE_POSITION);
            if (size <= 0) {
                break;
            }
            if (buffer.getInt(position + StoredMessageCodec.MAGIC_POSITION) != StoredMessageCodec.BLANK_MAGIC) {
                sink.accept(StoredMessageView.over(segment.slice(position, size)));
            }
            offset += size;
        }
        return offset;
    }

    /** Refuses further appends. */
    void close() {
        appendLock.lock();
        try {
            closed = true;
        } finally {
            appendLock.unlock();
        }
    }
}
