package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Map;

/**
 * GET_CONSUME_STATS answer: a group's progress on each queue it consumes at one broker.
 *
 * @param consumeTps messages per second the group pulled over the last minute
 */
public record ConsumeStats(@JsonSerialize(using = QueueKeyedMapSerializer.class)
                           Map<MessageQueueBody, OffsetWrapper> offsetTable, double consumeTps)
        implements ObjectKeyedBody {

    public ConsumeStats {
        offsetTable = offsetTable == null ? Map.of() : Map.copyOf(offsetTable);
    }

    /** Messages the group has yet to consume, summed over its queues. */
    public long lag() {
        return offsetTable.values().stream().mapToLong(o -> Math.max(0, o.brokerOffset() - o.consumerOffset())).sum();
    }

    /**
     * One queue.
     *
     * @param brokerOffset   the queue's next offset
     * @param consumerOffset the group's committed offset
     * @param pullOffset     the offset of the group's last pull (Apache's pop path; 0 here)
     * @param lastTimestamp  store time of the last message the group consumed, 0 when none
     */
    public record OffsetWrapper(long brokerOffset, long consumerOffset, long pullOffset, long lastTimestamp) {
    }
}
