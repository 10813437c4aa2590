package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** UPDATE_CONSUMER_OFFSET request. */
public record UpdateConsumerOffsetRequestHeader(
        @Required String consumerGroup,
        @Required String topic,
        int queueId,
        long commitOffset,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
