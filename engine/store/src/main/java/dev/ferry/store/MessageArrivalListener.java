package dev.ferry.store;

/**
 * Told about every message the dispatcher puts into a consume queue, on the dispatch thread or, under async flush, on
 * the thread that appended it: the broker's hook for waking held pull requests. Must return quickly and not call back
 * into appends.
 */
@FunctionalInterface
public interface MessageArrivalListener {
    MessageArrivalListener NONE = (topic, queueId, nextQueueOffset, tagsCode, storeTimestamp) -> { };

    void onArrival(String topic, int queueId, long nextQueueOffset, long tagsCode, long storeTimestamp);
}
