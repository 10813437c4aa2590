package dev.ferry.api;

import java.util.Comparator;
import java.util.Objects;

/**
 * One queue of a topic on one broker: the unit that consumers of a group divide among themselves.
 *
 * <p>Ordered by topic, then broker name, then queue id, which is the order RocketMQ's rebalance
 * sorts queues in before it hands them to an allocation strategy.
 *
 * @param topic the topic the queue belongs to
 * @param brokerName the name of the broker (set) that hosts the queue
 * @param queueId the queue's number on that broker, from 0
 */
public record MessageQueue(String topic, String brokerName, int queueId) implements Comparable<MessageQueue> {

    private static final Comparator<MessageQueue> ORDER = Comparator.comparing(MessageQueue::topic)
            .thenComparing(MessageQueue::brokerName)
            .thenComparingInt(MessageQueue::queueId);

    /** Checks that topic and broker name are present and the queue id is not negative. */
    public MessageQueue {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(brokerName, "brokerName");
        if (queueId < 0) {
            throw new IllegalArgumentException("queueId must not be negative, was " + queueId);
        }
    }

    @Override
    public int compareTo(MessageQueue other) {
        return ORDER.compare(this, other);
    }
}
