package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** UNREGISTER_BROKER request. */
public record UnregisterBrokerRequestHeader(
        @Required String brokerName,
        @Required String brokerAddr,
        @Required String clusterName,
        long brokerId) implements CommandHeader {
}
