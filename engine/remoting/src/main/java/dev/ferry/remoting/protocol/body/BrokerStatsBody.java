package dev.ferry.remoting.protocol.body;

import java.util.List;

/**
 * Body of the FERRY_GET_BROKER_STATS response: what an operator wants to know about one broker.
 * Counters start at zero when the broker starts; offsets and lag come from the store and the
 * committed offsets, so they survive restarts.
 *
 * @param brokerName the broker answering
 * @param topics     per topic, sorted by name
 * @param groups     per consumer group, sorted by name
 */
public record BrokerStatsBody(String brokerName, List<TopicStats> topics, List<GroupStats> groups) {

    public BrokerStatsBody {
        topics = topics == null ? List.of() : List.copyOf(topics);
        groups = groups == null ? List.of() : List.copyOf(groups);
    }

    /**
     * One topic.
     *
     * @param topic          its name
     * @param messagesIn     messages producers stored in it since the broker started
     * @param messagesOut    messages pulls returned from it since the broker started
     * @param storedMessages messages its queues hold now (max - min offset, summed)
     */
    public record TopicStats(String topic, long messagesIn, long messagesOut, long storedMessages) {
    }

    /**
     * One consumer group.
     *
     * @param group       its name
     * @param clients     clients online now
     * @param lag         per topic and queue the group has offsets for
     * @param deadLetters messages in its DLQ ({@code %DLQ%group})
     */
    public record GroupStats(String group, int clients, List<QueueLag> lag, long deadLetters) {

        public GroupStats {
            lag = lag == null ? List.of() : List.copyOf(lag);
        }

        /** The group's total lag. */
        public long totalLag() {
            return lag.stream().mapToLong(QueueLag::lag).sum();
        }
    }

    /**
     * How far a group is behind in one queue.
     *
     * @param topic          the topic
     * @param queueId        the queue
     * @param brokerOffset   the queue's max offset (next offset to be written)
     * @param consumerOffset the group's committed offset (next to be read)
     * @param lag            messages between them
     */
    public record QueueLag(String topic, int queueId, long brokerOffset, long consumerOffset, long lag) {
    }
}
