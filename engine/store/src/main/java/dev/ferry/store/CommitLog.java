package dev.ferry.store;

import dev.ferry.format.Clock;
import dev.ferry.format.StoredMessageCodec;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SysFlags;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The commit log: every message of every topic, appended in arrival order to {@link SegmentedFile} segments in the
 * stored-message layout, rolled with the end-of-segment blank marker. Appending threads take turns under one lock,
 * which covers assigning offsets and copying the prepared bytes; the lock also guards the next queue offset of every
 * queue. {@link #writtenOffset()} is where the next entry goes; the flushing thread moves {@link #flushedOffset()}.
 *
 * <p>Segments written into their mapping hold each entry as soon as it is appended. Segments written through their
 * file channel (sync flush, where every append waits for a force anyway) collect appended entries in a pending
 * buffer that {@link #flush()} writes with one positional write just before it forces, so each append costs a copy
 * in memory instead of a system call under the lock. Either way a segment's published write position covers only
 * bytes in the file, and readers see nothing beyond it.
 */
final class CommitLog {
    /** Room for the entries of one group commit many times over; grown for a larger entry. */
    private static final int PENDING_CAPACITY = 1024 * 1024;

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
    /** Entries appended to {@link #pendingSegment} but not yet in its file; guarded by the append lock. */
    private ByteBuffer pending = ByteBuffer.allocate(0);
    private MappedSegment pendingSegment;
    private int pendingPosition;
    private long pendingTimestamp;
    /** Why appends are refused after a write or a force failed; set under the append lock. */
    private volatile String failure;

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
            if (failure != null) {
                return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, failure);
            }
            MappedSegment segment = file.lastOrCreate(writtenOffset, clock.millis());
            boolean roll = remaining(segment) < length + StoredMessageCodec.BLANK_MARKER_SIZE;
            if (!diskGuard.allowsAppend(roll ? segmentSize : 0)) {
                return AppendResult.rejected(AppendStatus.DISK_FULL, diskGuard.reason());
            }
            long now = Math.max(clock.millis(), lastStoreTimestamp);
            if (roll) {
                segment = roll(segment, now);
            }
            return write(segment, message, now);
        } catch (UncheckedIOException e) {
            // Either pending entries were lost (failure is set and every later append is refused) or a roll
            // failed having published nothing new, and the next append writes over whatever reached the file.
            return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, e.getMessage());
        } finally {
            appendLock.unlock();
        }
    }

    /** Bytes left in {@code segment} after what was appended to it, pending entries included. */
    private int remaining(MappedSegment segment) {
        return (int) (segment.baseOffset() + segment.size() - writtenOffset);
    }

    private MappedSegment roll(MappedSegment full, long now) {
        int left = remaining(full);
        if (left > 0 && full.writesThroughChannel()) {
            ByteBuffer out = pendingFor(full, full.size() - left, StoredMessageCodec.BLANK_MARKER_SIZE);
            StoredMessageCodec.encodeBlank(out, out.position(), left);
            out.position(out.position() + StoredMessageCodec.BLANK_MARKER_SIZE);
            pendingTimestamp = now;
        } else if (left > 0) {
            StoredMessageCodec.encodeBlank(full.buffer(), full.size() - left, left);
        }
        writePending(); // the full segment is complete in its file before the next one takes appends
        if (left > 0) {
            full.publishWritePosition(full.size(), now);
        }
        MappedSegment next = file.addSegment(full.baseOffset() + full.size(), now);
        writtenOffset = next.baseOffset(); // the blank marker covers the rest of the full segment
        return next;
    }

    private AppendResult write(MappedSegment segment, PreparedMessage message, long storeTimestamp) {
        int position = (int) (writtenOffset - segment.baseOffset());
        long physicalOffset = segment.baseOffset() + position;
        QueueKey queue = new QueueKey(message.message().topic(), message.message().queueId());
        long queueOffset = message.isDispatched() ? nextQueueOffsets.getOrDefault(queue, 0L) : 0L;
        if (segment.writesThroughChannel()) {
            ByteBuffer out = pendingFor(segment, position, message.encodedLength());
            StoredMessageCodec.encode(out, out.position(), message, queueOffset, physicalOffset, storeTimestamp);
            out.position(out.position() + message.encodedLength());
            pendingTimestamp = storeTimestamp;
        } else {
            StoredMessageCodec.encode(segment.buffer(), position, message, queueOffset, physicalOffset,
                storeTimestamp);
            segment.publishWritePosition(position + message.encodedLength(), storeTimestamp);
        }
        if (message.isDispatched()) {
            nextQueueOffsets.put(queue, queueOffset + 1);
        }
        lastStoreTimestamp = storeTimestamp;
        writtenOffset = physicalOffset + message.encodedLength();
        return new AppendResult(AppendStatus.PUT_OK, physicalOffset, message.encodedLength(), queueOffset,
            storeTimestamp, message.message().storeHost(), "");
    }

    /**
     * The pending buffer, positioned where {@code length} bytes for {@code position} of {@code segment} go: pending
     * entries of another segment, or too many to leave room, are written out first.
     */
    private ByteBuffer pendingFor(MappedSegment segment, int position, int length) {
        if (pendingSegment != null && (pendingSegment != segment || pending.remaining() < length)) {
            writePending();
        }
        if (pendingSegment == null) {
            if (pending.capacity() < length) {
                pending = ByteBuffer.allocateDirect(Math.max(Math.max(length, PENDING_CAPACITY), pending.capacity()));
            }
            pending.clear();
            pendingSegment = segment;
            pendingPosition = position;
        }
        return pending;
    }

    /**
     * Writes the pending entries into their segment's file and publishes its write position. Under the append lock.
     * When the write fails, entries already assigned offsets are lost, so the log refuses every later append (a
     * restart recovers up to the last intact entry) rather than leave a hole behind newer entries.
     */
    private void writePending() {
        if (pendingSegment == null) {
            return;
        }
        MappedSegment segment = pendingSegment;
        pendingSegment = null;
        pending.flip();
        int length = pending.remaining();
        try {
            segment.writeThroughChannel(pending, pendingPosition);
        } catch (UncheckedIOException e) {
            stop("commit log stopped after a failed write: " + e.getMessage());
            throw e;
        } finally {
            pending.clear();
        }
        segment.publishWritePosition(pendingPosition + length, pendingTimestamp);
    }

    /**
     * Writes pending entries, then forces everything written; returns the new flushed offset. Serialized: the flush
     * thread, or close. A failed write or force stops the log: it throws, and from then on every append is refused
     * and the flushed offset stays where the last good force left it.
     */
    synchronized long flush() {
        long target;
        appendLock.lock();
        try {
            if (failure != null) {
                return flushedOffset; // entries that were never written must never count as durable
            }
            writePending();
            target = writtenOffset;
        } finally {
            appendLock.unlock();
        }
        if (target > flushedOffset) {
            try {
                file.flush();
            } catch (UncheckedIOException e) {
                // After a failed fsync the kernel may have dropped the dirty pages and a retry can report success
                // without them, so nothing written since the last good force may ever count as durable.
                stop("commit log stopped after a failed force: " + e.getMessage());
                throw e;
            }
            forces = forces + 1;
            flushedOffset = target;
        }
        return flushedOffset;
    }

    /** Refuses every later append, for {@code reason}. */
    private void stop(String reason) {
        appendLock.lock(); // held already when a pending write failed; the lock is reentrant
        try {
            failure = reason;
        } finally {
            appendLock.unlock();
        }
    }

    /** Whether a failed write or force stopped the log: no append succeeds and nothing more becomes durable. */
    boolean failed() {
        return failure != null;
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

    /**
     * Forgets a deleted topic's queue offsets, so that its next messages start its queues at 0 again; returns the
     * end of what was written before, which the dispatcher must reach before it drops the old queues.
     */
    long forgetQueues(String topic) {
        appendLock.lock();
        try {
            nextQueueOffsets.keySet().removeIf(queue -> queue.topic().equals(topic));
            return writtenOffset;
        } finally {
            appendLock.unlock();
        }
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

    /** The message entry starting at {@code physicalOffset}, if there is a whole, intact one. */
    Optional<StoredMessageView> messageAt(long physicalOffset) {
        return slice(physicalOffset, StoredMessageCodec.BLANK_MARKER_SIZE).flatMap(header -> {
            int magic = header.getInt(StoredMessageCodec.MAGIC_POSITION);
            if (magic != StoredMessageCodec.MAGIC_V1 && magic != StoredMessageCodec.MAGIC_V2) {
                return Optional.empty();
            }
            return slice(physicalOffset, header.getInt(StoredMessageCodec.TOTAL_SIZE_POSITION))
                .filter(entry -> StoredMessageCodec.isIntactEntry(entry, physicalOffset))
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

    /**
     * Appends entries a master replicated: whole stored entries, each at the offset it has on the master, which must
     * be where this log ends (or, for an empty log, the start of a segment). A blank marker (its first
     * {@link StoredMessageCodec#BLANK_MARKER_SIZE} bytes suffice) ends its segment as a roll does here. Every entry is
     * checked before any is written; returns the new end.
     *
     * @throws IllegalArgumentException when the bytes are not whole, intact entries at the right offsets, or do not
     *                                  fit this log's segments (a master with another segment size)
     */
    long appendReplicated(long offset, ByteBuffer entries) {
        appendLock.lock();
        try {
            if (closed || failure != null) {
                throw new IllegalStateException(closed ? "commit log is closed" : failure);
            }
            boolean empty = file.segments().isEmpty();
            if (empty ? offset % file.segmentSize() != 0 : offset != writtenOffset) {
                throw new IllegalArgumentException("replicated bytes start at " + offset + " but this commit log "
                        + (empty ? "is empty and needs the start of a segment" : "ends at " + writtenOffset));
            }
            writePending();
            List<ReplicaEntries.Entry> checked = ReplicaEntries.check(offset, entries, file.segmentSize());
            long now = Math.max(clock.millis(), lastStoreTimestamp);
            long at = offset;
            for (ReplicaEntries.Entry entry : checked) {
                at = entry.offset();
                long entryOffset = at;
                boolean newSegment = file.last().map(last -> entryOffset >= last.baseOffset() + last.size())
                        .orElse(true);
                if (!diskGuard.allowsAppend(newSegment ? file.segmentSize() : 0)) {
                    throw new IllegalStateException("cannot take replicated entries: " + diskGuard.reason());
                }
                MappedSegment segment = segmentForReplica(at, now);
                int inSegment = (int) (at - segment.baseOffset());
                int position = entry.position();
                int size = entry.size();
                if (entry.blank()) {
                    write(segment, entries.slice(position, StoredMessageCodec.BLANK_MARKER_SIZE), inSegment);
                    segment.publishWritePosition(segment.size(), now);
                } else {
                    StoredMessageView view = StoredMessageView.over(entries.slice(position, size));
                    write(segment, entries.slice(position, size), inSegment);
                    segment.publishWritePosition(inSegment + size, view.storeTimestamp());
                    if (SysFlags.isDispatchedToConsumeQueue(view.sysFlag())) {
                        nextQueueOffsets.merge(new QueueKey(view.topic(), view.queueId()), view.queueOffset() + 1,
                                Math::max);
                    }
                    lastStoreTimestamp = Math.max(lastStoreTimestamp, view.storeTimestamp());
                }
                at += size;
                writtenOffset = at; // entry by entry: what is written stays consistent if a later one fails
            }
            return writtenOffset;
        } catch (UncheckedIOException e) {
            stop("commit log stopped after a failed write of replicated entries: " + e.getMessage());
            throw e;
        } finally {
            appendLock.unlock();
        }
    }

    /** The segment {@code offset} goes into, created when it starts one. */
    private MappedSegment segmentForReplica(long offset, long now) {
        Optional<MappedSegment> last = file.last();
        if (last.isPresent() && offset < last.get().baseOffset()) {
            throw new IllegalStateException("replicated offset " + offset + " lies before the last segment "
                    + last.get().baseOffset());
        }
        if (last.isPresent() && offset < last.get().baseOffset() + last.get().size()) {
            return last.get();
        }
        return file.addSegment(offset, now);
    }

    private static void write(MappedSegment segment, ByteBuffer bytes, int position) {
        if (segment.writesThroughChannel()) {
            segment.writeThroughChannel(bytes, position);
        } else {
            segment.buffer().put(position, bytes, bytes.position(), bytes.remaining());
        }
    }

    /**
     * Up to {@code maxBytes} written bytes from {@code offset}, within the one segment holding it (from the next
     * segment when {@code offset} ends one), as a master sends them to its slaves; empty when nothing is written
     * there yet.
     *
     * @throws IllegalArgumentException when {@code offset} is below the first segment still on disk
     */
    Optional<ByteBuffer> replicaChunk(long offset, int maxBytes) {
        if (offset >= writtenOffset) {
            return Optional.empty();
        }
        if (offset < file.minOffset()) {
            throw new IllegalArgumentException("offset " + offset + " is no longer on disk; the commit log starts at "
                    + file.minOffset());
        }
        return file.segmentFor(offset).flatMap(segment -> {
            int position = (int) (offset - segment.baseOffset());
            int length = Math.min(maxBytes, segment.writePosition() - position);
            return length > 0 ? Optional.of(segment.slice(position, length)) : Optional.empty();
        });
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
