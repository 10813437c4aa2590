package dev.ferry.store;

import java.nio.file.Path;

/**
 * Makes consume-queue and index writes durable and records the checkpoint, once per flush interval on the checkpoint
 * thread. The dispatched offset is read before forcing, so the checkpoint never claims entries the force did not
 * cover.
 */
final class CheckpointService implements DutyLoop.Duty {
    private final Path storeDir;
    private final CommitLog commitLog;
    private final ConsumeQueueTable consumeQueues;
    private final MessageIndex index;
    private final Dispatcher dispatcher;
    private Checkpoint last;

    CheckpointService(Path storeDir, CommitLog commitLog, ConsumeQueueTable consumeQueues, MessageIndex index,
                      Dispatcher dispatcher) {
        this.storeDir = storeDir;
        this.commitLog = commitLog;
        this.consumeQueues = consumeQueues;
        this.index = index;
        this.dispatcher = dispatcher;
    }

    @Override
    public int doWork() {
        writeCheckpoint();
        return 0;
    }

    /** Forces consume queues and index, then writes the checkpoint if anything moved. */
    synchronized void writeCheckpoint() {
        long dispatched = dispatcher.dispatchedOffset();
        long timestamp = dispatcher.lastDispatchedTimestamp();
        consumeQueues.flush();
        index.flush();
        Checkpoint next = new Checkpoint(timestamp, timestamp, timestamp, commitLog.flushedOffset(), dispatched,
            dispatched);
        if (!next.equals(last)) {
            next.write(storeDir);
            last = next;
        }
    }
}
