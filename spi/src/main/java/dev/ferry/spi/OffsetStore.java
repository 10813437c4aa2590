package dev.ferry.spi;

import dev.ferry.api.MessageQueue;
import java.util.Map;
import java.util.Set;

/**
 * Remembers, per queue, the next offset one consumer group should consume, and makes it durable
 * (on the broker for clustering, in a local file for broadcasting).
 *
 * <p>Offsets are always the <em>next</em> offset to consume. The consumer updates the in-memory table
 * as messages are consumed and persists it periodically (every 5 s), when a queue is taken away, and at
 * shutdown. Methods are called from the consumer's threads concurrently and must be thread-safe.
 */
public interface OffsetStore {

    /** {@link #read} result: no offset is known for the queue. */
    long NO_OFFSET = -1L;

    /** {@link #read} result: the backing store could not be asked; the caller must retry, not reset. */
    long READ_FAILED = -2L;

    /** Loads durable offsets into memory (a local file store reads its file; a broker store does nothing). */
    void load();

    /**
     * Sets a queue's offset in memory.
     *
     * @param queue the queue
     * @param nextOffset the next offset to consume
     * @param increaseOnly when {@code true} a lower value than the current one is ignored (concurrent
     *     consumption finishing out of order); when {@code false} the value is taken as is (a reset)
     */
    void update(MessageQueue queue, long nextOffset, boolean increaseOnly);

    /**
     * @param queue the queue
     * @param type where to look
     * @return the next offset to consume, {@link #NO_OFFSET}, or {@link #READ_FAILED}
     */
    long read(MessageQueue queue, ReadOffsetType type);

    /**
     * Makes one queue's in-memory offset durable. Failures are logged, not thrown: the next persist
     * retries.
     *
     * @param queue the queue
     */
    void persist(MessageQueue queue);

    /**
     * Makes the offsets of the consumer's assigned queues durable; a broker store also forgets queues
     * no longer assigned. Failures are logged, not thrown.
     *
     * @param assigned the queues the consumer currently reads
     */
    void persistAll(Set<MessageQueue> assigned);

    /**
     * Forgets a queue's in-memory offset, after it was persisted and the queue was taken away.
     *
     * @param queue the queue
     */
    void remove(MessageQueue queue);

    /**
     * @param topic the topic
     * @return a copy of the in-memory offsets of the topic's queues
     */
    Map<MessageQueue, Long> offsets(String topic);
}
