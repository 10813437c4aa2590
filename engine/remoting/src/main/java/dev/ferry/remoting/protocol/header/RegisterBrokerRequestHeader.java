package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** REGISTER_BROKER request (broker to name server); the body carries the topic configs. */
public record RegisterBrokerRequestHeader(
        @Required String brokerName,
        @Required String brokerAddr,
        @Required String clusterName,
        @Required String haServerAddr,
        long brokerId,
        Long heartbeatTimeoutMillis,
        Boolean enableActingMaster,
        Boolean compressed,
        Integer bodyCrc32) implements CommandHeader {
}
