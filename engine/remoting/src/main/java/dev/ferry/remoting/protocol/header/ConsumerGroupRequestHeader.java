package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_CONSUMER_CONNECTION_LIST request. */
public record ConsumerGroupRequestHeader(
        @Required String consumerGroup) implements CommandHeader {
}
