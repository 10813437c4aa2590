package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** GET_CONSUMER_LIST_BY_GROUP request. */
public record GetConsumerListByGroupRequestHeader(
        @Required String consumerGroup,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
