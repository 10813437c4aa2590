package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import java.util.List;

/** What a rebalance asks brokers: the group's members and where a queue starts. */
interface QueueQueries {
    /** The client ids of the group's live members, as {@code brokerName} knows them. */
    List<String> consumerIds(String brokerName);

    /** The offset one past the queue's last message. */
    long nextOffset(MessageQueue queue);

    /** The first offset stored at or after {@code timestampMillis}. */
    long searchOffset(MessageQueue queue, long timestampMillis);
}
