package dev.ferry.store;

import dev.ferry.format.AtomicFile;
import dev.ferry.format.Clock;
import java.time.Duration;

/**
 * Makes consume-queue and index writes durable and records the checkpoint, once per flush interval on the checkpoint
 * thread. The dispatched offset is read before forcing, so the checkpoint never claims entries the force did not
 * cover.
 *
 * <p>Consume queues are forced every round; the index only once per index flush interval (and on {@link #flushAll}):
 * its hash slots take random writes, so each force writes back pages all over the file, while recovery rebuilds
 * whatever the index lost from the commit log anyway. The checkpoint's index offset is the one of the last index
 * force, so recovery re-dispatches from there.
 */
final class CheckpointService implements DutyLoop.Duty {
    private final AtomicFile file;
    private final CommitLog commitLog;
    private final ConsumeQueueTable consumeQueues;
    private final MessageIndex index;
    private final Dispatcher dispatcher;
    private final Clock clock;
    private final long indexFlushIntervalMillis;
    private Checkpoint last;
    private long indexDurableOffset;
    private long indexDurableTimestamp;
    private long lastIndexForceMillis = Long.MIN_VALUE;

    CheckpointService(AtomicFile file, CommitLog commitLog, ConsumeQueueTable consumeQueues, MessageIndex index,
                      Dispatcher dispatcher, Clock clock, Duration indexFlushInterval) {
        this.file = file;
        this.commitLog = commitLog;
        this.consumeQueues = consumeQueues;
        this.index = index;
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.indexFlushIntervalMillis = indexFlushInterval.toMillis();
    }

    @Override
    public int doWork() {
        writeCheckpoint(false);
        return 0;
    }

    /** Forces consume queues and the index, then writes the checkpoint: the shutdown and on-demand path. */
    void flushAll() {
        writeCheckpoint(true);
    }

    /** Forces consume queues (and the index when due), then writes the checkpoint if anything moved. */
    private synchronized void writeCheckpoint(boolean forceIndex) {
        long dispatched = dispatcher.dispatchedOffset();
        long consumeQueuesComplete = dispatcher.consumeQueueCompleteOffset();
        long timestamp = dispatcher.lastDispatchedTimestamp();
        consumeQueues.flush();
        long now = clock.millis();
        if (forceIndex || lastIndexForceMillis == Long.MIN_VALUE
            || now - lastIndexForceMillis >= indexFlushIntervalMillis) {
            index.flush();
            indexDurableOffset = dispatched;
            indexDurableTimestamp = timestamp;
            lastIndexForceMillis = now;
        }
        Checkpoint next = new Checkpoint(timestamp, timestamp, indexDurableTimestamp, commitLog.flushedOffset(),
            consumeQueuesComplete, indexDurableOffset);
        if (!next.equals(last)) {
            next.write(file);
            last = next;
        }
    }
}
