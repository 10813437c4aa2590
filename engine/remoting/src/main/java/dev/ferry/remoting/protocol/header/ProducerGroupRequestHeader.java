package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_PRODUCER_CONNECTION_LIST request. */
public record ProducerGroupRequestHeader(
        @Required String producerGroup) implements CommandHeader {
}
