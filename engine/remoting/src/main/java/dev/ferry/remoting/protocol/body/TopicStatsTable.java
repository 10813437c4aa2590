package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Map;

/**
 * GET_TOPIC_STATS_INFO answer: each queue's offsets.
 *
 * @param topicPutTps messages per second stored in the topic over the last minute
 */
public record TopicStatsTable(@JsonSerialize(using = QueueKeyedMapSerializer.class)
                              Map<MessageQueueBody, TopicOffset> offsetTable, double topicPutTps)
        implements ObjectKeyedBody {

    public TopicStatsTable {
        offsetTable = offsetTable == null ? Map.of() : Map.copyOf(offsetTable);
    }

    /**
     * One queue.
     *
     * @param lastUpdateTimestamp store time of its last message, 0 when it has none
     */
    public record TopicOffset(long minOffset, long maxOffset, long lastUpdateTimestamp) {
    }
}
