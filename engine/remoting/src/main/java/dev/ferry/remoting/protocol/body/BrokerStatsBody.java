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
 * @param health     what the broker refused, set aside or holds now
 * @param timers     the timer messages it holds, or {@code null} from a broker that reports none
 */
public record BrokerStatsBody(String brokerName, List<TopicStats> topics, List<GroupStats> groups, Health health,
                              Timers timers) {

    public BrokerStatsBody {
        topics = topics == null ? List.of() : List.copyOf(topics);
        groups = groups == null ? List.of() : List.copyOf(groups);
    }

    /**
     * The broker's health: what went wrong since it started and how full its bounded tables are.
     *
     * @param dispatchFailures     store entries that could not be dispatched when first met (not lost: their queues
     *                             are set aside and rebuilt)
     * @param setAsideQueues       queues set aside now ({@code topic:queueId}), waiting to be rebuilt
     * @param badRequests          requests refused as malformed or invalid
     * @param malformedFrames      connections closed for a frame that could not be decoded
     * @param processorFailures    requests whose processing failed unexpectedly (each one is a defect)
     * @param connections          client connections open now
     * @param inboundBytes         bytes the requests being received or processed hold now
     * @param heldPulls            pulls held for long polling now
     * @param topics               topics served
     * @param subscriptionGroups   consumer groups known
     * @param consumerOffsets      committed offsets kept
     * @param subscriptionChars    characters the live groups' subscriptions hold
     * @param filterCacheBytes     estimated memory of the compiled filters cached
     */
    public record Health(long dispatchFailures, List<String> setAsideQueues, long badRequests, long malformedFrames,
                         long processorFailures, int connections, long inboundBytes, int heldPulls, int topics,
                         int subscriptionGroups, int consumerOffsets, long subscriptionChars, long filterCacheBytes) {

        public Health {
            setAsideQueues = setAsideQueues == null ? List.of() : List.copyOf(setAsideQueues);
        }
    }

    /**
     * The timer messages the broker holds until their time.
     *
     * @param waiting          timers waiting for their time now
     * @param notIndexed       timer messages stored but not yet taken into the timer store (Apache's
     *                         {@code timerOffsetBehind})
     * @param firingBehindMs   how far firing is behind the clock: 0 while every slot whose time has passed has fired
     * @param enqueued         timer messages taken into the timer store since the broker started (cancels included)
     * @param fired            timers delivered to their topics since the broker started
     * @param cancelled        timers a cancel withdrew since the broker started
     * @param lost             timers dropped since the broker started: their message or their topic gone
     */
    public record Timers(long waiting, long notIndexed, long firingBehindMs, long enqueued, long fired, long cancelled,
                         long lost) {
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
