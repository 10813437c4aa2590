package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** UNREGISTER_CLIENT request: one of the two groups is set. */
public record UnregisterClientRequestHeader(
        @Required String clientID,
        String producerGroup,
        String consumerGroup) implements CommandHeader {
}
