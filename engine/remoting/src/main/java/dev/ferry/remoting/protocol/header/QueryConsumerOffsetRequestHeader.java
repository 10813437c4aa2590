package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** QUERY_CONSUMER_OFFSET request. */
public record QueryConsumerOffsetRequestHeader(
        @Required String consumerGroup,
        @Required String topic,
        int queueId,
        Boolean setZeroIfNotFound,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
