package dev.ferry.spi;

import dev.ferry.api.MessageQueue;
import java.util.List;

/**
 * Decides which of a topic's queues one consumer of a group reads, during client-side rebalance.
 *
 * <p>Every consumer of the group runs the same strategy on the same inputs and takes its own share, so
 * a strategy must be a deterministic function of its arguments (and, for a stateful strategy, of the
 * history of its own earlier calls). The caller sorts both lists ({@link MessageQueue}'s natural order
 * and client ids as strings) and allocates one topic per call; strategies never sort.
 *
 * <p>Shared argument rules: a blank {@code clientId}, or an empty {@code queues} or {@code clientIds},
 * is an {@link IllegalArgumentException}; a {@code clientId} missing from {@code clientIds} yields an
 * empty list (the consumer drops the topic's queues until the next rebalance). A strategy that throws
 * leaves the consumer's current queues unchanged.
 *
 * <p>Instances are created per consumer by an {@link AllocateStrategyProvider}; the rebalance of one
 * consumer runs on one thread at a time.
 */
public interface AllocateStrategy {

    /** @return the name of the provider that created this strategy */
    String name();

    /**
     * @param group the consumer group
     * @param clientId the id of the consumer asking
     * @param queues every readable queue of the topic, sorted
     * @param clientIds the ids of the group's live consumers, sorted
     * @return the queues {@code clientId} should read; never {@code null}
     */
    List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues, List<String> clientIds);
}
