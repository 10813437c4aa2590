package dev.ferry.store;

import java.util.function.LongSupplier;

/**
 * Follows the commit log: reads every entry from {@link #dispatchedOffset()} up to the confirmed offset (what is
 * written under async flush, what is flushed under sync flush, so consumers never see bytes a crash could take back),
 * writes its consume-queue entry (not for prepared or rolled-back transactional messages) and its index keys, and tells
 * the arrival listener. Owned by the dispatch thread; {@link #dispatchUpTo} also runs on the opening thread during
 * recovery, before that thread starts.
 */
final class Dispatcher implements DutyLoop.Duty {
    private final CommitLog commitLog;
    private final ConsumeQueueTable consumeQueues;
    private final MessageIndex index;
    private final LongSupplier confirmedOffset;
    private final MessageArrivalListener listener;
    private volatile long dispatchedOffset;
    private volatile long lastDispatchedTimestamp;

    Dispatcher(CommitLog commitLog, ConsumeQueueTable consumeQueues, MessageIndex index, LongSupplier confirmedOffset,
               MessageArrivalListener listener) {
        this.commitLog = commitLog;
        this.consumeQueues = consumeQueues;
        this.index = index;
        this.confirmedOffset = confirmedOffset;
        this.listener = listener;
    }

    long dispatchedOffset() {
        return dispatchedOffset;
    }

    long lastDispatchedTimestamp() {
        return lastDispatchedTimestamp;
    }

    /** Where to start (recovery's verdict). */
    void startFrom(long offset) {
        dispatchedOffset = offset;
    }

    @Override
    public int doWork() {
        long before = dispatchedOffset;
        dispatchUpTo(confirmedOffset.getAsLong(), true);
        return dispatchedOffset > before ? 1 : 0;
    }

    /** Dispatches entries up to {@code limit}; returns how many messages. */
    int dispatchUpTo(long limit, boolean notify) {
        int[] count = {0};
        dispatchedOffset = commitLog.forEachEntry(dispatchedOffset, limit, message -> {
            dispatch(message, notify);
            count[0]++;
        });
        return count[0];
    }

    private void dispatch(StoredMessageView message, boolean notify) {
        if (MessageSysFlag.isDispatchedToConsumeQueue(message.sysFlag())) {
            long tagsCode = message.tagsCode();
            ConsumeQueue queue = consumeQueues.findOrCreate(message.topic(), message.queueId());
            queue.put(message.queueOffset(), message.physicalOffset(), message.totalSize(), tagsCode);
            if (notify) {
                listener.onArrival(message.topic(), message.queueId(), message.queueOffset() + 1, tagsCode,
                    message.storeTimestamp());
            }
        }
        index.add(message);
        lastDispatchedTimestamp = message.storeTimestamp();
    }
}
